package loopbench.claims;

import loopbench.report.JmhResult;
import loopbench.stats.LogRatio;

import java.util.List;

/**
 * What one {@link Check} found: the ratio with its 95% interval, the one-sided p-values for and against the claimed
 * region, and its own status ({@link Verdict#CONFIRMED}, {@link Verdict#REFUTED}, {@link Verdict#INCONCLUSIVE} or
 * {@link Verdict#MISSING}; null for a supporting check without a region). The claim combines its checks' statuses
 * (with Holm's correction on the p-values against).
 */
public record CheckResult(Check check, Verdict status, double ratio, double lower, double upper, double pFor,
                          double pAgainst, String method, double[] numeratorForks, double[] denominatorForks,
                          JmhResult numerator, JmhResult denominator, List<Selection> missing, List<String> notes) {

    public static final double CONFIDENCE = 0.95;

    static CheckResult missing(Check c, List<Selection> missing, List<String> notes) {
        return new CheckResult(c, Verdict.MISSING, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, "",
                null, null, null, null, List.copyOf(missing), List.copyOf(notes));
    }

    static CheckResult noInterval(Check c, double[] a, double[] b, JmhResult num, JmhResult den, List<String> notes,
                                  String method) {
        double ratio = Double.NaN;
        try {
            ratio = b == null ? Double.NaN : LogRatio.unpaired(a, b).ratio();
        } catch (IllegalArgumentException e) {
            // non-positive values: no ratio at all
        }
        return new CheckResult(c, c.region() == null ? null : Verdict.INCONCLUSIVE, ratio, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, method, a, b, num, den, List.of(), List.copyOf(notes));
    }

    static CheckResult of(Check c, LogRatio ratio, String method, double[] a, double[] b, JmhResult num,
                          JmhResult den, List<String> notes) {
        LogRatio.Interval i = ratio.interval(CONFIDENCE);
        double pFor = Double.NaN;
        double pAgainst = Double.NaN;
        Verdict status = null;
        Region region = c.region();
        if (region != null) {
            boolean above = region.direction() == Region.Direction.ABOVE;
            pFor = above ? ratio.pValueAbove(region.boundary()) : ratio.pValueBelow(region.boundary());
            pAgainst = above ? ratio.pValueBelow(region.boundary()) : ratio.pValueAbove(region.boundary());
            status = pFor < Region.ALPHA ? Verdict.CONFIRMED
                    : pAgainst < Region.ALPHA ? Verdict.REFUTED : Verdict.INCONCLUSIVE;
        }
        return new CheckResult(c, status, ratio.ratio(), i.lower(), i.upper(), pFor, pAgainst, method, a, b, num, den,
                List.of(), List.copyOf(notes));
    }

    public boolean hasInterval() {
        return !Double.isNaN(lower);
    }

    /** "1.23 [1.10, 1.37]". */
    public String effect() {
        if (status == Verdict.MISSING) {
            return "no data";
        }
        if (!hasInterval()) {
            return Format.ratio(ratio) + " (no interval)";
        }
        return Format.ratio(ratio) + " [" + Format.ratio(lower) + ", " + Format.ratio(upper) + "]";
    }
}
