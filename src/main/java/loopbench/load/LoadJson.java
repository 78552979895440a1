package loopbench.load;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import loopbench.line.NettyLine;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;

/**
 * A {@link LoadResult} as JSON: what {@code load --json} writes and the end-to-end benchmarks' side files hold. An
 * interface: scripts and the claims report read it, and a golden-file test holds it field for field (the files
 * under src/test/resources/loopbench/load/golden/ show every field).
 */
public final class LoadJson {
    private static final double[] PERCENTILES = {50, 90, 99, 99.9};

    private LoadJson() {
    }

    public static JsonObject of(LoadResult r) {
        LoadSpec spec = r.spec();
        JsonObject o = new JsonObject();
        o.addProperty("target", spec.target().toString());
        o.addProperty("mode", spec.openLoop() ? "open" : "closed");
        o.addProperty("connections", spec.connections());
        o.addProperty("pipeline", spec.pipeline());
        o.addProperty("connectionClose", spec.connectionClose());
        if (spec.openLoop()) {
            o.addProperty("rate", spec.rate());
        } else {
            o.add("rate", JsonNull.INSTANCE);
        }
        if (spec.target().protocol() == Target.Protocol.HTTP) {
            o.addProperty("method", spec.method());
            o.addProperty("bodySize", spec.bodySize());
        } else {
            o.addProperty("messageSize", spec.messageSize());
        }
        o.addProperty("netty", NettyLine.current().version()); // the generator's own; transport: the classes it ran on
        o.addProperty("transport", spec.transport().cliName());
        o.addProperty("allocator", spec.allocator().cliName() + "/" + spec.buffers().cliName());
        o.addProperty("ioThreads", spec.ioThreads());
        o.addProperty("durationSeconds", round(r.durationSeconds(), 3));
        o.addProperty("requests", r.requests());
        o.addProperty("sent", r.sent());
        o.addProperty("connectionsOpened", r.connectionsOpened());
        o.addProperty("requestsPerSecond", round(r.requestsPerSecond(), 1));
        o.addProperty("bytesRead", r.bytesRead());
        o.addProperty("bytesWritten", r.bytesWritten());
        JsonObject e = new JsonObject();
        e.addProperty("total", r.errorsTotal());
        for (ErrorKind k : ErrorKind.values()) {
            e.addProperty(k.key(), r.errors(k));
        }
        o.add("errors", e);
        JsonObject lat = new JsonObject();
        lat.add("corrected", percentiles(r.corrected()));
        lat.add("uncorrected", percentiles(r.uncorrected()));
        o.add("latencyMicros", lat);
        JsonObject dist = new JsonObject();
        dist.add("corrected", distribution(r.corrected()));
        dist.add("uncorrected", distribution(r.uncorrected()));
        o.add("latencyDistribution", dist);
        JsonObject hdr = new JsonObject();
        hdr.addProperty("corrected", encode(r.corrected()));
        hdr.addProperty("uncorrected", encode(r.uncorrected()));
        o.add("hdrHistogram", hdr);
        o.add("perSecond", perSecond(r));
        JsonObject w = new JsonObject();
        w.addProperty("seconds", round(r.warmup().toNanos() / 1e9, 3));
        w.addProperty("requests", r.warmupRequests());
        w.addProperty("errors", r.warmupErrors());
        o.add("warmup", w);
        o.add("generator", generator(r));
        return o;
    }

    /** {@link #of} pretty-printed, NaN written as such (the figures that can be NaN are written as null). */
    public static String text(LoadResult r) {
        return new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(of(r));
    }

    private static JsonArray perSecond(LoadResult r) {
        JsonArray series = new JsonArray();
        for (PerSecond s : r.perSecond()) {
            JsonObject x = new JsonObject();
            x.addProperty("second", s.second());
            x.addProperty("durationSeconds", round(s.durationSeconds(), 3));
            x.addProperty("requests", s.requests());
            x.addProperty("errors", s.errors());
            x.addProperty("p50Micros", s.p50Micros());
            x.addProperty("p99Micros", s.p99Micros());
            x.addProperty("maxMicros", s.maxMicros());
            series.add(x);
        }
        return series;
    }

    private static JsonObject generator(LoadResult r) {
        JsonObject g = new JsonObject();
        addNumber(g, "cpuMicrosPerRequest", round(r.cpuMicrosPerRequest(), 3));
        addNumber(g, "userMicrosPerRequest", round(r.userMicrosPerRequest(), 3));
        addNumber(g, "systemMicrosPerRequest", round(r.systemMicrosPerRequest(), 3));
        addNumber(g, "contextSwitchesPerRequest", round(r.contextSwitchesPerRequest(), 4));
        JsonArray loops = new JsonArray();
        double[] cpu = r.loopCpuShares();
        double[] busy = r.loopBusyShares();
        for (int i = 0; i < busy.length; i++) {
            JsonObject l = new JsonObject();
            addNumber(l, "cpuShare", round(cpu[i], 3));
            addNumber(l, "busyShare", round(busy[i], 3));
            loops.add(l);
        }
        g.add("eventLoops", loops);
        addNumber(g, "maxLoopBusyShare", round(r.maxLoopBusy(), 3));
        addNumber(g, "machineIdleShare", round(r.machineIdle(), 3));
        if (r.spec().openLoop()) {
            g.add("scheduleLagMicros", percentiles(r.scheduleLag()));
        }
        g.addProperty("saturated", r.saturated());
        JsonArray n = new JsonArray();
        r.notes().forEach(n::add);
        g.add("notes", n);
        return g;
    }

    static JsonObject percentiles(Histogram h) {
        JsonObject p = new JsonObject();
        for (double q : PERCENTILES) {
            String key = "p" + (q == Math.rint(q) ? String.valueOf((int) q) : String.valueOf(q));
            if (h.getTotalCount() == 0) {
                p.add(key, JsonNull.INSTANCE);
            } else {
                p.addProperty(key, h.getValueAtPercentile(q));
            }
        }
        if (h.getTotalCount() == 0) {
            p.add("max", JsonNull.INSTANCE);
            p.add("mean", JsonNull.INSTANCE);
        } else {
            p.addProperty("max", h.getMaxValue());
            p.addProperty("mean", round(h.getMean(), 1));
        }
        p.addProperty("count", h.getTotalCount());
        return p;
    }

    /** The percentile distribution as HdrHistogram prints it (5 ticks per half distance): [[percentile, µs], ...]. */
    static JsonArray distribution(Histogram h) {
        JsonArray a = new JsonArray();
        if (h.getTotalCount() == 0) {
            return a;
        }
        for (HistogramIterationValue v : h.percentiles(5)) {
            JsonArray point = new JsonArray();
            point.add(round(v.getPercentileLevelIteratedTo(), 6));
            point.add(h.highestEquivalentValue(v.getValueIteratedTo()));
            a.add(point);
            if (v.getPercentileLevelIteratedTo() >= 100) {
                break;
            }
        }
        return a;
    }

    /** HdrHistogram's compressed encoding, base64: the full distribution, for tools that want it exactly. */
    /** A histogram of {@link #encode} (the JSON's {@code hdrHistogram} fields). */
    static Histogram decode(String base64) {
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (java.util.zip.DataFormatException | RuntimeException e) {
            throw new IllegalArgumentException("not an encoded HdrHistogram: " + e.getMessage(), e);
        }
    }

    static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(Arrays.copyOf(buf.array(), n));
    }

    private static void addNumber(JsonObject o, String key, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            o.add(key, JsonNull.INSTANCE);
        } else {
            o.addProperty(key, v);
        }
    }

    private static double round(double v, int digits) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return v;
        }
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }
}
