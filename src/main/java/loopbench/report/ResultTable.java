package loopbench.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns JMH's own JSON result file into readable Markdown: one table per benchmark class, one row per
 * benchmark method and parameter combination, the score with its 99.9% error and unit, how many samples
 * (forks x iterations) it came from, and the secondary results that carry a cost per operation (allocated
 * bytes from {@code -prof gc}, CPU time and context switches from {@code ProcCpuProfiler}, and the
 * benchmarks' own counters).
 *
 * <p>{@code java -cp target/benchmarks.jar loopbench.report.ResultTable target/jmh/results.json}
 */
public final class ResultTable {

    /**
     * Secondary results worth a column; the others (rates per second, GC counts, profilers' placeholders with
     * unit "---" such as async-profiler's) are left in the JSON.
     */
    private static boolean isCostColumn(String name) {
        if (name.startsWith("gc.")) {
            return name.equals("gc.alloc.rate.norm");
        }
        return true;
    }

    /** Counters of the work done, by which a benchmark's other counters are divided. */
    private static final List<String> PER_UNIT_COUNTERS = List.of("requests", "messages");

    private ResultTable() {
    }

    private static double score(JsonObject metric) {
        return metric.get("score").getAsDouble();
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: ResultTable JMH_RESULT.json [...]  (prints Markdown tables on stdout)");
            System.exit(2);
        }
        for (String a : args) {
            System.out.print(render(read(Paths.get(a))));
        }
    }

    public static JsonArray read(Path json) throws IOException {
        try (Reader r = Files.newBufferedReader(json, StandardCharsets.UTF_8)) {
            JsonElement e = JsonParser.parseReader(r);
            if (!e.isJsonArray()) {
                throw new IOException(json + " is not a JMH JSON result (expected an array)");
            }
            return e.getAsJsonArray();
        } catch (JsonParseException e) {
            throw new IOException(json + " is not a JMH JSON result (not JSON: " + e.getMessage().lines().findFirst()
                    .orElse("") + ")", e);
        }
    }

    public static String render(JsonArray results) {
        StringBuilder out = new StringBuilder();
        if (results.size() == 0) {
            return "No results.\n";
        }
        out.append(environment(results)).append('\n');
        Map<String, List<JsonObject>> byClass = new LinkedHashMap<>();
        for (JsonElement e : results) {
            JsonObject r = e.getAsJsonObject();
            byClass.computeIfAbsent(className(r.get("benchmark").getAsString()), k -> new ArrayList<>()).add(r);
        }
        byClass.forEach((cls, rows) -> out.append(table(cls, rows)).append('\n'));
        return out.toString();
    }

    private static String environment(JsonArray results) {
        JsonObject first = results.get(0).getAsJsonObject();
        Set<String> jvmArgs = new LinkedHashSet<>();
        for (JsonElement e : results) {
            for (JsonElement a : e.getAsJsonObject().getAsJsonArray("jvmArgs")) {
                jvmArgs.add(a.getAsString());
            }
        }
        String unsafe = jvmArgs.contains("-Dloopbench.requireUnsafe=true")
                ? "on (checked in every fork)"
                : jvmArgs.contains("-Dloopbench.requireUnsafe=false") ? "off (checked in every fork)"
                : jvmArgs.contains("-Dio.netty.noUnsafe=false") ? "requested (-Dio.netty.noUnsafe=false)"
                : "JVM default";
        return "JMH " + str(first, "jmhVersion") + ", " + str(first, "vmName") + " " + str(first, "vmVersion")
                + " (JDK " + str(first, "jdkVersion") + ")\n\n"
                + "Fork JVM options: `" + String.join(" ", jvmArgs) + "`  \n"
                + "Netty sun.misc.Unsafe: " + unsafe + "  \n"
                + "Scores are means with their 99.9% confidence half-width (JMH's error); n = forks x measurement "
                + "iterations.\n";
    }

    private static String table(String cls, List<JsonObject> rows) {
        Set<String> params = new LinkedHashSet<>();
        Map<String, String> costUnits = new LinkedHashMap<>();
        for (JsonObject r : rows) {
            if (r.has("params")) {
                params.addAll(r.getAsJsonObject("params").keySet());
            }
            if (r.has("secondaryMetrics")) {
                for (Map.Entry<String, JsonElement> m : r.getAsJsonObject("secondaryMetrics").entrySet()) {
                    if (isCostColumn(m.getKey()) && !"---".equals(str(m.getValue().getAsJsonObject(), "scoreUnit"))) {
                        costUnits.putIfAbsent(m.getKey(), str(m.getValue().getAsJsonObject(), "scoreUnit"));
                    }
                }
            }
        }
        StringBuilder t = new StringBuilder("### ").append(cls).append("\n\n");
        JsonObject f = rows.get(0);
        t.append(String.format(Locale.ROOT,
                "%d fork(s) x %d measurement iteration(s) of %s, after %d warmup of %s; %d thread(s)\n\n",
                f.get("forks").getAsInt(), f.get("measurementIterations").getAsInt(), str(f, "measurementTime"),
                f.get("warmupIterations").getAsInt(), str(f, "warmupTime"), f.get("threads").getAsInt()));
        // A benchmark's own event counters (unit "#") are totals over the run; with a counter of what was
        // done (requests, messages), they are shown per request / per message instead.
        String per = PER_UNIT_COUNTERS.stream().filter(c -> "#".equals(costUnits.get(c))).findFirst().orElse(null);
        List<String> header = new ArrayList<>();
        header.add("benchmark");
        header.addAll(params);
        header.add("mode");
        header.add("n");
        header.add("score ± error");
        header.add("unit");
        costUnits.forEach((name, unit) -> header.add(per != null && "#".equals(unit) && !name.equals(per)
                ? name + " (per " + per.substring(0, per.length() - 1) + ")"
                : name.equals(per) ? per + " (total)" : columnName(name, unit)));
        t.append(row(header)).append(row(header.stream().map(h -> "---").toList()));
        for (JsonObject r : rows) {
            List<String> cells = new ArrayList<>();
            cells.add(methodName(r.get("benchmark").getAsString()));
            JsonObject p = r.has("params") ? r.getAsJsonObject("params") : new JsonObject();
            for (String name : params) {
                cells.add(p.has(name) ? p.get(name).getAsString() : "");
            }
            JsonObject primary = r.getAsJsonObject("primaryMetric");
            cells.add(str(r, "mode"));
            cells.add(Integer.toString(sampleCount(primary)));
            cells.add(scoreWithError(primary));
            cells.add(str(primary, "scoreUnit"));
            JsonObject secondary = r.has("secondaryMetrics") ? r.getAsJsonObject("secondaryMetrics") : new JsonObject();
            double perCount = per != null && secondary.has(per) ? score(secondary.getAsJsonObject(per)) : Double.NaN;
            for (Map.Entry<String, String> c : costUnits.entrySet()) {
                String name = c.getKey();
                if (!secondary.has(name)) {
                    cells.add("");
                } else if (per != null && "#".equals(c.getValue()) && !name.equals(per)) {
                    cells.add(perCount > 0 ? format(score(secondary.getAsJsonObject(name)) / perCount) : "");
                } else {
                    cells.add(scoreWithError(secondary.getAsJsonObject(name)));
                }
            }
            t.append(row(cells));
        }
        return t.toString();
    }

    private static String columnName(String metric, String unit) {
        String name = metric.equals("gc.alloc.rate.norm") ? "alloc" : metric;
        return name + " (" + unit + ")";
    }

    private static int sampleCount(JsonObject metric) {
        int n = 0;
        if (metric.has("rawData")) {
            for (JsonElement fork : metric.getAsJsonArray("rawData")) {
                n += fork.getAsJsonArray().size();
            }
        }
        return n;
    }

    static String scoreWithError(JsonObject metric) {
        double score = metric.get("score").getAsDouble();
        JsonElement err = metric.get("scoreError");
        boolean hasError = err != null && err.isJsonPrimitive() && err.getAsJsonPrimitive().isNumber()
                && !Double.isNaN(err.getAsDouble());
        return hasError ? format(score) + " ± " + format(err.getAsDouble()) : format(score);
    }

    /**
     * A ratio as every report of the project writes it: three decimals near 1 (so that 1.005 and 0.995 stay apart),
     * fewer above 10, thousands separators above 100, three significant digits below 0.1; "n/a" for NaN.
     */
    public static String ratio(double r) {
        if (Double.isNaN(r)) {
            return "n/a";
        }
        double a = Math.abs(r);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%,.0f", r);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", r);
        }
        if (a >= 0.1 || a == 0) {
            return String.format(Locale.ROOT, "%.3f", r);
        }
        return String.format(Locale.ROOT, "%.3g", r);
    }

    /** Three significant digits, no exponent for everyday magnitudes. */
    static String format(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        double a = Math.abs(v);
        if (a == 0) {
            return "0";
        }
        if (a >= 1e7 || a < 1e-3) {
            return String.format(Locale.ROOT, "%.3g", v);
        }
        int decimals = Math.max(0, 2 - (int) Math.floor(Math.log10(a)));
        return String.format(Locale.ROOT, "%,." + decimals + "f", v);
    }

    private static String row(List<String> cells) {
        return "| " + String.join(" | ", cells) + " |\n";
    }

    private static String className(String benchmark) {
        String cls = benchmark.substring(0, benchmark.lastIndexOf('.'));
        return cls.substring(cls.lastIndexOf('.') + 1);
    }

    private static String methodName(String benchmark) {
        return benchmark.substring(benchmark.lastIndexOf('.') + 1);
    }

    private static String str(JsonObject o, String key) {
        JsonElement e = o.get(key);
        return e == null || e.isJsonNull() ? "?" : e.getAsString();
    }
}
