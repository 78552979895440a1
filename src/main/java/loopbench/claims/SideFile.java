package loopbench.claims;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one end-to-end trial (one fork) leaves next to the JMH JSON, in {@code DIR/}{@value EndToEndMetrics#SIDE_FILE_DIR}:
 * {@code {"benchmark", "params", "fork", "load"}}, where {@code load} is the load generator's result over the
 * measurement iterations. The claims read the two things JMH's JSON cannot carry: the per-second series (a cold
 * proxy's warm-up curve) and the full latency distribution (the percentile plot).
 */
public final class SideFile {
    private final Path file;
    private final String benchmark;
    private final Map<String, String> params;
    private final int fork;
    private final JsonObject load;

    private SideFile(Path file, String benchmark, Map<String, String> params, int fork, JsonObject load) {
        this.file = file;
        this.benchmark = benchmark;
        this.params = params;
        this.fork = fork;
        this.load = load;
    }

    /** Reads one side file; throws IOException naming the file when it is not one. */
    public static SideFile read(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            JsonElement e = JsonParser.parseReader(r);
            if (!e.isJsonObject() || !e.getAsJsonObject().has("benchmark") || !e.getAsJsonObject().has("load")) {
                throw new IOException(file + " is not an end-to-end side file (expected {\"benchmark\", \"params\", \"fork\", \"load\"})");
            }
            JsonObject o = e.getAsJsonObject();
            Map<String, String> p = new TreeMap<>();
            if (o.has("params") && o.get("params").isJsonObject()) {
                o.getAsJsonObject("params").entrySet().forEach(x -> p.put(x.getKey(), x.getValue().getAsString()));
            }
            int fork = o.has("fork") ? o.get("fork").getAsInt() : 0;
            return new SideFile(file, o.get("benchmark").getAsString(), Collections.unmodifiableMap(p), fork,
                    o.getAsJsonObject("load"));
        } catch (JsonParseException | IllegalStateException | UnsupportedOperationException e) {
            throw new IOException(file + " is not an end-to-end side file: " + e.getMessage(), e);
        }
    }

    /** Every side file in {@code dir} (none if it does not exist); unreadable ones are reported to {@code problems}. */
    public static List<SideFile> readAll(Path dir, List<String> problems) throws IOException {
        List<SideFile> files = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return files;
        }
        try (var list = Files.list(dir)) {
            for (Path f : list.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                try {
                    files.add(read(f));
                } catch (IOException e) {
                    problems.add(e.getMessage());
                }
            }
        }
        return files;
    }

    /** Whether this trial measured {@code r}: same benchmark method and the same parameters. */
    public boolean matches(JmhResult r) {
        String b = benchmark;
        boolean sameBenchmark = b.equals(r.benchmark()) || b.equals(r.shortName()) || r.benchmark().endsWith("." + b);
        return sameBenchmark && params.equals(r.params());
    }

    public Path file() {
        return file;
    }

    public int fork() {
        return fork;
    }

    public Map<String, String> params() {
        return params;
    }

    public JsonObject load() {
        return load;
    }

    /** One second of the run as the load generator saw it. */
    public record Second(int second, long requests, long errors, double p99Micros) {
    }

    /** The per-second series, in order; empty if the load result has none. */
    public List<Second> perSecond() {
        List<Second> list = new ArrayList<>();
        if (!load.has("perSecond")) {
            return list;
        }
        for (JsonElement e : load.getAsJsonArray("perSecond")) {
            JsonObject s = e.getAsJsonObject();
            list.add(new Second(s.has("second") ? s.get("second").getAsInt() : list.size(),
                    s.has("requests") ? s.get("requests").getAsLong() : 0,
                    s.has("errors") ? s.get("errors").getAsLong() : 0,
                    s.has("p99Micros") ? s.get("p99Micros").getAsDouble() : Double.NaN));
        }
        return list;
    }

    /** One point of a percentile distribution: the percentile as a fraction (0.99) and the latency in µs. */
    public record Percentile(double fraction, double micros) {
    }

    /**
     * The latency distribution, {@code corrected} (from each request's intended send time) or {@code uncorrected},
     * as HdrHistogram's percentile output gives it. Percentiles written as percent (99.9) are turned into fractions.
     */
    public List<Percentile> latencyDistribution(String kind) {
        List<Percentile> points = new ArrayList<>();
        if (!load.has("latencyDistribution") || !load.getAsJsonObject("latencyDistribution").has(kind)) {
            return points;
        }
        JsonArray rows = load.getAsJsonObject("latencyDistribution").getAsJsonArray(kind);
        double max = 0;
        for (JsonElement e : rows) {
            max = Math.max(max, e.getAsJsonArray().get(0).getAsDouble());
        }
        double scale = max > 1.0 ? 100.0 : 1.0;
        for (JsonElement e : rows) {
            JsonArray pair = e.getAsJsonArray();
            points.add(new Percentile(pair.get(0).getAsDouble() / scale, pair.get(1).getAsDouble()));
        }
        return points;
    }

    /** Requests that failed in the run, from {@code errors.total}; 0 when absent. */
    public long errors() {
        if (!load.has("errors")) {
            return 0;
        }
        JsonElement e = load.get("errors");
        return e.isJsonObject() ? (e.getAsJsonObject().has("total") ? e.getAsJsonObject().get("total").getAsLong() : 0)
                : e.getAsLong();
    }
}
