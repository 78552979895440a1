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
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one end-to-end trial (one fork) leaves next to the JMH JSON, in {@code DIR/}{@value
 * EndToEndMetrics#SIDE_FILE_DIR}:
 * {@code {"benchmark", "params", "fork", "load"}}, where {@code load} is the load generator's result over the
 * measurement iterations (none from a trial loaded in many short slices, ProxySideBySideBenchmark's), and, from the
 * suite, {@code "run"} (and from the rounds engine {@code "arm"} and {@code "round"}) that tie the file to the run
 * and fork that wrote it, and {@code "placement"}: the placement parameter, the CPUs each process really had and
 * each one's CPU use. The claims read what JMH's JSON cannot carry: the per-second series (a cold proxy's warm-up
 * curve), the full latency distribution (the percentile plot), and where each process ran.
 */
public final class SideFile {
    private final Path file;
    private final String benchmark;
    private final Map<String, String> params;
    private final long fork;
    private final JsonObject json;
    private final JsonObject load;

    private SideFile(Path file, String benchmark, Map<String, String> params, long fork, JsonObject json) {
        this.file = file;
        this.benchmark = benchmark;
        this.params = params;
        this.fork = fork;
        this.json = json;
        this.load = json.has("load") && json.get("load").isJsonObject() ? json.getAsJsonObject("load")
                : new JsonObject(); // a trial loaded in slices: no one load result
    }

    /** Reads one side file; throws IOException naming the file when it is not one. */
    public static SideFile read(Path file) throws IOException {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            JsonElement e = JsonParser.parseReader(r);
            if (!e.isJsonObject() || !e.getAsJsonObject().has("benchmark")
                    || !e.getAsJsonObject().has("load") && !e.getAsJsonObject().has("placement")) {
                throw new IOException(file + " is not an end-to-end side file (expected {\"benchmark\", \"params\", "
                        + "\"fork\", \"load\"}, or \"placement\" instead of \"load\")");
            }
            JsonObject o = e.getAsJsonObject();
            Map<String, String> p = new TreeMap<>();
            if (o.has("params") && o.get("params").isJsonObject()) {
                o.getAsJsonObject("params").entrySet().forEach(x -> p.put(x.getKey(), x.getValue().getAsString()));
            }
            long fork = o.has("fork") ? o.get("fork").getAsLong() : 0;
            return new SideFile(file, o.get("benchmark").getAsString(), Collections.unmodifiableMap(p), fork, o);
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

    /**
     * Whether this trial measured {@code r}: same benchmark method, the same parameters, and the same run (and arm
     * and group, when the result has them). A result without a run id (a run before side files were tied to runs)
     * takes only side files without one. A gateway that is not loopbench's must also be the same one: the side
     * file's command template, where it names one, the result's {@code -Dloopbench.external.proxy} (two gateways
     * measured with the same parameters differ only there).
     */
    public boolean matches(JmhResult r) {
        String b = benchmark;
        boolean sameBenchmark = b.equals(r.benchmark()) || b.equals(r.shortName()) || r.benchmark().endsWith("." + b);
        if (!sameBenchmark || !params.equals(r.params()) || !Objects.equals(run(), r.run())) {
            return false;
        }
        if (r.arm() != null && !r.arm().equals(arm())) {
            return false;
        }
        // Two lines of a run may share benchmark, parameters and arm label (e.g. the same line on Netty 4.1 and 4.2):
        // the group, the line's label, tells them apart.
        if (r.group() != null && group() != null && !r.group().equals(group())) {
            return false;
        }
        String external = externalTemplate();
        return external == null || external.equals(r.systemProperty(EndToEndMetrics.EXTERNAL_PROXY_PROPERTY));
    }

    /** The command template of the gateway that is not loopbench's in this trial, or null (none, or an older file). */
    public String externalTemplate() {
        if (!json.has("stack") || !json.get("stack").isJsonObject()) {
            return null;
        }
        for (var e : json.getAsJsonObject("stack").entrySet()) {
            if (e.getValue().isJsonObject() && e.getValue().getAsJsonObject().has(EndToEndMetrics.EXTERNAL)) {
                return e.getValue().getAsJsonObject().get(EndToEndMetrics.EXTERNAL).getAsString();
            }
        }
        return null;
    }

    public Path file() {
        return file;
    }

    /** The fork's process id, as the benchmark wrote it. */
    public long fork() {
        return fork;
    }

    private String string(String name) {
        return json.has(name) && !json.get(name).isJsonNull() ? json.get(name).getAsString() : null;
    }

    /** The run that wrote this file, or null (files written before runs had ids, or by hand). */
    public String run() {
        return string("run");
    }

    /** The rounds engine's arm, or null. */
    public String arm() {
        return string("arm");
    }

    /** The rounds engine's group (the profile line's label) that wrote this file, or null. */
    public String group() {
        return string("group");
    }

    /** The round this fork ran in, or null outside the rounds engine. */
    public Integer round() {
        return json.has("round") && !json.get("round").isJsonNull() ? json.get("round").getAsInt() : null;
    }

    /** "round 3" or "fork 12345": how the report names this trial. */
    public String trial() {
        return round() != null ? "round " + round() : "fork " + fork;
    }

    /** The placement parameter the trial ran with, or null when the file does not say. */
    public String placementName() {
        JsonObject p = placement();
        return p != null && p.has("name") ? p.get("name").getAsString() : null;
    }

    /** The CPUs each process (by role: client, proxy, origin, echo) really had, from /proc; empty if unknown. */
    public Map<String, String> cpus() {
        JsonObject p = placement();
        return p != null && p.has("cpus") ? strings(p.getAsJsonObject("cpus")) : Map.of();
    }

    /**
     * Each role's CPU use over the measurement, in CPUs (CPU seconds / wall seconds); empty if unknown. Read from
     * {@code placement.cpuUse}, or a top-level {@code cpuUse}.
     */
    public Map<String, Double> cpuUse() {
        JsonObject p = placement();
        JsonObject use = p != null && p.has("cpuUse") ? p.getAsJsonObject("cpuUse")
                : json.has("cpuUse") && json.get("cpuUse").isJsonObject() ? json.getAsJsonObject("cpuUse") : null;
        Map<String, Double> m = new TreeMap<>();
        if (use != null) {
            use.entrySet().forEach(e -> m.put(e.getKey(), e.getValue().getAsDouble()));
        }
        return m;
    }

    /**
     * The Netty version a server role ran (its last memory report, else its ready line in {@code stack}), or null
     * when the file does not say.
     */
    public String serverNetty(String role) {
        for (String part : List.of("memory", "stack")) {
            if (json.has(part) && json.get(part).isJsonObject() && json.getAsJsonObject(part).has(role)) {
                JsonObject o = json.getAsJsonObject(part).getAsJsonObject(role);
                if (o.has("netty")) {
                    return o.get("netty").getAsString();
                }
            }
        }
        return null;
    }

    private JsonObject placement() {
        return json.has("placement") && json.get("placement").isJsonObject() ? json.getAsJsonObject("placement") : null;
    }

    private static Map<String, String> strings(JsonObject o) {
        Map<String, String> m = new TreeMap<>();
        o.entrySet().forEach(e -> m.put(e.getKey(), e.getValue().getAsString()));
        return m;
    }

    public Map<String, String> params() {
        return params;
    }

    public JsonObject load() {
        return load;
    }

    /**
     * One entry of the per-second series as the load generator saw it: nominally a second, but the last one of a
     * run is whatever was left of it (often a few milliseconds), so its rate is {@link #rate()}, never its count.
     */
    public record Second(int second, double durationSeconds, long requests, long errors, double p99Micros) {
        /** Requests per second over this entry's own duration. */
        public double rate() {
            return requests / durationSeconds;
        }
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
                    s.has("durationSeconds") ? s.get("durationSeconds").getAsDouble() : 1.0,
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
