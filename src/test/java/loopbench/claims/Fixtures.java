package loopbench.claims;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import loopbench.metrics.MemoryReport;
import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Small JMH JSON results and end-to-end side files in the shapes the claims report reads: JMH's own JSON (primary
 * and secondary metrics with rawData per fork and iteration, and the suite's "loopbench" field: run, group, arm,
 * the round of each fork), and {"benchmark", "params", "fork", "run", "arm", "round", "placement", "load"} side files
 * (the format of the interface between the rounds engine and its readers).
 */
final class Fixtures {
    /** The run id fixtures use: its time sorts before ClaimCatalog.SIDE_BY_SIDE_REVISED, so the earlier rules. */
    static final String RUN = "20261126T200000Z-fxtr"; // a run before the side-by-side revision (earlier rules)
    private final List<JsonObject> results = new ArrayList<>();
    private final List<JsonObject> sideFiles = new ArrayList<>();

    /** A result builder for {@code selection}'s benchmark and parameters. */
    Result result(Selection s, String mode, String unit) {
        Result r = new Result(s, mode, unit);
        return r;
    }

    final class Result {
        private final JsonObject json = new JsonObject();
        private final JsonObject secondary = new JsonObject();
        private final Selection selection;

        Result(Selection s, String mode, String unit) {
            this.selection = s;
            json.addProperty("jmhVersion", "1.37");
            json.addProperty("benchmark", "loopbench.bench." + s.benchmark());
            json.addProperty("mode", mode);
            json.addProperty("threads", 1);
            json.addProperty("jvm", "/usr/lib/jvm/java-17-openjdk-amd64/bin/java");
            JsonArray args = new JsonArray();
            args.add("-Dloopbench.requireUnsafe=true");
            args.add("-Xmx1g");
            json.add("jvmArgs", args);
            json.addProperty("jdkVersion", "17.0.15");
            json.addProperty("vmName", "OpenJDK 64-Bit Server VM");
            json.addProperty("vmVersion", "17.0.15+6");
            JsonObject params = new JsonObject();
            s.params().forEach(params::addProperty);
            json.add("params", params);
            json.add("secondaryMetrics", secondary);
            json.addProperty("scoreUnitForFixture", unit);
        }

        /** The primary metric, one row of iteration values per fork. */
        Result primary(double[][] raw) {
            json.add("primaryMetric", metric(raw, json.get("scoreUnitForFixture").getAsString()));
            json.addProperty("forks", raw.length);
            json.addProperty("measurementIterations", raw.length == 0 ? 0 : raw[0].length);
            return this;
        }

        /** The primary metric with one value per fork (each fork's iterations all equal it). */
        Result forks(double... forkValues) {
            return primary(rows(forkValues, 2));
        }

        Result secondary(String name, String unit, double[][] raw) {
            secondary.add(name, metric(raw, unit));
            return this;
        }

        Result secondaryForks(String name, String unit, double... forkValues) {
            return secondary(name, unit, rows(forkValues, 2));
        }

        /** The suite's "loopbench" field: run id, group (the line's label), arm, and each fork's round. */
        Result rounds(String run, String group, String arm, int... rounds) {
            JsonObject lb = new JsonObject();
            lb.addProperty("run", run);
            lb.addProperty("group", group);
            lb.addProperty("arm", arm);
            JsonArray r = new JsonArray();
            for (int x : rounds) {
                r.add(x);
            }
            lb.add("rounds", r);
            json.add("loopbench", lb);
            return this;
        }

        /** Rounds 1..n in the selection's own group, run {@link #RUN}, arm = the selection's label. */
        Result inRounds(int... rounds) {
            return rounds(RUN, selection.group().label(), selection.label(), rounds);
        }

        /** One more JVM argument of the fork, e.g. an external gateway's command template. */
        Result jvmArg(String arg) {
            json.getAsJsonArray("jvmArgs").add(arg);
            return this;
        }

        /** Marks the result as twin A or B of a null experiment. */
        Result twin(String twin) {
            JsonObject lb = json.getAsJsonObject("loopbench");
            lb.addProperty("twin", twin);
            lb.addProperty("arm", lb.get("arm").getAsString() + " [" + twin + "]");
            return this;
        }

        Fixtures add() {
            json.remove("scoreUnitForFixture");
            results.add(json);
            return Fixtures.this;
        }

        Selection selection() {
            return selection;
        }
    }

    /** The start of a side file of one fork of {@code s}: {"benchmark", "params", "fork"}. */
    static JsonObject sideFile(Selection s, int fork) {
        JsonObject o = new JsonObject();
        o.addProperty("benchmark", "loopbench.bench." + s.benchmark());
        JsonObject params = new JsonObject();
        s.params().forEach(params::addProperty);
        o.add("params", params);
        o.addProperty("fork", fork);
        return o;
    }

