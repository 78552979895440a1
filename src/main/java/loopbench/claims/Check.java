package loopbench.claims;

import loopbench.report.JmhResult;
import loopbench.stats.LogRatio;
import loopbench.stats.Margin;
import loopbench.stats.Region;
import loopbench.stats.RoundPairs;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One comparison a claim rests on: the ratio of a statistic between two configurations, or of one configuration
 * against a constant, with the region the claim predicts for that ratio. A check without a region is supporting
 * evidence: it is measured and shown, it decides nothing.
 *
 * <p>How the interval is computed depends on how the forks ran ({@link Basis}):
 * <ul>
 *   <li>both configurations ran in the rounds engine's rounds: the paired t on the per-round log ratios, forks
 *       matched by round number ({@link RoundPairs}; a round present on one side only is dropped and counted);</li>
 *   <li>against a constant: the one-sample t on the logs of the per-fork values;</li>
 *   <li>otherwise (forks of plain JMH runs): Welch's t on the logs of the per-fork values.</li>
 * </ul>
 * A check may carry an equivalence margin: an interval wholly within it reads "no effect beyond +-m".
 */
public final class Check {
    private final String label;
    private final Selection numerator;
    private final Selection denominator;
    private final double constant;
    private final String constantLabel;
    private final Statistic statistic;
    private final Region region;
    private final Margin margin;
    private final String articleFigure;

    private Check(String label, Selection numerator, Selection denominator, double constant, String constantLabel,
                  Statistic statistic, Region region, Margin margin, String articleFigure) {
        this.label = label;
        this.numerator = numerator;
        this.denominator = denominator;
        this.constant = constant;
        this.constantLabel = constantLabel;
        this.statistic = statistic;
        this.region = region;
        this.margin = margin;
        this.articleFigure = articleFigure;
    }

    /** {@code statistic(numerator) / statistic(denominator)}, predicted to lie in {@code region} (null: supporting). */
    public static Check ratio(String label, Statistic statistic, Selection numerator, Selection denominator,
                              Region region, String articleFigure) {
        return new Check(label, numerator, denominator, Double.NaN, null, statistic, region, null, articleFigure);
    }

    /** {@code statistic(selection) / constant}, e.g. measured throughput over the article's figure. */
    public static Check againstConstant(String label, Statistic statistic, Selection selection, double constant,
                                        String constantLabel, Region region, String articleFigure) {
        if (!(constant > 0)) {
            throw new IllegalArgumentException("the constant of a ratio must be positive, was " + constant);
        }
        return new Check(label, selection, null, constant, constantLabel, statistic, region, null, articleFigure);
    }

    /** The same check with an equivalence margin. */
    public Check withMargin(Margin m) {
        return new Check(label, numerator, denominator, constant, constantLabel, statistic, region, m, articleFigure);
    }

    /**
     * The same comparison on other configurations (a gateway in the stand-in's place: {@link Peers}), with no region:
     * it decides nothing.
     */
    Check onPeers(Selection newNumerator, Selection newDenominator) {
        return new Check(label, newNumerator, newDenominator, constant, constantLabel, statistic, null, null,
                articleFigure);
    }

    public String label() {
        return label;
    }

    public Region region() {
        return region;
    }

    /** The equivalence margin, or null. */
    public Margin margin() {
        return margin;
    }

    public Statistic statistic() {
        return statistic;
    }

    public String articleFigure() {
        return articleFigure;
    }

    public Selection numerator() {
        return numerator;
    }

    /** The other configuration, or null for a check against a constant. */
    public Selection denominator() {
        return denominator;
    }

    /** What the ratio divides by, for the report: the other configuration, or the constant. */
    public String denominatorDescription() {
        return denominator != null ? denominator.describe() : constantLabel + " (" + Format.value(constant, null) + ")";
    }

    /** "proxy CPU per request, L7 / L4" style: the statistic and what is divided by what, for CLAIMS.md. */
    public String formula() {
        return statistic.name() + ": " + numerator.label() + " / " + (denominator != null ? denominator.label()
                : constantLabel + " (" + Format.value(constant, null) + ")");
    }

    /** The configurations this check reads. */
    public List<Selection> selections() {
        List<Selection> s = new ArrayList<>();
        s.add(numerator);
        if (denominator != null) {
            s.add(denominator);
        }
        return s;
    }

