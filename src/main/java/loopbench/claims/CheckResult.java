package loopbench.claims;

import loopbench.report.JmhResult;
import loopbench.stats.LogRatio;
import loopbench.stats.Region;

import java.util.List;

/**
 * What one {@link Check} found: the ratio with its 95% interval, the one-sided p-values for and against the claimed
 * region, how they were computed ({@link Check.Basis}: the method and the rounds or forks), and its own status
 * ({@link Verdict#CONFIRMED}, {@link Verdict#REFUTED}, {@link Verdict#INCONCLUSIVE} or {@link Verdict#MISSING}; null
 * for a supporting check without a region). The claim combines its checks' statuses (with Holm's correction on the
 * p-values against).
 */
public record CheckResult(Check check, Verdict status, double ratio, double lower, double upper, double pFor,
                          double pAgainst, Check.Basis basis, ForkValues numeratorForks, ForkValues denominatorForks,
                          JmhResult numerator, JmhResult denominator, List<Selection> missing, List<String> notes) {

    public static final double CONFIDENCE = 0.95;

    static CheckResult missing(Check c, List<Selection> missing, List<String> notes) {
        return new CheckResult(c, Verdict.MISSING, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, null,
                null, null, null, null, List.copyOf(missing), List.copyOf(notes));
    }

    static CheckResult noInterval(Check c, ForkValues a, ForkValues b, JmhResult num, JmhResult den,
                                  List<String> notes, Check.Basis basis) {
        return noInterval(c, a, b, num, den, notes, basis, Double.NaN);
    }

    static CheckResult noInterval(Check c, ForkValues a, ForkValues b, JmhResult num, JmhResult den,
                                  List<String> notes, Check.Basis basis, double ratio) {
        return new CheckResult(c, c.region() == null ? null : Verdict.INCONCLUSIVE, ratio, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, basis, a, b, num, den, List.of(), List.copyOf(notes));
    }

    static CheckResult of(Check c, LogRatio ratio, Check.Basis basis, ForkValues a, ForkValues b, JmhResult num,
                          JmhResult den, List<String> notes) {
        LogRatio.Interval i = ratio.interval(CONFIDENCE);
        double pFor = Double.NaN;
        double pAgainst = Double.NaN;
        Verdict status = null;
        Region region = c.region();
        if (region != null) {
            pFor = region.pFor(ratio);
            pAgainst = region.pAgainst(ratio);
            status = pFor < Region.ALPHA ? Verdict.CONFIRMED
                    : pAgainst < Region.ALPHA ? Verdict.REFUTED : Verdict.INCONCLUSIVE;
        }
        return new CheckResult(c, status, ratio.ratio(), i.lower(), i.upper(), pFor, pAgainst, basis, a, b, num, den,
                List.of(), List.copyOf(notes));
    }

    public boolean hasInterval() {
        return !Double.isNaN(lower);
    }

    /** "no effect beyond ±2%" when the check has a margin and the interval lies wholly within it, else null. */
    public String equivalence() {
        return check.margin() != null && hasInterval() && check.margin().contains(lower, upper)
                ? check.margin().noEffect() : null;
    }

    /** "1.23 [1.10, 1.37]", with the equivalence reading when there is one. */
    public String effect() {
        if (status == Verdict.MISSING) {
            return "no data";
        }
        if (!hasInterval()) {
            return Format.ratio(ratio) + " (no interval)";
        }
        String e = Format.ratio(ratio) + " [" + Format.ratio(lower) + ", " + Format.ratio(upper) + "]";
        return equivalence() == null ? e : e + ": " + equivalence();
    }

    /** The method and the rounds or forks, "-" without data. */
    public String basisText() {
        return basis == null ? "-" : basis.describe();
    }

    /**
     * "3 of 6 rounds" when a side of the check rests on fewer rounds (or forks) than profiles/claims.jmh assigned to
     * the group that produces it when the run was made ({@link Group#roundsAsked}), else null. A paired check can
     * have no more pairs than the group with the fewer rounds ran (a group joins the first N rounds): that is what
     * it is asked for.
     */
    public String provisional() {
        if (basis == null) {
            return null;
        }
        List<Selection> sides = check.selections();
        List<JmhResult> read = denominator == null ? List.of(numerator) : List.of(numerator, denominator);
        if (basis.method() == Check.Basis.Method.PAIRED) {
            int asked = Integer.MAX_VALUE;
            for (int k = 0; k < read.size(); k++) {
                asked = Math.min(asked, sides.get(k).group().roundsAsked(read.get(k).run()));
            }
            return basis.n() < asked ? basis.n() + " of " + asked + " rounds" : null;
        }
        for (int k = 0; k < read.size(); k++) {
            int had = basis.behind(k == 0);
            int asked = sides.get(k).group().roundsAsked(read.get(k).run());
            if (had < asked) {
                return had + " of " + asked + " rounds";
            }
        }
        return null;
    }
}
