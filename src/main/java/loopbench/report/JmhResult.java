package loopbench.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One result of JMH's JSON output (one benchmark method with one combination of parameters), with typed access
 * to its metrics and to their per-fork raw data: the fork-level statistics of the gate and of the claims report
 * need each fork's own mean, not only JMH's pooled score.
 */
public final class JmhResult {
    /** The name of the primary metric in {@link #metric(String)}. */
    public static final String PRIMARY = "primary";
    /** The field loopbench's suite adds to each result: run id, group, arm and the round of each fork. */
    public static final String LOOPBENCH = "loopbench";

    private final JsonObject json;
    private final Map<String, String> params;

    private JmhResult(JsonObject json) {
        this.json = json;
        Map<String, String> p = new TreeMap<>();
        if (json.has("params")) {
            json.getAsJsonObject("params").entrySet().forEach(e -> p.put(e.getKey(), e.getValue().getAsString()));
        }
        this.params = Collections.unmodifiableMap(p);
    }

    public static JmhResult of(JsonObject json) {
        return new JmhResult(json);
    }

    /** Every result of a JMH JSON file, in file order. */
    public static List<JmhResult> read(Path file) throws IOException {
        return all(ResultTable.read(file));
    }

    public static List<JmhResult> all(JsonArray results) {
        List<JmhResult> list = new ArrayList<>();
        for (JsonElement e : results) {
            list.add(new JmhResult(e.getAsJsonObject()));
        }
        return list;
    }

    /** The results by {@link #key()}; a later result with the same key replaces an earlier one. */
    public static Map<String, JmhResult> byKey(List<JmhResult> results) {
        Map<String, JmhResult> m = new LinkedHashMap<>();
        results.forEach(r -> m.put(r.key(), r));
        return m;
    }

    /** The fully qualified benchmark method, e.g. {@code loopbench.bench.PipelineCostBenchmark.exchange}. */
    public String benchmark() {
        return json.get("benchmark").getAsString();
    }

    /** {@code Class.method}, without the package. */
    public String shortName() {
        String b = benchmark();
        return b.substring(b.lastIndexOf('.', b.lastIndexOf('.') - 1) + 1);
    }

    /** The class's simple name. */
    public String className() {
        String s = shortName();
        return s.substring(0, s.indexOf('.'));
    }

    /** thrpt, avgt, sample, ss. */
    public String mode() {
        return json.get("mode").getAsString();
    }

    public Map<String, String> params() {
        return params;
    }

    public String param(String name) {
        return params.get(name);
    }

    /** "Class.method mode {k=v, ...}": what identifies the same measurement in two runs. */
    public String key() {
        return key(params);
    }

    /**
     * {@link #key()} without each of {@code dropped}'s parameters that this result has at the value given there: how a
     * result matches another jar's whose benchmark lacks those parameters (the gate's --new-param).
     */
    public String keyWithout(Map<String, String> dropped) {
        if (dropped.isEmpty()) {
            return key();
        }
        Map<String, String> kept = new TreeMap<>(params);
        dropped.forEach(kept::remove);
        return key(kept);
    }

    private String key(Map<String, String> p) {
        return shortName() + " " + mode() + (p.isEmpty() ? "" : " " + p);
    }

    public int forks() {
        return json.get("forks").getAsInt();
    }

    public List<String> jvmArgs() {
        List<String> args = new ArrayList<>();
        if (json.has("jvmArgs")) {
            json.getAsJsonArray("jvmArgs").forEach(a -> args.add(a.getAsString()));
        }
        return args;
    }

    /** The value of {@code -Dname=VALUE} among the fork's JVM arguments (the last one wins, as in java), or null. */
    public String systemProperty(String name) {
        String prefix = "-D" + name + "=";
        String value = null;
        for (String a : jvmArgs()) {
            if (a.startsWith(prefix)) {
                value = a.substring(prefix.length());
            }
        }
        return value;
    }

    /** The primary metric ({@link #PRIMARY}) or a secondary one by name; null if the result has no such metric. */
    public Metric metric(String name) {
        if (PRIMARY.equals(name)) {
            return new Metric(PRIMARY, json.getAsJsonObject("primaryMetric"));
        }
        JsonObject secondary = json.getAsJsonObject("secondaryMetrics");
        return secondary != null && secondary.has(name) ? new Metric(name, secondary.getAsJsonObject(name)) : null;
    }

    public Metric primary() {
        return metric(PRIMARY);
    }

