package loopbench.claims;

import loopbench.stats.Margin;
import org.apache.commons.math3.distribution.TDistribution;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * How many rounds each decisive check needs, sized from committed runs before the run it plans: the mean m of the
 * runs' log ratios, the noise sd (the root mean square of the runs' standard deviations of per-round log ratios) and
 * the distance d from m to the nearest boundary the check's rule compares with (its region's, and its equivalence
 * margin's edges). A check with 80% power at the 5% level (a two-sided 95% interval) then needs
 * <pre>R = the smallest R &gt;= 3 with (t(0.975, R - 1) + t(0.80, R - 1)) * sd / sqrt(R) &lt; d</pre>
 * the usual normal-theory sizing with t in place of z. It plans; it decides nothing: a run's verdict uses that run's
 * data alone.
 */
public final class RoundsPlan {
    /** The power the rounds are sized for. */
    public static final double POWER = 0.80;
    /** Beyond this many rounds a check counts as out of reach. */
    static final int MOST = 10_000;

    /**
     * One decisive check: the runs' ratios, m (as a ratio, exp m), sd, the nearest boundary, d, the rounds it needs
     * ({@code -1}: more than {@value #MOST}) and the rounds its groups have in profiles/claims.jmh.
     */
    public record Row(String claim, String check, List<Double> ratios, double meanRatio, double sd, double nearest,
                      double distance, int needed, int profileRounds) {
    }

    private RoundsPlan() {
    }

    /**
     * Every decisive check of the catalogue that at least one run measured with an sd (two rounds or more): today's,
     * and those of a claim's earlier rule, which the runs made before its revision were judged by.
     */
    public static List<Row> plan(List<VerdictHistory.Run> runs) {
        List<Row> rows = new ArrayList<>();
        for (Claim claim : ClaimCatalog.all()) {
            List<Check> checks = new ArrayList<>(claim.decisive());
            if (claim.earlier() != null) {
                checks.addAll(claim.earlier().decisive());
            }
            for (Check check : checks) {
                Row r = row(claim, check, runs);
                if (r != null) {
                    rows.add(r);
                }
            }
        }
        return rows;
    }

    private static Row row(Claim claim, Check check, List<VerdictHistory.Run> runs) {
        List<Double> ratios = new ArrayList<>();
        double sumLog = 0;
        double sumVar = 0;
        int withSd = 0;
        for (VerdictHistory.Run run : runs) {
            for (VerdictHistory.CheckFigures f : run.decisive().getOrDefault(claim.id(), List.of())) {
                if (!f.label().equals(check.label()) || !(f.ratio() > 0)) {
                    continue;
                }
                ratios.add(f.ratio());
                sumLog += Math.log(f.ratio());
                if (f.n() >= 2 && !Double.isNaN(f.sdLog())) {
                    sumVar += f.sdLog() * f.sdLog();
                    withSd++;
                }
            }
        }
        if (ratios.isEmpty() || withSd == 0) {
            return null;
        }
        double m = sumLog / ratios.size();
        double sd = Math.sqrt(sumVar / withSd);
        double nearest = nearestBoundary(check, m);
        double d = Math.abs(m - Math.log(nearest));
        int profile = Math.min(check.numerator().group().rounds(),
                check.denominator() == null ? Integer.MAX_VALUE : check.denominator().group().rounds());
        return new Row(claim.id(), check.label(), ratios, Math.exp(m), sd, nearest, d, rounds(sd, d), profile);
    }

    /**
     * The boundary nearest to {@code logRatio} among those the check's rule compares an interval with: its region's
     * and, with an equivalence margin, the margin's edges.
     */
    static double nearestBoundary(Check check, double logRatio) {
        List<Double> boundaries = new ArrayList<>(check.region().boundaries());
        Margin margin = check.margin();
        if (margin != null) {
            boundaries.add(margin.lower());
            boundaries.add(margin.upper());
        }
        double nearest = boundaries.get(0);
        for (double b : boundaries) {
            if (Math.abs(logRatio - Math.log(b)) < Math.abs(logRatio - Math.log(nearest))) {
                nearest = b;
            }
        }
        return nearest;
    }

