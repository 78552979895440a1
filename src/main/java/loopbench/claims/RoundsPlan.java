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

    /** Every decisive check of the catalogue that at least one run measured with an sd (two rounds or more). */
    public static List<Row> plan(List<VerdictHistory.Run> runs) {
        List<Row> rows = new ArrayList<>();
        for (Claim claim : ClaimCatalog.all()) {
            for (Check check : claim.decisive()) {
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
        List<Double> boundaries = new ArrayList<>(check.region().boundaries());
        Margin margin = check.margin();
        if (margin != null) {
            boundaries.add(margin.lower());
            boundaries.add(margin.upper());
        }
        double nearest = boundaries.get(0);
        for (double b : boundaries) {
            if (Math.abs(m - Math.log(b)) < Math.abs(m - Math.log(nearest))) {
                nearest = b;
            }
        }
        double d = Math.abs(m - Math.log(nearest));
        int profile = Math.min(check.numerator().group().rounds(),
                check.denominator() == null ? Integer.MAX_VALUE : check.denominator().group().rounds());
        return new Row(claim.id(), check.label(), ratios, Math.exp(m), sd, nearest, d, rounds(sd, d), profile);
    }

    /** The smallest R >= 3 with (t(0.975, R-1) + t(POWER, R-1)) * sd / sqrt(R) below d; -1 beyond {@value #MOST}. */
    public static int rounds(double sd, double distance) {
        if (!(distance > 0)) {
            return -1;
        }
        for (int r = 3; r <= MOST; r++) {
            TDistribution t = new TDistribution(r - 1);
            double reach = (t.inverseCumulativeProbability(0.975) + t.inverseCumulativeProbability(POWER)) * sd
                    / Math.sqrt(r);
            if (reach < distance) {
                return r;
            }
        }
        return -1;
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
