package loopbench.claims;

import loopbench.report.JmhResult;
import loopbench.stats.LogRatio;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One comparison a claim rests on: the ratio of a statistic between two configurations (Welch t on the logs of
 * the per-fork values, {@link LogRatio#unpaired}), or of one configuration against a constant (one-sample t on the
 * logs: {@link LogRatio#paired} against the constant), with the region the claim predicts for that ratio.
 * A check without a region is supporting evidence: it is measured and shown, it decides nothing.
 */
public final class Check {
    private final String label;
    private final Selection numerator;
    private final Selection denominator;
    private final double constant;
    private final String constantLabel;
    private final Statistic statistic;
    private final Region region;
    private final String articleFigure;

    private Check(String label, Selection numerator, Selection denominator, double constant, String constantLabel,
                  Statistic statistic, Region region, String articleFigure) {
        this.label = label;
        this.numerator = numerator;
        this.denominator = denominator;
        this.constant = constant;
        this.constantLabel = constantLabel;
        this.statistic = statistic;
        this.region = region;
        this.articleFigure = articleFigure;
    }

    /** {@code statistic(numerator) / statistic(denominator)}, predicted to lie in {@code region} (null: supporting). */
    public static Check ratio(String label, Statistic statistic, Selection numerator, Selection denominator,
                              Region region, String articleFigure) {
        return new Check(label, numerator, denominator, Double.NaN, null, statistic, region, articleFigure);
    }

    /** {@code statistic(selection) / constant}, e.g. measured throughput over the article's figure. */
    public static Check againstConstant(String label, Statistic statistic, Selection selection, double constant,
                                        String constantLabel, Region region, String articleFigure) {
        if (!(constant > 0)) {
            throw new IllegalArgumentException("the constant of a ratio must be positive, was " + constant);
        }
        return new Check(label, selection, null, constant, constantLabel, statistic, region, articleFigure);
    }

    public String label() {
        return label;
    }

    public Region region() {
        return region;
    }

    public Statistic statistic() {
        return statistic;
    }

    public String articleFigure() {
        return articleFigure;
    }

    /** What the ratio divides by, for the report: the other configuration, or the constant. */
    public String denominatorDescription() {
        return denominator != null ? denominator.describe() : constantLabel + " (" + Format.value(constant, null) + ")";
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
        double[] a = statistic.forkValues(num, m);
        double[] b = den == null ? null : statistic.forkValues(den, m);
        if (a == null || (den != null && b == null)) {
            JmhResult lacking = a == null ? num : den;
            notes.add(lacking.key() + " lacks " + statistic.requires());
            return CheckResult.missing(this, List.of(a == null ? numerator : denominator), notes);
        }
        if (b == null) {
            b = new double[a.length];
            Arrays.fill(b, constant);
        }
        LogRatio ratio;
        String method;
        try {
            if (den == null) {
                ratio = LogRatio.paired(b, a);
                method = "one-sample t on logs, " + a.length + " fork(s)";
            } else {
                ratio = LogRatio.unpaired(a, b);
                method = ratio.method();
            }
        } catch (IllegalArgumentException e) {
            notes.add("no ratio: " + e.getMessage());
            return CheckResult.noInterval(this, a, den == null ? null : b, num, den, notes, "n/a");
        }
        if (!ratio.hasInterval()) {
            notes.add("no interval: a ratio's interval needs at least 2 forks on each side (profiles/claims.jmh runs 3)");
            return CheckResult.noInterval(this, a, den == null ? null : b, num, den, notes, method);
        }
        return CheckResult.of(this, ratio, method, a, den == null ? null : b, num, den, notes);
    }
}