    /** Each fork's value repeated over {@code iterations} iterations. */
    static double[][] rows(double[] forkValues, int iterations) {
        double[][] raw = new double[forkValues.length][iterations];
        for (int f = 0; f < forkValues.length; f++) {
            java.util.Arrays.fill(raw[f], forkValues[f]);
        }
        return raw;
    }

    static JsonObject metric(double[][] raw, String unit) {
        JsonObject m = new JsonObject();
        double sum = 0;
        int n = 0;
        JsonArray forks = new JsonArray();
        for (double[] f : raw) {
            JsonArray it = new JsonArray();
            for (double v : f) {
                it.add(v);
                sum += v;
                n++;
            }
            forks.add(it);
        }
        m.addProperty("score", n == 0 ? Double.NaN : sum / n);
        m.addProperty("scoreError", "NaN");
        m.addProperty("scoreUnit", unit);
        m.add("rawData", forks);
        return m;
    }

    /** The arms of the side-by-side line, as its {@code arms} parameter names them in metric names. */
    static final List<String> SIDE_BY_SIDE_ARMS = List.of(ClaimCatalog.ARM_DIRECT, ClaimCatalog.ARM_L4_RST,
            ClaimCatalog.ARM_L4_RSG, ClaimCatalog.ARM_L4_IG, ClaimCatalog.ARM_L7_RST, ClaimCatalog.ARM_L7_RSG,
            ClaimCatalog.ARM_L7_IG, ClaimCatalog.ARM_L7_POOLED, ClaimCatalog.ARM_L7_UNPOOLED);

    /**
     * A side-by-side result of {@code forks} forks (rounds 1..forks of run {@code run}), 4 cycles each: every arm's
     * figures ({@code e2e.arm.ARM.X}) at its {@code scale} times a base (requests/s divided by it, costs multiplied),
     * each fork +-1% around it, cycle values alike.
     */
    Fixtures sideBySide(Selection s, String run, int forks, java.util.function.ToDoubleFunction<String> scale) {
        Result r = result(s, "ss", "s/op");
        double[] primary = new double[forks];
        java.util.Arrays.fill(primary, 9.3);
        r.forks(primary);
        int[] rounds = new int[forks];
        for (int i = 0; i < forks; i++) {
            rounds[i] = i + 1;
        }
        r.rounds(run, s.group().label(), s.label(), rounds);
        for (String arm : SIDE_BY_SIDE_ARMS) {
            double k = scale.applyAsDouble(arm);
            double[] wobble = new double[forks];
            for (int i = 0; i < forks; i++) {
                wobble[i] = 1 + (i - (forks - 1) / 2.0) * 0.01;
            }
            java.util.function.DoubleFunction<double[][]> rowsOf = base -> {
                double[] v = new double[forks];
                for (int i = 0; i < forks; i++) {
                    v[i] = base * wobble[i];
                }
                return rows(v, 4);
            };
            r.secondary(EndToEndMetrics.arm(arm, EndToEndMetrics.REQUESTS_PER_SECOND), "req/s",
                    rowsOf.apply(60_000 / k));
            r.secondary(EndToEndMetrics.arm(arm, EndToEndMetrics.cpu(EndToEndMetrics.ORIGIN)), "us", rowsOf.apply(9));
            if (!arm.equals(ClaimCatalog.ARM_DIRECT)) {
                r.secondary(EndToEndMetrics.arm(arm, EndToEndMetrics.cpu(EndToEndMetrics.PROXY)), "us",
                        rowsOf.apply(16 * k));
                r.secondary(EndToEndMetrics.arm(arm, EndToEndMetrics.contextSwitches(EndToEndMetrics.PROXY)), "#",
                        rowsOf.apply(0.1 * k * k * k));
                r.secondary(EndToEndMetrics.arm(arm, EndToEndMetrics.jit(EndToEndMetrics.PROXY)), "us",
                        rowsOf.apply(0.05));
                r.secondary(EndToEndMetrics.arm(arm, EndToEndMetrics.memory(EndToEndMetrics.PROXY,
                        MemoryReport.ALLOCATOR_DIRECT_RESERVED)), "B", rowsOf.apply(8e6 * k));
                r.secondary(EndToEndMetrics.arm(arm, EndToEndMetrics.memory(EndToEndMetrics.PROXY,
                        MemoryReport.RSS)), "B", rowsOf.apply(3e8 * k));
            }
        }
        return r.add();
    }

    /** A throughput result with these per-fork means (2 iterations each, equal). */
    Fixtures thrpt(Selection s, double... forkValues) {
        return result(s, "thrpt", "ops/s").forks(forkValues).add();
    }

