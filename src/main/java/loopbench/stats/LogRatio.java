package loopbench.stats;

import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

import java.util.Arrays;

/**
 * The ratio of one benchmark figure to another, estimated from per-fork values, with Student-t inference on
 * the logarithms: a ratio's error is multiplicative (a 5% drift is 5% whatever the scale), and a ratio of
 * positive figures is well described as log-normal. The estimate is the ratio of geometric means.
 *
 * <ul>
 *   <li>{@link #paired}: one baseline and one candidate fork per round, run back to back (the CI gate's
 *       interleaved rounds): the t interval of the mean of the per-round log ratios, n - 1 degrees of freedom.
 *       Drift of the machine between rounds hits both sides of a pair alike and cancels out.</li>
 *   <li>{@link #unpaired}: two independent sets of forks (two results of one JMH run, as a claim compares
 *       them): Welch's t interval of the difference of the mean logs, Welch-Satterthwaite degrees of freedom.</li>
 * </ul>
 *
 * Both are exact under log-normality. With identical values on each side (no variance: bytes per operation
 * often repeat exactly), the interval collapses to the point and the tests answer 0 or 1.
 */
public final class LogRatio {
    private final double meanLog;
    private final double standardError;
    private final double degreesOfFreedom;
    private final int n;
    private final String method;

    private LogRatio(double meanLog, double standardError, double degreesOfFreedom, int n, String method) {
        this.meanLog = meanLog;
        this.standardError = standardError;
        this.degreesOfFreedom = degreesOfFreedom;
        this.n = n;
        this.method = method;
    }

    /** candidate / baseline from pairs ({@code baseline[i]} and {@code candidate[i]} ran in the same round). */
    public static LogRatio paired(double[] baseline, double[] candidate) {
        if (baseline.length != candidate.length) {
            throw new IllegalArgumentException("paired samples need as many baseline as candidate values, got "
                    + baseline.length + " and " + candidate.length);
        }
        requirePositive(baseline, "baseline");
        requirePositive(candidate, "candidate");
        SummaryStatistics logs = new SummaryStatistics();
        for (int i = 0; i < baseline.length; i++) {
            logs.addValue(Math.log(candidate[i]) - Math.log(baseline[i]));
        }
        int n = baseline.length;
        double se = n < 2 ? Double.NaN : logs.getStandardDeviation() / Math.sqrt(n);
        return new LogRatio(logs.getMean(), se, n - 1, n, "paired t on log ratios, " + n + " pairs");
    }

    /** numerator / denominator from two independent samples (e.g. the forks of two results). */
    public static LogRatio unpaired(double[] numerator, double[] denominator) {
        requirePositive(numerator, "numerator");
        requirePositive(denominator, "denominator");
        SummaryStatistics a = logs(numerator);
        SummaryStatistics b = logs(denominator);
        long na = a.getN();
        long nb = b.getN();
        double va = a.getVariance() / na;
        double vb = b.getVariance() / nb;
        double se = na < 2 || nb < 2 ? Double.NaN : Math.sqrt(va + vb);
        double df = va + vb == 0 ? na + nb - 2
                : (va + vb) * (va + vb) / (va * va / (na - 1) + vb * vb / (nb - 1));
        return new LogRatio(a.getMean() - b.getMean(), se, df, (int) Math.min(na, nb),
                "Welch t on logs, " + na + " vs " + nb + " forks");
    }

    /** The estimated ratio (of geometric means). */
    public double ratio() {
        return Math.exp(meanLog);
    }

    /** Whether an interval can be given at all: at least two values on each side. */
    public boolean hasInterval() {
        return !Double.isNaN(standardError);
    }

    /**
     * The two-sided interval of the ratio at {@code confidence} (e.g. 0.95); NaN bounds without {@link #hasInterval()}.
     */
    public Interval interval(double confidence) {
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence must be in (0, 1), was " + confidence);
        }
        if (!hasInterval()) {
            return new Interval(ratio(), Double.NaN, Double.NaN, confidence);
        }
        double quantile = 0.5 + confidence / 2;
        double half = standardError == 0 ? 0
                : new TDistribution(degreesOfFreedom).inverseCumulativeProbability(quantile) * standardError;
        return new Interval(ratio(), Math.exp(meanLog - half), Math.exp(meanLog + half), confidence);
    }

    /**
     * One-sided p-value for "the true ratio is below {@code limit}": small when the data say it is. With
     * {@code limit} = 0.95 for a throughput, a small p is evidence of a slowdown beyond 5%.
     */
    public double pValueBelow(double limit) {
        return tail(Math.log(limit), true);
    }

    /** One-sided p-value for "the true ratio is above {@code limit}" (e.g. 1.05 for a time or bytes per op). */
    public double pValueAbove(double limit) {
        return tail(Math.log(limit), false);
    }

    private double tail(double logLimit, boolean below) {
        if (!(logLimit > Double.NEGATIVE_INFINITY)) {
            throw new IllegalArgumentException("limit must be a positive ratio");
        }
        if (!hasInterval()) {
            return Double.NaN;
        }
        double distance = below ? logLimit - meanLog : meanLog - logLimit; // > 0 when the data lean the tested way
        if (standardError == 0) {
            return distance > 0 ? 0 : 1;
        }
        return 1 - new TDistribution(degreesOfFreedom).cumulativeProbability(distance / standardError);
    }

    public int n() {
        return n;
    }

    /** The standard error of the mean log ratio (NaN without an interval). */
    public double standardError() {
        return standardError;
    }

    /**
     * The standard deviation of the log ratios behind a paired (or one-sample) ratio: the noise per round, which
     * sizes the rounds a check needs (NaN below 2 pairs; for an unpaired ratio, not a per-round figure).
     */
    public double sdLog() {
        return standardError * Math.sqrt(n);
    }

    public double degreesOfFreedom() {
        return degreesOfFreedom;
    }

    /** How the interval was computed, for reports ("paired t on log ratios, 6 pairs"). */
    public String method() {
        return method;
    }

    private static SummaryStatistics logs(double[] values) {
        SummaryStatistics s = new SummaryStatistics();
        for (double v : values) {
            s.addValue(Math.log(v));
        }
        return s;
    }

    private static void requirePositive(double[] values, String what) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no " + what + " values");
        }
        for (double v : values) {
            if (!(v > 0) || Double.isInfinite(v)) {
                throw new IllegalArgumentException("a ratio needs positive, finite values; " + what + " has " + v
                        + " in " + Arrays.toString(values));
            }
        }
    }

    /** A ratio with its interval at a confidence level. */
    public record Interval(double ratio, double lower, double upper, double confidence) {
        public boolean contains(double r) {
            return lower <= r && r <= upper;
        }

        /** The ratio as a change in percent, e.g. 0.95 -> -5.0. */
        public static double percent(double ratio) {
            return (ratio - 1) * 100;
        }
    }
}