    /**
     * How a check's interval was computed and on how much data.
     *
     * @param n                the pairs (paired), values (one-sample), or the smaller side's forks (Welch)
     * @param numeratorForks   forks of the numerator read
     * @param denominatorForks forks of the denominator read (0 against a constant)
     * @param dropped          rounds that ran on one side only and were left out of the pairs
     * @param rounds           whether the values came from the rounds engine's rounds
     * @param sdLog            the standard deviation of the per-round log ratios (paired) or of the logs
     *                         (one-sample): the noise a power calculation needs; NaN for Welch or one value
     */
    public record Basis(Method method, int n, int numeratorForks, int denominatorForks, int dropped,
                        boolean rounds, double sdLog) {
        public enum Method { PAIRED, ONE_SAMPLE, WELCH }

        /** "paired t on per-round log ratios, 6 pairs (1 round on one side only dropped)" and the like. */
        public String describe() {
            return switch (method) {
                case PAIRED -> "paired t on per-round log ratios, " + n + (n == 1 ? " pair" : " pairs")
                        + (dropped == 0 ? "" : " (" + dropped + (dropped == 1 ? " round" : " rounds")
                        + " on one side only dropped)");
                case ONE_SAMPLE -> "one-sample t on logs, " + n + (rounds ? " rounds" : " forks");
                case WELCH -> "Welch t on logs, " + numeratorForks + " vs " + denominatorForks + " forks";
            };
        }

        /** The rounds (or forks) behind the side of the check that reads {@code s}. */
        int behind(boolean numeratorSide) {
            return method == Method.WELCH ? (numeratorSide ? numeratorForks : denominatorForks) : n;
        }
    }

    public CheckResult evaluate(Measurements m) {
        List<Selection> missing = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        JmhResult num = m.find(numerator);
        JmhResult den = denominator == null ? null : m.find(denominator);
        if (num == null) {
            missing.add(numerator);
        }
        if (denominator != null && den == null) {
            missing.add(denominator);
        }
        if (!missing.isEmpty()) {
            return CheckResult.missing(this, missing, notes);
        }
        for (Selection s : selections()) {
            String a = m.ambiguity(s);
            if (a != null) {
                notes.add(a);
            }
        }
        ForkValues a = statistic.forkValues(num, m);
        ForkValues b = den == null ? null : statistic.forkValues(den, m);
        if (a == null || (den != null && b == null)) {
            JmhResult lacking = a == null ? num : den;
            notes.add(lacking.key() + " lacks " + statistic.requires());
            return CheckResult.missing(this, List.of(a == null ? numerator : denominator), notes);
        }
        Compared compared;
        try {
            compared = compare(a, b, constant);
        } catch (IllegalArgumentException e) {
            notes.add("no ratio: " + e.getMessage());
            return CheckResult.noInterval(this, a, b, num, den, notes, null);
        }
        if (compared == null) {
            notes.add("no round in common: " + numerator.label() + " ran in rounds "
                    + Arrays.toString(a.rounds()) + ", " + denominator.label() + " in "
                    + Arrays.toString(b.rounds()));
            return CheckResult.noInterval(this, a, b, num, den, notes, null);
        }
        LogRatio ratio = compared.ratio();
        Basis basis = compared.basis();
        if (!ratio.hasInterval()) {
            notes.add("no interval: a ratio's interval needs at least 2 rounds (or 2 forks on each side)");
            return CheckResult.noInterval(this, a, b, num, den, notes, basis, ratio.ratio());
        }
        return CheckResult.of(this, ratio, basis, a, b, num, den, notes);
    }

    /** A ratio and how it was computed. */
    record Compared(LogRatio ratio, Basis basis) {
    }

    /**
     * {@code num / den} the way every check computes it: paired by round when both sides carry rounds, Welch on logs
     * when not, one-sample against {@code constant} when {@code den} is null. Null when paired sides share no round;
     * throws IllegalArgumentException on values a log ratio cannot take.
     */
    static Compared compare(ForkValues num, ForkValues den, double constant) {
        if (den == null) {
            double[] c = new double[num.size()];
            Arrays.fill(c, constant);
            LogRatio ratio = LogRatio.paired(c, num.values());
            return new Compared(ratio, new Basis(Basis.Method.ONE_SAMPLE, num.size(), num.size(), 0, 0,
                    num.hasRounds(), ratio.sdLog()));
        }
        if (num.hasRounds() && den.hasRounds()) {
            RoundPairs pairs = RoundPairs.match(den.rounds(), den.values(), num.rounds(), num.values());
            if (pairs.size() == 0) {
                return null;
            }
            LogRatio ratio = pairs.ratio();
            return new Compared(ratio, new Basis(Basis.Method.PAIRED, pairs.size(), num.size(), den.size(),
                    pairs.dropped(), true, ratio.sdLog()));
        }
        LogRatio ratio = LogRatio.unpaired(num.values(), den.values());
        return new Compared(ratio, new Basis(Basis.Method.WELCH, Math.min(num.size(), den.size()), num.size(),
                den.size(), 0, false, Double.NaN));
    }
}