    /**
     * What would decide an undecided check, from its own run: the rounds {@link #rounds} gives at the check's sd of
     * per-round log ratios and the distance of its estimate from the nearest boundary, taking the estimate as the
     * true effect (a guide for the next run, not a promise: the estimate is itself noisy). Null for a check that is
     * decided, has no interval, or was not computed on rounds (Welch's t on forks outside rounds).
     */
    static Decider decider(CheckResult r) {
        if (r.status() != Verdict.INCONCLUSIVE || !r.hasInterval() || r.basis() == null
                || r.basis().method() == Check.Basis.Method.WELCH || !(r.basis().sdLog() > 0) || !(r.ratio() > 0)) {
            return null;
        }
        double m = Math.log(r.ratio());
        double nearest = nearestBoundary(r.check(), m);
        return new Decider(r.basis().sdLog(), nearest, rounds(r.basis().sdLog(), Math.abs(m - Math.log(nearest))),
                r.basis().n());
    }

    /**
     * The rounds that would decide an undecided check ({@code -1}: more than {@value #MOST}, the estimate sits on
     * its boundary) at its noise {@code sd}, against the boundary {@code nearest}, and the rounds it had.
     */
    public record Decider(double sd, double nearest, int needed, int had) {
        /**
         * "about 16 rounds would decide it (80% power at this run's estimate and noise: sd 0.168 of the log ratios,
         * nearest boundary 1.200; it had 5)".
         */
        public String describe() {
            String noise = String.format(Locale.ROOT, "sd %.3f of the log ratios, nearest boundary %s; it had %d",
                    sd, Format.ratio(nearest), had);
            return needed < 0
                    ? "no feasible number of rounds would decide it: the estimate sits on its boundary (" + noise + ")"
                    : "about " + needed + " rounds would decide it (" + Math.round(POWER * 100) + "% power at this "
                    + "run's estimate and noise: " + noise + ")";
        }
    }

    /** The smallest R >= 3 with (t(0.975, R-1) + t(POWER, R-1)) * sd / sqrt(R) below d; -1 beyond {@value #MOST}. */
    public static int rounds(double sd, double distance) {
        if (!(distance > 0)) {
            return -1;
        }
        if (reach(MOST, sd) >= distance) {
            return -1;
        }
        int lo = 3; // reach falls as R grows: the smallest R within reach, by bisection
        int hi = MOST;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (reach(mid, sd) < distance) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }

    private static double reach(int r, double sd) {
        TDistribution t = new TDistribution(r - 1);
        return (t.inverseCumulativeProbability(0.975) + t.inverseCumulativeProbability(POWER)) * sd / Math.sqrt(r);
    }

    /** The plan as Markdown, one row per check, the runs named above it. */
    public static String markdown(List<VerdictHistory.Run> runs, List<Row> rows) {
        StringBuilder b = new StringBuilder();
        b.append("Rounds for 80% power at the 5% level, from ").append(String.join(", ",
                runs.stream().map(VerdictHistory.Run::name).toList())).append(": m = the mean of the runs' log "
                + "ratios (shown as a ratio), sd = the root mean square of their sd of per-round log ratios, d = |m - "
                + "ln(nearest boundary)|.\n\n").append(VerdictHistory.hostsNote(runs));
        b.append("| claim | decisive check | runs | m | sd | nearest boundary | d | rounds needed | rounds in "
                + "claims.jmh |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.4f | %s | %.4f | %s | %d |%n", r.claim(),
                    r.check(), String.join(", ", r.ratios().stream().map(Format::ratio).toList()),
                    Format.ratio(r.meanRatio()), r.sd(), Format.ratio(r.nearest()), r.distance(),
                    r.needed() < 0 ? "over " + MOST : Integer.toString(r.needed()), r.profileRounds()));
        }
        return b.toString();
    }
}
