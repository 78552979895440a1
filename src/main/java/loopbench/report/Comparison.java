package loopbench.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Compares two JMH JSON results benchmark by benchmark (same method, same parameters) for a CI gate.
 * A result is a regression only when it is worse than the baseline by more than the threshold AND the two
 * 99.9% confidence intervals do not overlap: on a noisy machine, a bigger change inside the noise is not
 * evidence. The metric is the primary score, or a secondary result such as {@code gc.alloc.rate.norm}
 * (bytes allocated per operation, which barely moves between runs and so makes the steadiest gate).
 */
public final class Comparison {

    /** How one benchmark moved. */
    public enum Verdict { REGRESSION, IMPROVEMENT, WITHIN_NOISE, ONLY_IN_BASELINE, ONLY_IN_CURRENT }

    /** One benchmark's comparison. */
    public record Row(String key, String unit, double baseline, double current, double changePercent,
                      Verdict verdict) {
    }

    private Comparison() {
    }

    /**
     * @param metric           "primary" or the name of a secondary result (e.g. gc.alloc.rate.norm)
     * @param thresholdPercent how much worse than the baseline a result may be before it can count
     */
    public static List<Row> compare(JsonArray baseline, JsonArray current, String metric, double thresholdPercent) {
        Map<String, JsonObject> base = index(baseline);
        Map<String, JsonObject> cur = index(current);
        List<Row> rows = new ArrayList<>();
        for (Map.Entry<String, JsonObject> e : base.entrySet()) {
            JsonObject b = e.getValue();
            JsonObject c = cur.get(e.getKey());
            JsonObject bm = metric(b, metric);
            if (bm == null) {
                continue;
            }
            JsonObject cm = c == null ? null : metric(c, metric);
            if (cm == null) {
                rows.add(new Row(e.getKey(), unit(bm), score(bm), Double.NaN, Double.NaN, Verdict.ONLY_IN_BASELINE));
                continue;
            }
            rows.add(row(e.getKey(), bm, cm, higherIsBetter(b, metric), thresholdPercent));
        }
        for (Map.Entry<String, JsonObject> e : cur.entrySet()) {
            JsonObject cm = metric(e.getValue(), metric);
            if (!base.containsKey(e.getKey()) && cm != null) {
                rows.add(new Row(e.getKey(), unit(cm), Double.NaN, score(cm), Double.NaN, Verdict.ONLY_IN_CURRENT));
            }
        }
        return rows;
    }

    private static Row row(String key, JsonObject b, JsonObject c, boolean higherIsBetter, double threshold) {
        double bs = score(b);
        double cs = score(c);
        double change = bs == 0 ? (cs == 0 ? 0 : Double.POSITIVE_INFINITY) : (cs - bs) / Math.abs(bs) * 100;
        double worse = higherIsBetter ? -change : change;
        boolean overlap = overlaps(interval(b), interval(c));
        Verdict v;
        if (worse > threshold && !overlap) {
            v = Verdict.REGRESSION;
        } else if (-worse > threshold && !overlap) {
            v = Verdict.IMPROVEMENT;
        } else {
            v = Verdict.WITHIN_NOISE;
        }
        return new Row(key, unit(c), bs, cs, change, v);
    }

    /** Throughput (ops per time) is better higher; times and bytes per operation are better lower. */
    private static boolean higherIsBetter(JsonObject result, String metric) {
        return "primary".equals(metric) && "thrpt".equals(result.get("mode").getAsString());
    }

    private static double[] interval(JsonObject metric) {
        double s = score(metric);
        JsonElement err = metric.get("scoreError");
        double e = err != null && err.isJsonPrimitive() && err.getAsJsonPrimitive().isNumber() ? err.getAsDouble() : 0;
        if (Double.isNaN(e)) {
            e = 0;
        }
        return new double[] {s - e, s + e};
    }

    private static boolean overlaps(double[] a, double[] b) {
        return a[0] <= b[1] && b[0] <= a[1];
    }

    private static JsonObject metric(JsonObject result, String metric) {
        if ("primary".equals(metric)) {
            return result.getAsJsonObject("primaryMetric");
        }
        JsonObject secondary = result.getAsJsonObject("secondaryMetrics");
        return secondary != null && secondary.has(metric) ? secondary.getAsJsonObject(metric) : null;
    }

    private static double score(JsonObject metric) {
        return metric.get("score").getAsDouble();
    }

    private static String unit(JsonObject metric) {
        return metric.get("scoreUnit").getAsString();
    }

    /** Results by {@link JmhResult#key()}: what must match between the two runs. */
    private static Map<String, JsonObject> index(JsonArray results) {
        Map<String, JsonObject> byKey = new LinkedHashMap<>();
        JmhResult.byKey(JmhResult.all(results)).forEach((key, r) -> byKey.put(key, r.json()));
        return byKey;
    }

    /** A Markdown table of the rows, regressions first. */
    public static String render(List<Row> rows, String metric, double threshold) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Metric: %s; a regression is worse by more than %.1f%% with "
                + "non-overlapping 99.9%% confidence intervals.%n%n", metric, threshold));
        sb.append("| benchmark | baseline | current | unit | change | verdict |\n| --- | --- | --- | --- | --- | --- |\n");
        rows.stream()
                .sorted((a, b) -> Integer.compare(a.verdict().ordinal(), b.verdict().ordinal()))
                .forEach(r -> sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |%n", r.key(),
                        ResultTable.format(r.baseline()), ResultTable.format(r.current()), r.unit(),
                        Double.isNaN(r.changePercent()) ? "" : String.format(Locale.ROOT, "%+.1f%%", r.changePercent()),
                        r.verdict())));
        return sb.toString();
    }
}
