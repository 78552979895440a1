package loopbench.stats;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Holm's step-down correction: with many benchmarks in one gate, each one is a chance to cry wolf; Holm keeps
 * the chance of any false alarm in the whole family at the level asked for (like Bonferroni) while rejecting
 * more often when there are real effects. No assumption about how the benchmarks are correlated.
 */
public final class Holm {
    private Holm() {
    }

    /**
     * Holm-adjusted p-values, in the order given: compare each with the family-wise level (e.g. 0.05). NaN
     * entries (tests that could not be made) stay NaN and do not count in the family.
     */
    public static double[] adjust(double[] p) {
        Integer[] order = IntStream.range(0, p.length).filter(i -> !Double.isNaN(p[i])).boxed()
                .sorted(Comparator.comparingDouble(i -> p[i])).toArray(Integer[]::new);
        double[] adjusted = new double[p.length];
        Arrays.fill(adjusted, Double.NaN);
        int m = order.length;
        double running = 0;
        for (int k = 0; k < m; k++) {
            int i = order[k];
            running = Math.max(running, Math.min(1, (m - k) * p[i]));
            adjusted[i] = running;
        }
        return adjusted;
    }
}
