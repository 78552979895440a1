package loopbench.load;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import org.HdrHistogram.Histogram;

import java.util.List;
import java.util.Locale;

/**
 * Several load generators that loaded the same target at the same time, as one: their {@code load --json} results
 * ({@link LoadJson}) merged. Counts add up; requests per second add up (the generators ran side by side); latency
 * percentiles come from the generators' HdrHistograms added together, never from averaging their percentiles (the
 * p99 of two generators is not the mean of their p99s); a generator that saturated makes the whole saturated.
 */
public final class LoadMerge {
    private LoadMerge() {
    }

    /** {@code results}: each generator's JSON with {@code "generator"} names the machine it ran on as its key. */
    public static JsonObject of(List<String> names, List<JsonObject> results) {
        if (results.isEmpty() || names.size() != results.size()) {
            throw new IllegalArgumentException("need one name per result, and at least one result");
        }
        JsonObject first = results.get(0);
        JsonObject o = new JsonObject();
        o.addProperty("target", first.get("target").getAsString());
        o.addProperty("generators", results.size());
        long requests = 0;
        long sent = 0;
        long bytesRead = 0;
        long bytesWritten = 0;
        double rate = 0;
        double duration = 0;
        boolean saturated = false;
        JsonObject errors = new JsonObject();
        Histogram corrected = null;
        Histogram uncorrected = null;
        JsonArray each = new JsonArray();
        for (int i = 0; i < results.size(); i++) {
            JsonObject r = results.get(i);
            requests += r.get("requests").getAsLong();
            sent += r.get("sent").getAsLong();
            bytesRead += r.get("bytesRead").getAsLong();
            bytesWritten += r.get("bytesWritten").getAsLong();
            rate += r.get("requestsPerSecond").getAsDouble();
            duration = Math.max(duration, r.get("durationSeconds").getAsDouble());
            for (var e : r.getAsJsonObject("errors").entrySet()) {
                long before = errors.has(e.getKey()) ? errors.get(e.getKey()).getAsLong() : 0;
                errors.addProperty(e.getKey(), before + e.getValue().getAsLong());
            }
            JsonObject hdr = r.getAsJsonObject("hdrHistogram");
            corrected = add(corrected, LoadJson.decode(hdr.get("corrected").getAsString()));
            uncorrected = add(uncorrected, LoadJson.decode(hdr.get("uncorrected").getAsString()));
            JsonObject gen = r.getAsJsonObject("generator");
            boolean sat = gen != null && gen.has("saturated") && gen.get("saturated").getAsBoolean();
            saturated |= sat;
            JsonObject g = new JsonObject();
            g.addProperty("on", names.get(i));
            g.addProperty("requests", r.get("requests").getAsLong());
            g.addProperty("requestsPerSecond", r.get("requestsPerSecond").getAsDouble());
            g.add("latencyMicros", r.getAsJsonObject("latencyMicros"));
            g.add("cpuMicrosPerRequest", gen == null ? null : gen.get("cpuMicrosPerRequest"));
            g.addProperty("saturated", sat);
            each.add(g);
        }
        o.addProperty("durationSeconds", duration);
        o.addProperty("requests", requests);
        o.addProperty("sent", sent);
        o.addProperty("requestsPerSecond", rate);
        o.addProperty("bytesRead", bytesRead);
        o.addProperty("bytesWritten", bytesWritten);
        o.add("errors", errors);
        JsonObject lat = new JsonObject();
        lat.add("corrected", LoadJson.percentiles(corrected));
        lat.add("uncorrected", LoadJson.percentiles(uncorrected));
        o.add("latencyMicros", lat);
        JsonObject dist = new JsonObject();
        dist.add("corrected", LoadJson.distribution(corrected));
        dist.add("uncorrected", LoadJson.distribution(uncorrected));
        o.add("latencyDistribution", dist);
        JsonObject hdr = new JsonObject();
        hdr.addProperty("corrected", LoadJson.encode(corrected));
        hdr.addProperty("uncorrected", LoadJson.encode(uncorrected));
        o.add("hdrHistogram", hdr);
        o.addProperty("saturated", saturated);
        o.add("perGenerator", each);
        return o;
    }

    private static Histogram add(Histogram sum, Histogram h) {
        if (sum == null) {
            return h.copy();
        }
        sum.add(h);
        return sum;
    }

    /** A few lines for a person: totals, merged percentiles, each generator. */
    public static String summary(JsonObject merged) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%d load generators @ %s, %.2f s%n", merged.get("generators").getAsInt(),
                merged.get("target").getAsString(), merged.get("durationSeconds").getAsDouble()));
        JsonObject c = merged.getAsJsonObject("latencyMicros").getAsJsonObject("corrected");
        sb.append("  Latency (µs, merged histograms)  p50 ").append(text(c.get("p50"))).append("  p99 ")
                .append(text(c.get("p99"))).append("  p99.9 ").append(text(c.get("p99.9"))).append("  max ")
                .append(text(c.get("max"))).append(System.lineSeparator());
        sb.append(String.format(Locale.ROOT, "  %,d requests, %,.1f requests/s in all; errors: %s%s%n",
                merged.get("requests").getAsLong(), merged.get("requestsPerSecond").getAsDouble(),
                merged.getAsJsonObject("errors").get("total"),
                merged.get("saturated").getAsBoolean() ? "; a generator was SATURATED" : ""));
        for (JsonElement e : merged.getAsJsonArray("perGenerator")) {
            JsonObject g = e.getAsJsonObject();
            sb.append(String.format(Locale.ROOT, "  %-40s %,12d requests %,12.1f req/s%s%n",
                    g.get("on").getAsString(), g.get("requests").getAsLong(), g.get("requestsPerSecond").getAsDouble(),
                    g.get("saturated").getAsBoolean() ? "  SATURATED" : ""));
        }
        return sb.toString();
    }

    private static String text(JsonElement e) {
        return e == null || e.isJsonNull() ? "-" : e.getAsString();
    }

    public static String json(JsonObject merged) {
        return new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(merged);
    }
}