    /** Names of the secondary metrics. */
    public List<String> secondaryNames() {
        JsonObject secondary = json.getAsJsonObject("secondaryMetrics");
        return secondary == null ? List.of() : new ArrayList<>(secondary.keySet());
    }

    /**
     * Whether a bigger value of the metric is better: the primary score in throughput mode; times, bytes,
     * CPU and latencies are better lower. Read from the mode, never guessed from the name.
     */
    public boolean higherIsBetter(String metricName) {
        return PRIMARY.equals(metricName) && "thrpt".equals(mode());
    }

    public JsonObject json() {
        return json;
    }

    /** The field the suite adds to JMH's result: {"run", "group", "arm", "rounds", "twin"}; null if absent. */
    private JsonObject loopbench() {
        JsonElement e = json.get(LOOPBENCH);
        return e != null && e.isJsonObject() ? e.getAsJsonObject() : null;
    }

    private String loopbenchString(String name) {
        JsonObject o = loopbench();
        return o != null && o.has(name) && !o.get(name).isJsonNull() ? o.get(name).getAsString() : null;
    }

    /** The run that measured this result, or null (a plain JMH run, or one before runs had ids). */
    public String run() {
        return loopbenchString("run");
    }

    /** The rounds engine's group (the profile line's label, or its number), or null. */
    public String group() {
        return loopbenchString("group");
    }

    /** The rounds engine's arm label, or null. */
    public String arm() {
        return loopbenchString("arm");
    }

    /** "A" or "B" for the twin arms of a null experiment, else null. */
    public String twin() {
        return loopbenchString("twin");
    }

    /**
     * The round of each fork, in the order of {@code rawData} (the same for every metric), or null when the
     * result has no rounds (unpaired forks) or they do not match its forks.
     */
    public int[] rounds() {
        JsonObject o = loopbench();
        if (o == null || !o.has("rounds") || !o.get("rounds").isJsonArray()) {
            return null;
        }
        JsonArray a = o.getAsJsonArray("rounds");
        int[] rounds = new int[a.size()];
        for (int i = 0; i < rounds.length; i++) {
            rounds[i] = a.get(i).getAsInt();
        }
        return rounds.length == primary().rawData().length ? rounds : null;
    }

    /** What tells this result apart from another of the same {@link #key()}: its group, arm and twin, if any. */
    public String origin() {
        StringBuilder s = new StringBuilder();
        if (group() != null) {
            s.append("group ").append(group());
        }
        if (arm() != null) {
            s.append(s.length() == 0 ? "" : ", ").append("arm ").append(arm());
        }
        return s.toString();
    }

    @Override
    public String toString() {
        return key();
    }

    /** A metric of a result: JMH's score and error, and its raw data per fork and iteration. */
    public static final class Metric {
        private final String name;
        private final JsonObject json;

        private Metric(String name, JsonObject json) {
            this.name = name;
            this.json = json;
        }

        public String name() {
            return name;
        }

        public double score() {
            return json.get("score").getAsDouble();
        }

        /** JMH's 99.9% half-width, NaN when it has none (a single iteration). */
        public double scoreError() {
            JsonElement e = json.get("scoreError");
            return e != null && e.isJsonPrimitive() && e.getAsJsonPrimitive().isNumber() ? e.getAsDouble() : Double.NaN;
        }

        public String unit() {
            return json.get("scoreUnit").getAsString();
        }

        /** Iteration values per fork: {@code rawData()[fork][iteration]}. */
        public double[][] rawData() {
            if (!json.has("rawData")) {
                return new double[0][];
            }
            JsonArray forks = json.getAsJsonArray("rawData");
            double[][] data = new double[forks.size()][];
            for (int f = 0; f < forks.size(); f++) {
                JsonArray it = forks.get(f).getAsJsonArray();
                data[f] = new double[it.size()];
                for (int i = 0; i < it.size(); i++) {
                    data[f][i] = it.get(i).getAsDouble();
                }
            }
            return data;
        }

        /** Each fork's mean over its measurement iterations: the unit of the fork-level statistics. */
        public double[] forkMeans() {
            double[][] raw = rawData();
            double[] means = new double[raw.length];
            for (int f = 0; f < raw.length; f++) {
                double sum = 0;
                for (double v : raw[f]) {
                    sum += v;
                }
                means[f] = raw[f].length == 0 ? Double.NaN : sum / raw[f].length;
            }
            return means;
        }

        public JsonObject json() {
            return json;
        }
    }
}
