package loopbench.rounds;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import loopbench.report.AtomicFile;
import loopbench.report.JmhResult;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.moment.StandardDeviation;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The forks of a run merged into JMH's JSON format: per group, arm and benchmark (method, mode and parameters) one
 * result object whose {@code rawData} holds one row per fork, plus a "loopbench" field naming the run, the group, the
 * arm (and twin) and the round of every row: {@code rounds[i]} is the round of {@code rawData[i]}, for the primary
 * metric and every secondary one alike (a fork that lacks a secondary metric the others have gets an empty row there,
 * so that the rows stay aligned). Score, error (JMH's 99.9% half-width) and percentiles are recomputed over all the
 * iterations, as JMH computes them for several forks; the other fields (JVM, its arguments, iterations) are the first
 * fork's. Two arms with the same benchmark and parameters (twins) stay two elements.
 */
final class MergedResults {
    private static final String PRIMARY = "primaryMetric";
    private static final String SECONDARY = "secondaryMetrics";
    private final String run;
    private final Map<String, Element> elements = new HashMap<>();

    MergedResults(String run) {
        this.run = run;
    }

    /** A successful fork's results. */
    void add(int groupIndex, Group group, int armIndex, int round, List<JmhResult> results) {
        for (JmhResult r : results) {
            Element e = elements.computeIfAbsent(groupIndex + "/" + armIndex + "/" + r.key(),
                    k -> new Element(groupIndex, armIndex, elements.size(), group, group.arms().get(armIndex),
                            r.json()));
            e.add(round, r.json());
        }
    }

    JsonArray json() {
        JsonArray a = new JsonArray();
        elements.values().stream()
                .sorted(Comparator.comparingInt((Element e) -> e.group).thenComparingInt(e -> e.arm)
                        .thenComparingInt(e -> e.seq))
                .forEach(e -> a.add(e.json(run)));
        return a;
    }

    void write(Path file) throws IOException {
        AtomicFile.write(file, new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(json())
                + "\n");
    }

    private static final class Element {
        final int group;
        final int arm;
        final int seq;
        final String groupLabel;
        final Arm armSpec;
        final JsonObject template;
        final List<Integer> rounds = new ArrayList<>();
        /** Per metric ("primaryMetric" or a secondary name): its template and its rows, one per fork row. */
        final Map<String, JsonObject> metricTemplates = new LinkedHashMap<>();
        final Map<String, List<JsonArray>> rows = new LinkedHashMap<>();

        Element(int group, int arm, int seq, Group g, Arm a, JsonObject first) {
            this.group = group;
            this.arm = arm;
            this.seq = seq;
            this.groupLabel = g.label();
            this.armSpec = a;
            this.template = first.deepCopy();
        }

        void add(int round, JsonObject fork) {
            int before = rounds.size();
            Map<String, JsonObject> metrics = new LinkedHashMap<>();
            metrics.put(PRIMARY, fork.getAsJsonObject(PRIMARY));
            if (fork.has(SECONDARY)) {
                fork.getAsJsonObject(SECONDARY).entrySet().forEach(e -> metrics.put(e.getKey(), e.getValue()
                        .getAsJsonObject()));
            }
            JsonArray primaryRows = rawData(metrics.get(PRIMARY));
            int forkRows = Math.max(1, primaryRows.size());
            for (int i = 0; i < forkRows; i++) {
                rounds.add(round);
            }
            metrics.forEach((name, m) -> {
                metricTemplates.putIfAbsent(name, m);
                List<JsonArray> list = rows.computeIfAbsent(name, k -> padded(new ArrayList<>(), before));
                JsonArray own = rawData(m);
                for (int i = 0; i < forkRows; i++) {
                    list.add(i < own.size() ? own.get(i).getAsJsonArray() : new JsonArray());
                }
            });
            rows.values().forEach(list -> padded(list, rounds.size()));
        }

        private static List<JsonArray> padded(List<JsonArray> list, int size) {
            while (list.size() < size) {
                list.add(new JsonArray());
            }
            return list;
        }

        private static JsonArray rawData(JsonObject metric) {
            return metric != null && metric.has("rawData") ? metric.getAsJsonArray("rawData") : new JsonArray();
        }

        JsonObject json(String run) {
            JsonObject o = template.deepCopy();
            o.addProperty("forks", rounds.size());
            o.add(PRIMARY, merged(metricTemplates.get(PRIMARY), rows.get(PRIMARY)));
            if (metricTemplates.size() > 1) {
                JsonObject secondary = new JsonObject();
                metricTemplates.forEach((name, m) -> {
                    if (!PRIMARY.equals(name)) {
                        secondary.add(name, merged(m, rows.get(name)));
                    }
                });
                o.add(SECONDARY, secondary);
            }
            JsonObject lb = new JsonObject();
            lb.addProperty("run", run);
            lb.addProperty("group", groupLabel);
            lb.addProperty("arm", armSpec.label());
            if (armSpec.twin() != null) {
                lb.addProperty("twin", armSpec.twin());
            }
            JsonArray r = new JsonArray();
            rounds.forEach(r::add);
            lb.add("rounds", r);
            o.add("loopbench", lb);
            return o;
        }

        private static JsonObject merged(JsonObject template, List<JsonArray> rows) {
            JsonObject m = template.deepCopy();
            JsonArray raw = new JsonArray();
            List<Double> values = new ArrayList<>();
            for (JsonArray row : rows) {
                raw.add(row);
                for (JsonElement v : row) {
                    values.add(v.getAsDouble());
                }
            }
            m.add("rawData", raw);
            if (values.isEmpty()) {
                return m;
            }
            double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
            double mean = Arrays.stream(v).average().orElse(Double.NaN);
            double error = v.length < 2 ? Double.NaN : new TDistribution(v.length - 1)
                    .inverseCumulativeProbability(0.9995) * new StandardDeviation().evaluate(v) / Math.sqrt(v.length);
            m.add("score", number(mean));
            m.add("scoreError", number(error));
            JsonArray confidence = new JsonArray();
            confidence.add(number(mean - error));
            confidence.add(number(mean + error));
            m.add("scoreConfidence", confidence);
            if (m.has("scorePercentiles")) {
                JsonObject p = new JsonObject();
                Percentile percentile = new Percentile();
                percentile.setData(v);
                for (String rank : m.getAsJsonObject("scorePercentiles").keySet()) {
                    double q = Double.parseDouble(rank);
                    p.add(rank, number(q <= 0 ? Arrays.stream(v).min().orElse(Double.NaN) : percentile.evaluate(q)));
                }
                m.add("scorePercentiles", p);
            }
            return m;
        }

        /** As JMH writes numbers: NaN and infinities as strings. */
        private static JsonPrimitive number(double d) {
            return Double.isNaN(d) || Double.isInfinite(d) ? new JsonPrimitive(String.valueOf(d))
                    : new JsonPrimitive(d);
        }
    }
}
