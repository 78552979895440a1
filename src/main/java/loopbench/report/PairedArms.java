package loopbench.report;

import loopbench.stats.LogRatio;
import loopbench.stats.RoundPairs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Two arms of one rounds run compared fork by fork, each candidate fork paired with the baseline fork of the same
 * round (the rounds engine interleaves them, so the machine's drift between rounds hits both alike), with the same
 * statistic as the gate and the claims: the paired t on the per-round log ratios ({@link LogRatio#paired}).
 *
 * <p>The arms are chosen by selectors, {@code name=value[,name=value]} over a result's parameters, its rounds
 * group ({@code group=LABEL}) and, in a null experiment, its twin ({@code twin=A}, {@code twin=B}: two arms of one
 * configuration); a baseline result is paired with the candidate result whose benchmark and other parameters are the
 * same (and whose group and twin are, unless a selector names them). Beside each ratio: the standard deviation of
 * the per-round log ratios, the noise that sizes the rounds a comparison needs (of twins: the noise alone).
 */
public final class PairedArms {
    /** The selector key that names the rounds engine's group (the profile line's label) instead of a parameter. */
    public static final String GROUP = "group";
    /** The selector key that names a null experiment's twin arm (A or B) instead of a parameter. */
    public static final String TWIN = "twin";
    private static final double CONFIDENCE = 0.95;

    /** Which results make an arm: every {@code name=value} must hold. */
    public record Selector(Map<String, String> values) {
        /** Parses {@code name=value[,name=value]}; names and values must be non-empty. */
        public static Selector parse(String text) {
            Map<String, String> v = new LinkedHashMap<>();
            for (String part : text.split(",")) {
                int eq = part.indexOf('=');
                if (eq <= 0 || eq == part.length() - 1) {
                    throw new IllegalArgumentException("'" + text + "' is not a selector: give name=value[,name=value]"
                            + " over the results' parameters, group=LABEL or twin=A|B (e.g. topology=local, "
                            + "group=tasks41)");
                }
                v.put(part.substring(0, eq).trim(), part.substring(eq + 1).trim());
            }
            return new Selector(v);
        }

        boolean matches(JmhResult r) {
            return values.entrySet().stream().allMatch(e -> e.getValue().equals(value(r, e.getKey())));
        }

        @Override
        public String toString() {
            return values.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .reduce((a, b) -> a + "," + b).orElse("");
        }
    }

    /** One metric of one pair of results. {@code problem} says why there is no ratio, else null. */
    public record Row(String benchmark, Map<String, String> rest, String metric, String unit, double baseline,
                      int baselineForks, double candidate, int candidateForks, LogRatio.Interval interval,
                      double sdLog, int pairs, int dropped, String problem) {
    }

    /** The rows, and the results of either arm that found no partner. */
    public record Comparison(Selector baseline, Selector candidate, List<Row> rows, List<String> unmatched) {
    }

    private PairedArms() {
    }

    private static String value(JmhResult r, String key) {
        return GROUP.equals(key) ? r.group() : TWIN.equals(key) ? r.twin() : r.param(key);
    }

    /**
     * Pairs the arms. {@code metrics} empty: the primary score and every secondary metric both results have.
     *
     * @throws IllegalArgumentException when a selector matches nothing (naming the values the results have), both
     *                                  match one result, or two results of one arm would take the same partner
     */
    public static Comparison compare(List<JmhResult> results, Selector baseline, Selector candidate,
                                     List<String> metrics) {
        Set<String> keys = new LinkedHashSet<>(baseline.values().keySet());
        keys.addAll(candidate.values().keySet());
        for (JmhResult r : results) {
            if (baseline.matches(r) && candidate.matches(r)) {
                throw new IllegalArgumentException("--baseline " + baseline + " and --candidate " + candidate
                        + " both select " + r.key() + groupNote(r) + "; make them tell the arms apart");
            }
        }
        Map<String, JmhResult> base = arm(results, baseline, keys, "--baseline");
        Map<String, JmhResult> cand = arm(results, candidate, keys, "--candidate");
        Set<String> known = new TreeSet<>();
        for (JmhResult r : concat(base, cand)) {
            known.add(JmhResult.PRIMARY);
            known.addAll(r.secondaryNames());
        }
        for (String m : metrics) {
            if (!known.contains(m)) {
                throw new IllegalArgumentException("--metric '" + m + "': no selected result has it; they have "
                        + String.join(", ", known));
            }
        }
        List<Row> rows = new ArrayList<>();
        List<String> unmatched = new ArrayList<>();
        for (Map.Entry<String, JmhResult> e : base.entrySet()) {
            JmhResult c = cand.get(e.getKey());
            if (c == null) {
                unmatched.add("baseline " + e.getValue().key() + groupNote(e.getValue()));
                continue;
            }
            for (String m : metrics.isEmpty() ? common(e.getValue(), c) : metrics) {
                rows.add(row(e.getValue(), c, rest(e.getValue(), keys), m));
            }
        }
        cand.forEach((k, c) -> {
            if (!base.containsKey(k)) {
                unmatched.add("candidate " + c.key() + groupNote(c));
            }
        });
        return new Comparison(baseline, candidate, rows, unmatched);
    }

    private static String groupNote(JmhResult r) {
        return (r.group() == null ? "" : " (group " + r.group() + ")") + (r.twin() == null ? "" : " (twin "
                + r.twin() + ")");
    }

    private static List<JmhResult> concat(Map<String, JmhResult> a, Map<String, JmhResult> b) {
        List<JmhResult> all = new ArrayList<>(a.values());
        all.addAll(b.values());
        return all;
    }

    private static Map<String, JmhResult> arm(List<JmhResult> results, Selector mine, Set<String> keys,
                                              String option) {
        Map<String, JmhResult> arm = new TreeMap<>();
        for (JmhResult r : results) {
            if (!mine.matches(r)) {
                continue;
            }
            String k = matchKey(r, keys);
            JmhResult before = arm.put(k, r);
            if (before != null) {
                throw new IllegalArgumentException(option + " " + mine + " selects two results that would pair with "
                        + "the same partner: " + before.key() + groupNote(before) + " and " + r.key() + groupNote(r)
                        + "; add the parameter or group=LABEL that tells them apart");
            }
        }
        if (arm.isEmpty()) {
            throw new IllegalArgumentException(option + " " + mine + " selects no result; " + available(results,
                    mine.values().keySet()));
        }
        return arm;
    }

    private static String available(List<JmhResult> results, Set<String> keys) {
        List<String> parts = new ArrayList<>();
        for (String k : keys) {
            Set<String> seen = new TreeSet<>();
            results.forEach(r -> {
                String v = value(r, k);
                if (v != null) {
                    seen.add(v);
                }
            });
            parts.add(seen.isEmpty() ? "no result has " + k : k + " takes " + String.join(", ", seen) + " here");
        }
        return String.join("; ", parts);
    }

    /** Benchmark, mode and the parameters the selectors do not name, plus group and twin unless a selector does. */
    private static String matchKey(JmhResult r, Set<String> keys) {
        return r.keyWithout(named(r, keys)) + (keys.contains(GROUP) || r.group() == null ? "" : " group "
                + r.group()) + (keys.contains(TWIN) || r.twin() == null ? "" : " twin " + r.twin());
    }

    private static Map<String, String> named(JmhResult r, Set<String> keys) {
        Map<String, String> dropped = new TreeMap<>();
        keys.stream().filter(k -> r.param(k) != null).forEach(k -> dropped.put(k, r.param(k)));
        return dropped;
    }

    private static Map<String, String> rest(JmhResult r, Set<String> keys) {
        Map<String, String> p = new TreeMap<>(r.params());
        keys.forEach(p::remove);
        return p;
    }

    private static List<String> common(JmhResult a, JmhResult b) {
        List<String> names = new ArrayList<>();
        names.add(JmhResult.PRIMARY);
        a.secondaryNames().stream().filter(b.secondaryNames()::contains).forEach(names::add);
        return names;
    }

    private static Row row(JmhResult b, JmhResult c, Map<String, String> rest, String metric) {
        JmhResult.Metric mb = b.metric(metric);
        JmhResult.Metric mc = c.metric(metric);
        String name = b.shortName();
        if (mb == null || mc == null) {
            return new Row(name, rest, metric, "", Double.NaN, 0, Double.NaN, 0, null, Double.NaN, 0, 0,
                    "not measured by the " + (mb == null ? "baseline" : "candidate"));
        }
        double[] fb = mb.forkMeans();
        double[] fc = mc.forkMeans();
        int[] rb = b.rounds();
        int[] rc = c.rounds();
        if (rb == null || rc == null) {
            return new Row(name, rest, metric, mb.unit(), mean(fb), fb.length, mean(fc), fc.length, null, Double.NaN,
                    0, 0,
                    "no round per fork: not a rounds run (a profile line with [rounds=N]); compare two runs with "
                            + "'compare'");
        }
        RoundPairs pairs = RoundPairs.match(rb, fb, rc, fc);
        String problem = null;
        LogRatio.Interval interval = null;
        double sd = Double.NaN;
        if (pairs.size() == 0) {
            problem = "no round in common";
        } else {
            try {
                LogRatio ratio = pairs.ratio();
                interval = ratio.interval(CONFIDENCE);
                sd = ratio.sdLog();
            } catch (IllegalArgumentException e) {
                problem = "no ratio: " + e.getMessage();
            }
        }
        return new Row(name, rest, metric, mb.unit(), mean(fb), fb.length, mean(fc), fc.length, interval, sd,
                pairs.size(), pairs.dropped(), problem);
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return v.length == 0 ? Double.NaN : s / v.length;
    }

    /**
     * The comparison as Markdown: a line naming the arms, the statistic and the parameters every row shares, the
     * table (its parameters column: only those that differ between rows), then what found no partner.
     */
    public static String markdown(Comparison c) {
        Map<String, Set<String>> values = new TreeMap<>();
        c.rows().forEach(r -> r.rest().forEach((k, v) -> values.computeIfAbsent(k, x -> new TreeSet<>()).add(v)));
        List<String> shared = new ArrayList<>();
        values.forEach((k, v) -> {
            if (v.size() == 1 && c.rows().stream().allMatch(r -> r.rest().containsKey(k))) {
                shared.add(k + "=" + v.iterator().next());
            }
        });
        StringBuilder b = new StringBuilder();
        b.append("baseline ").append(c.baseline()).append(", candidate ").append(c.candidate())
                .append(": means of each arm's forks; candidate / baseline paired by round (paired t on the per-round"
                        + " log ratios), 95% intervals; sd: the standard deviation of the per-round ln(candidate / "
                        + "baseline).");
        if (!shared.isEmpty()) {
            b.append(" Every row: ").append(String.join(", ", shared)).append('.');
        }
        b.append("\n\n| benchmark | parameters | metric | baseline | candidate | candidate / baseline (95% interval) "
                + "| sd | pairs |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
        for (Row r : c.rows()) {
            String params = r.rest().entrySet().stream().filter(e -> !shared.contains(e.getKey() + "=" + e.getValue()))
                    .map(e -> e.getKey() + "=" + e.getValue()).reduce((x, y) -> x + ", " + y).orElse("");
            String unit = r.unit().isEmpty() ? "" : " (" + r.unit() + ")";
            String ratio = r.problem() != null ? r.problem() : Double.isNaN(r.interval().lower())
                    ? ResultTable.ratio(r.interval().ratio()) + " (one pair: no interval)"
                    : String.format(Locale.ROOT, "%s [%s, %s]", ResultTable.ratio(r.interval().ratio()),
                    ResultTable.ratio(r.interval().lower()), ResultTable.ratio(r.interval().upper()));
            String sd = Double.isNaN(r.sdLog()) ? "-" : String.format(Locale.ROOT, "%.4f", r.sdLog());
            b.append(String.format(Locale.ROOT, "| %s | %s | %s%s | %s | %s | %s | %s | %d%s |%n", r.benchmark(),
                    params, r.metric(), unit, number(r.baseline()), number(r.candidate()), ratio, sd, r.pairs(),
                    r.dropped() == 0 ? "" : " (" + r.dropped() + " unpaired)"));
        }
        if (!c.unmatched().isEmpty()) {
            b.append("\nWithout a partner in the other arm:\n");
            c.unmatched().forEach(u -> b.append("- ").append(u).append('\n'));
        }
        return b.toString();
    }

    /** The report package's one number format ({@link ResultTable#format}); "n/a" where an arm has no value. */
    private static String number(double v) {
        return Double.isNaN(v) ? "n/a" : ResultTable.format(v);
    }
}
