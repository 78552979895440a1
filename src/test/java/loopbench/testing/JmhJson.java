package loopbench.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/** Synthetic JMH JSON results with known per-fork values, for the statistics of gate and compare. */
public final class JmhJson {
    private JmhJson() {
    }

    /**
     * One result: {@code a.b.<benchmark>} in {@code mode}, one iteration per fork with the given score, and (when
     * {@code bytes} is not null) gc.alloc.rate.norm with the given per-fork values.
     */
    public static String result(String benchmark, String mode, String params, double[] scores, double[] bytes) {
        return withSecondaries(benchmark, mode, params, scores,
                bytes == null ? Map.of() : Map.of("gc.alloc.rate.norm", bytes));
    }

    /** As {@link #result(String, String, String, double[], double[])}, with any secondary metrics, per fork. */
    public static String withSecondaries(String benchmark, String mode, String params, double[] scores,
                                         Map<String, double[]> secondaries) {
        StringBuilder sb = new StringBuilder();
        sb.append("{\"benchmark\":\"a.b.").append(benchmark).append("\",\"mode\":\"").append(mode)
                .append("\",\"forks\":").append(scores.length).append(",\"params\":{").append(params).append("},")
                .append("\"primaryMetric\":").append(metric(scores, "thrpt".equals(mode) ? "ops/ms" : "ns/op"));
        if (!secondaries.isEmpty()) {
            List<String> m = new ArrayList<>();
            new TreeMap<>(secondaries).forEach((name, forks) -> m.add("\"" + name + "\":"
                    + metric(forks, "gc.alloc.rate.norm".equals(name) ? "B/op" : "")));
            sb.append(",\"secondaryMetrics\":{").append(String.join(",", m)).append('}');
        }
        return sb.append('}').toString();
    }

    public static String array(String... results) {
        return "[" + String.join(",", results) + "]";
    }

    private static String metric(double[] forks, String unit) {
        double sum = 0;
        List<String> raw = new ArrayList<>();
        for (double v : forks) {
            sum += v;
            raw.add(String.format(Locale.ROOT, "[%s]", v));
        }
        return String.format(Locale.ROOT, "{\"score\":%s,\"scoreError\":\"NaN\",\"scoreUnit\":\"%s\",\"rawData\":[%s]}",
                sum / forks.length, unit, String.join(",", raw));
    }

    /** n values {@code center * exp(N(0, sd))}, from a seeded generator: log-normal fork-to-fork noise. */
    public static double[] noisy(Random random, int n, double center, double sd) {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = center * Math.exp(random.nextGaussian() * sd);
        }
        return v;
    }

    public static double[] constant(int n, double value) {
        double[] v = new double[n];
        java.util.Arrays.fill(v, value);
        return v;
    }
}