    /** An end-to-end side file for one fork of {@code s}, without a run id (as before runs had ids). */
    Fixtures side(Selection s, int fork, long[] perSecondRequests, double[][] corrected) {
        return side(s, fork, perSecondRequests, null, corrected, null, null, null);
    }

    /**
     * A side file for one fork of {@code s}: its per-second series (with each entry's duration, 1 s when null), and
     * when {@code run} is given the run, the arm (the selection's label), the round and a pinned placement.
     */
    Fixtures side(Selection s, int fork, long[] perSecondRequests, double[] durations, double[][] corrected,
                  String run, Integer round, String arm) {
        JsonObject o = sideFile(s, fork);
        if (run != null) {
            o.addProperty("run", run);
            o.addProperty("arm", arm != null ? arm : s.label());
            if (round != null) {
                o.addProperty("round", round);
            }
            JsonObject placement = new JsonObject();
            placement.addProperty("name", "pinned");
            JsonObject cpus = new JsonObject();
            cpus.addProperty("client", "0");
            cpus.addProperty("proxy", "1");
            cpus.addProperty("origin", "0");
            placement.add("cpus", cpus);
            JsonObject use = new JsonObject();
            use.addProperty("client", 0.6);
            use.addProperty("proxy", 0.95);
            use.addProperty("origin", 0.35);
            placement.add("cpuUse", use);
            o.add("placement", placement);
        }
        JsonObject load = new JsonObject();
        load.addProperty("target", "127.0.0.1:1");
        load.addProperty("mode", "closed");
        load.addProperty("connections", 64);
        long total = 0;
        JsonArray seconds = new JsonArray();
        for (int i = 0; i < perSecondRequests.length; i++) {
            JsonObject sec = new JsonObject();
            sec.addProperty("second", i);
            sec.addProperty("durationSeconds", durations == null ? 1.0 : durations[i]);
            sec.addProperty("requests", perSecondRequests[i]);
            sec.addProperty("errors", i == 0 ? 1 : 0);
            sec.addProperty("p99Micros", 1000);
            seconds.add(sec);
            total += perSecondRequests[i];
        }
        load.addProperty("requests", total);
        load.add("perSecond", seconds);
        JsonObject errors = new JsonObject();
        errors.addProperty("total", 1);
        load.add("errors", errors);
        JsonObject dist = new JsonObject();
        JsonArray rows = new JsonArray();
        for (double[] p : corrected) {
            JsonArray pair = new JsonArray();
            pair.add(p[0]);
            pair.add(p[1]);
            rows.add(pair);
        }
        dist.add("corrected", rows);
        dist.add("uncorrected", rows);
        load.add("latencyDistribution", dist);
        o.add("load", load);
        sideFiles.add(o);
        return this;
    }

    /** A latency distribution shaped like HdrHistogram's output, scaled by {@code scale}. */
    static double[][] distribution(double scale) {
        return new double[][] {{0.0, 100 * scale}, {0.5, 200 * scale}, {0.9, 300 * scale}, {0.99, 600 * scale},
                {0.999, 1200 * scale}, {1.0, 2000 * scale}};
    }

    /** Writes results.json (and e2e/ side files) into {@code dir}; returns the JSON's path. */
    Path write(Path dir) throws IOException {
        Files.createDirectories(dir);
        JsonArray all = new JsonArray();
        results.forEach(all::add);
        Path json = dir.resolve("results.json");
        Files.writeString(json, new GsonBuilder().setPrettyPrinting().create().toJson(all), StandardCharsets.UTF_8);
        Path side = dir.resolve(EndToEndMetrics.SIDE_FILE_DIR);
        Files.createDirectories(side);
        int i = 0;
        for (JsonObject o : sideFiles) {
            Files.writeString(side.resolve("side-" + (i++) + ".json"), o.toString(), StandardCharsets.UTF_8);
        }
        return json;
    }

    /** The results as a Measurements (side files included), without touching the disk. */
    Measurements measurements(Path dir) throws IOException {
        return Measurements.load(List.of(write(dir)));
    }

    List<JmhResult> results() {
        return results.stream().map(JmhResult::of).toList();
    }

