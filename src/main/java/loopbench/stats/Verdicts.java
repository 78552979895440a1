package loopbench.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Judges many measured changes at once (every benchmark and metric of a gate): which ones got worse, or better,
 * by more than their threshold, with the chance of any false alarm in the whole family held at
 * {@link #FAMILY_ALPHA}.
 *
 * <p>For each change (a {@link LogRatio} of candidate to baseline from per-fork values), "worse beyond the
 * threshold" is the one-sided hypothesis that the true ratio lies beyond {@code 1 - T} (a metric that is better
 * higher, such as throughput) or beyond {@code 1 + T} (better lower: time, bytes per operation). Its p-value
 * comes from the t distribution of the log ratio ({@link LogRatio#pValueBelow}/{@link LogRatio#pValueAbove}),
 * and Holm's correction ({@link Holm}) adjusts the p-values of all the changes together. A change is a
 * {@link Verdict#REGRESSION} when its adjusted p-value is below {@link #FAMILY_ALPHA} = 0.025: for a family of
 * one, exactly when the two-sided 95% interval lies wholly beyond the threshold; with more changes, each needs
 * stronger evidence. Improvements are judged the same way in the other direction (they never fail a gate).
 *
 * <p>So with no real change, an alarm needs the noise to fake a change bigger than the threshold, and the
 * family's chance of that is at most 2.5% even if every true change sat exactly at its threshold; a change
 * that cannot be judged (fewer than 2 values on a side) is a {@link Verdict#NO_VERDICT}, never a pass by
 * default.
 */
public final class Verdicts {
    /** Family-wise chance of a false regression alarm (one-sided; the 95% two-sided interval's tail). */
    public static final double FAMILY_ALPHA = 0.025;
    /** The confidence of the intervals reported with each verdict. */
    public static final double CONFIDENCE = 0.95;

    private Verdicts() {
    }

    public enum Verdict { REGRESSION, IMPROVEMENT, PASS, NO_VERDICT }

    /**
     * One measured change.
     *
     * @param ratio            candidate / baseline, from per-fork values
     * @param higherIsBetter   whether a bigger value of the metric is better (throughput)
     * @param thresholdPercent how much worse (or better) the metric must be to count, in percent
     */
    public record Change(LogRatio ratio, boolean higherIsBetter, double thresholdPercent) {
        public Change {
            if (!(thresholdPercent >= 0 && thresholdPercent < 100)) {
                throw new IllegalArgumentException("threshold must be in [0, 100) percent, was " + thresholdPercent);
            }
        }

        /** The ratio beyond which the candidate is worse than allowed. */
        public double worseLimit() {
            return higherIsBetter ? 1 - thresholdPercent / 100 : 1 + thresholdPercent / 100;
        }

        /** The ratio beyond which the candidate is better than the threshold. */
        public double betterLimit() {
            return higherIsBetter ? 1 + thresholdPercent / 100 : 1 - thresholdPercent / 100;
        }

        double pWorse() {
            return higherIsBetter ? ratio.pValueBelow(worseLimit()) : ratio.pValueAbove(worseLimit());
        }

        double pBetter() {
            return higherIsBetter ? ratio.pValueAbove(betterLimit()) : ratio.pValueBelow(betterLimit());
        }
    }

    /**
     * The judgement of one change.
     *
     * @param interval     the ratio with its two-sided {@link #CONFIDENCE} interval (NaN bounds without one)
     * @param pWorse       one-sided p-value of "worse beyond the threshold", before the correction
     * @param pWorseHolm   the same, Holm-adjusted over the family (compare with {@link #FAMILY_ALPHA})
     * @param pBetterHolm  Holm-adjusted p-value of "better beyond the threshold"
     */
    public record Judgement(Change change, Verdict verdict, LogRatio.Interval interval, double pWorse,
                            double pWorseHolm, double pBetterHolm) {
    }

    /** Judges the changes together; the answer is in the same order. */
    public static List<Judgement> judge(List<Change> changes) {
        int n = changes.size();
        double[] worse = new double[n];
        double[] better = new double[n];
        for (int i = 0; i < n; i++) {
            Change c = changes.get(i);
            worse[i] = c.pWorse();
            better[i] = c.pBetter();
        }
        double[] worseHolm = Holm.adjust(worse);
        double[] betterHolm = Holm.adjust(better);
        List<Judgement> judged = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Change c = changes.get(i);
            Verdict v;
            if (!c.ratio().hasInterval()) {
                v = Verdict.NO_VERDICT;
            } else if (worseHolm[i] < FAMILY_ALPHA) {
                v = Verdict.REGRESSION;
            } else if (betterHolm[i] < FAMILY_ALPHA) {
                v = Verdict.IMPROVEMENT;
            } else {
                v = Verdict.PASS;
            }
            judged.add(new Judgement(c, v, c.ratio().interval(CONFIDENCE), worse[i], worseHolm[i], betterHolm[i]));
        }
        return judged;
    }
}