    static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /**
     * A result for every configuration any claim reads, 3 forks each, with every metric the claims use and a side
     * file per fork of the end-to-end ones: a full report with no claim MISSING. Values are plausible, not real.
     */
    static Fixtures everything() {
        Fixtures f = new Fixtures();
        java.util.Set<String> done = new java.util.HashSet<>();
        List<Selection> all = new ArrayList<>();
        for (Claim c : ClaimCatalog.all()) { // today's selections, and those of the rules RUN is judged by
            all.addAll(c.selections());
            all.addAll(c.asJudged(RUN).selections());
        }
        {
            for (Selection s : all) {
                if (!done.add(s.describe() + " in " + s.group().label())) {
                    continue;
                }
                if (s.group() == ClaimCatalog.SIDE_BY_SIDE_64) {
                    f.sideBySide(s, RUN, 3, arm -> 1.0 + Math.abs(arm.hashCode() % 50) / 100.0);
                    continue;
                }
                double base = 1000 + Math.abs(s.describe().hashCode() % 9000);
                double[] forks = {base, base * 1.01, base * 0.99};
                boolean e2e = s.className().contains("EndToEnd") || s.className().contains("Warmup");
                Result r = f.result(s, e2e || s.className().equals("OffloadBenchmark") ? "thrpt" : "avgt",
                        e2e ? "ops/s" : "ns/op").forks(forks).inRounds(1, 2, 3);
                if (e2e) {
                    r.secondaryForks(EndToEndMetrics.cpu(EndToEndMetrics.PROXY), "us", 40, 41, 39)
                            .secondaryForks(EndToEndMetrics.contextSwitches(EndToEndMetrics.PROXY), "#", 2, 2.1, 1.9)
                            .secondaryForks(EndToEndMetrics.cpu(EndToEndMetrics.ECHO), "us", 10, 10.5, 9.5)
                            .secondaryForks(EndToEndMetrics.cpu(EndToEndMetrics.ORIGIN), "us", 20, 21, 19)
                            .secondaryForks(EndToEndMetrics.ECHO_MIB_PER_SECOND, "MiB/s", 100, 101, 99)
                            .secondaryForks(EndToEndMetrics.PREDICTED_BOUND, "ops/s", base * 1.1, base * 1.1,
                                    base * 1.1)
                            .secondaryForks(EndToEndMetrics.LATENCY_P50, "us", 200, 210, 190)
                            .secondaryForks(EndToEndMetrics.LATENCY_P99, "us", 600, 650, 580)
                            .secondaryForks(EndToEndMetrics.WARMUP_FIRST_SECOND, "ops/s", 300, 320, 310)
                            .secondaryForks(EndToEndMetrics.WARMUP_ERRORS, "#", 0, 2, 0)
                            .secondaryForks(EndToEndMetrics.WARMUP_SECONDS_TO_90, "s", 4, 5, 4)
                            .secondaryForks(EndToEndMetrics.memory(EndToEndMetrics.PROXY,
                                    MemoryReport.ALLOCATOR_DIRECT_RESERVED), "B", 8e6, 8.1e6, 7.9e6)
                            .secondaryForks(EndToEndMetrics.memoryAtBurstEnd(EndToEndMetrics.PROXY,
                                    MemoryReport.ALLOCATOR_DIRECT_RESERVED), "B", 9e7, 9.1e7, 8.9e7)
                            .secondaryForks(EndToEndMetrics.memory(EndToEndMetrics.PROXY, MemoryReport.RSS), "B",
                                    3e8, 3.1e8, 2.9e8);
                    for (int fork = 0; fork < 3; fork++) {
                        f.side(s, 100 + fork, new long[] {300, 600, 800, 900, 1000, 1000, 1010, 990, 1000, 1005, 3},
                                new double[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0.003}, distribution(1 + fork * 0.1), RUN,
                                fork + 1, s.label());
                    }
                } else {
                    r.secondaryForks("requests", "#", 1000, 1000, 1000)
                            .secondaryForks("clientBytesIn", "#", 30000, 30000, 30000)
                            .secondaryForks("backendBytesOut", "#", 55000, 55000, 55000)
                            .secondaryForks("backendBytesIn", "#", 1100000, 1100000, 1100000)
                            .secondaryForks("clientBytesOut", "#", 1100000, 1100000, 1100000)
                            .secondaryForks("messages", "#", 1000, 1000, 1000)
                            .secondaryForks("guessChanges", "#", 1500, 1500, 1500)
                            .secondaryForks("gc.alloc.rate.norm", "B/op", 512, 512, 512)
                            .secondaryForks("cpu.ns/op", "ns/op", 900, 910, 890)
                            .secondaryForks(EndToEndMetrics.LATENCY_MEAN, "us", 120, 125, 118)
                            .secondaryForks(EndToEndMetrics.LATENCY_P50, "us", 60, 61, 59)
                            .secondaryForks(EndToEndMetrics.LATENCY_P99, "us", 900, 950, 880)
                            .secondaryForks(EndToEndMetrics.LATENCY_MAX, "us", 2100, 2200, 2000)
                            .secondaryForks(EndToEndMetrics.TASK_LATENCY_MEAN, "us", 1000, 1010, 990);
                }
                r.add();
            }
        }
        return f;
    }
}
