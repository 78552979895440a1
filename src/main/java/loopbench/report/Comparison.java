package loopbench.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import loopbench.stats.LogRatio;
import loopbench.stats.Verdicts;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Compares a baseline with a candidate benchmark by benchmark (same method, mode and parameters) and metric, from
 * per-fork values: the fork-level statistics shared by {@code loopbench gate} (interleaved rounds: one baseline
 * and one candidate fork per round, paired) and {@code loopbench compare} (two JMH JSON files: unpaired).
 *
 * <p>A fork is the unit: iterations within one JVM share its JIT decisions, memory layout and the machine's mood
 * of the moment, so only the spread between forks says how much a second run could differ. Each fork's value is
 * its mean over its measurement iterations ({@link JmhResult.Metric#forkMeans}); the change is the
 * candidate/baseline ratio of their geometric means, with a 95% t interval on the log scale ({@link LogRatio}),
 * and the verdicts of all rows are made together with Holm's correction ({@link Verdicts}). Direction comes
 * from the JMH mode ({@link JmhResult#higherIsBetter}). Fewer than 2 forks on a side: no verdict.
 *
 * <p>Bytes per operation ({@value #ALLOC}) below {@value #ALLOC_FLOOR_BYTES} B are counted as
 * {@value #ALLOC_FLOOR_BYTES} B: allocation-free code shows fractions of a byte of JMH's own accounting noise,
 * whose ratios mean nothing, while a jump from ~0 to real allocation still shows as a large ratio.
 */
public final class Comparison {
    /** JMH's bytes allocated per operation ({@code -prof gc}): steady, so it can be held to a tight threshold. */
    public static final String ALLOC = "gc.alloc.rate.norm";
    public static final double ALLOC_FLOOR_BYTES = 1.0;
    /** JMH-side CPU time per operation of the whole benchmark JVM ({@code -prof loopbench.bench.ProcCpuProfiler}). */
    public static final String CPU_PER_OP = "cpu.ns/op";
    /**
     * A name in a metric list that stands, per benchmark, for the CPU-µs per request of the component under test:
     * the proxy's where the results have it, else the origin's (no proxy), else the echo server's. One CPU figure per
     * end-to-end benchmark, the one its question is about: the origin behind a proxy is not what a proxy line
     * measures, and every extra comparison asks more of each in Holm's correction.
     */
    public static final String SERVER_CPU = "server CPU per request";
    static final List<String> SERVER_CPU_ORDER = List.of(EndToEndMetrics.cpu(EndToEndMetrics.PROXY),
            EndToEndMetrics.cpu(EndToEndMetrics.ORIGIN), EndToEndMetrics.cpu(EndToEndMetrics.ECHO));
    /**
     * The metrics judged when none are named: the primary score, bytes per operation (where -prof gc ran), CPU per
     * operation (where ProcCpuProfiler ran), and for end-to-end benchmarks the server's own CPU-µs per request
     * ({@link #SERVER_CPU}, where EndToEndProfiler ran): with three processes on two cores, req/s moves with
     * whatever else the machine does; a server's own CPU per request much less. Each is judged with the score's
     * threshold, except bytes per operation.
     */
    public static final List<String> DEFAULT_METRICS = List.of(JmhResult.PRIMARY, ALLOC, CPU_PER_OP, SERVER_CPU);
    /**
     * Default thresholds, percent (docs/results/2026-11-23/gate-proof/README.md says how they were chosen from
     * measured fork-to-fork variation): the score moves by a few percent between forks on a shared machine; bytes
     * per operation by hundredths of a percent.
     */
    public static final String DEFAULT_THRESHOLD = "3";
    /**
     * The gate's score threshold, percent. Lower than {@link #DEFAULT_THRESHOLD}: the gate's pairs run back to
     * back, so drift cancels and a 1% threshold costs no false alarms (Holm's correction, not the threshold,
     * bounds those); with 8 rounds it is what lets a 5% loss be caught in at least 19 of 20 gates (measured
     * with profiles/gate-proof.sh: docs/results/2026-11-23/gate-proof/). Two separate runs ({@code compare})
     * drift apart by more than that, so they keep 3%.
     */
    public static final String GATE_DEFAULT_THRESHOLD = "1";
    public static final String DEFAULT_ALLOC_THRESHOLD = "0.5";

    private Comparison() {
    }

    /** SHOWN: a change reported with its interval, never judged (memory figures beside a gate). */
    public enum Status { REGRESSION, IMPROVEMENT, PASS, NO_VERDICT, ONLY_IN_BASELINE, ONLY_IN_CANDIDATE, SHOWN }

    /**
     * How much worse a metric may get before it can count, in percent: the primary score (and any other metric
     * named) and bytes per operation.
     */
    public record Thresholds(double primaryPercent, double allocPercent) {
        public Thresholds {
            check("--threshold", primaryPercent);
            check("--alloc-threshold", allocPercent);
        }

        private static void check(String name, double percent) {
            if (!(percent >= 0 && percent < 100)) {
                throw new IllegalArgumentException(name + " must be a percentage in [0, 100), was " + percent);
            }
        }

        public double of(String metric) {
            return ALLOC.equals(metric) ? allocPercent : primaryPercent;
        }
    }

    /**
     * One benchmark's metric on both sides: one value per fork, in run order (paired: index i of each side ran in
     * round i). An empty side means the benchmark is missing there.
     */
    public record Entry(String key, String metric, String unit, boolean higherIsBetter, double[] baseline,
                        double[] candidate) {
    }

    /** One row of the comparison; {@code judgement} is null unless the entry could be judged. */
    public record Row(Entry entry, Status status, Verdicts.Judgement judgement, String note) {
        public double baselineMean() {
            return geometricMean(entry.baseline());
        }

        public double candidateMean() {
            return geometricMean(entry.candidate());
        }
    }

    /**
     * The entries of the given metrics for every benchmark in either side's results. Each side's results may hold
     * several results per key (the gate's forks, one per round), whose fork means are concatenated in order.
     */
    public static List<Entry> entries(Map<String, List<JmhResult>> baseline, Map<String, List<JmhResult>> candidate,
                                      List<String> metrics) {
        Set<String> keys = new LinkedHashSet<>(baseline.keySet());
        keys.addAll(candidate.keySet());
        List<Entry> entries = new ArrayList<>();
        for (String key : keys) {
            List<JmhResult> b = baseline.getOrDefault(key, List.of());
            List<JmhResult> c = candidate.getOrDefault(key, List.of());
            JmhResult any = b.isEmpty() ? c.get(0) : b.get(0);
            for (String asked : metrics) {
                String metric = SERVER_CPU.equals(asked) ? serverCpu(b, c) : asked;
                if (metric == null) {
                    continue;
                }
                JmhResult.Metric m = firstWith(b, metric);
                if (m == null) {
                    m = firstWith(c, metric);
                }
                if (m == null) {
                    continue; // not measured for this benchmark (e.g. no -prof gc): nothing to compare
                }
                entries.add(new Entry(key, metric, m.unit(), any.higherIsBetter(metric), values(b, metric),
                        values(c, metric)));
            }
        }
        return entries;
    }

    /** The first of {@link #SERVER_CPU_ORDER} either side's results have, or null. */
    private static String serverCpu(List<JmhResult> b, List<JmhResult> c) {
        for (String m : SERVER_CPU_ORDER) {
            if (firstWith(b, m) != null || firstWith(c, m) != null) {
                return m;
            }
        }
        return null;
    }

    /** {@link #DEFAULT_METRICS} that any of the results has: bytes per operation only where -prof gc ran. */
    public static List<String> defaultMetrics(List<JmhResult> results) {
        return DEFAULT_METRICS.stream().filter(m -> results.stream().anyMatch(r -> SERVER_CPU.equals(m)
                ? SERVER_CPU_ORDER.stream().anyMatch(s -> r.metric(s) != null) : r.metric(m) != null)).toList();
    }

    /**
     * The memory figures of end-to-end results ({@link EndToEndMetrics#isMemory}; per process, not per connection:
     * the same ratio), in order of first appearance: reported beside a gate with {@link #shown}, never judged.
     */
    public static List<String> memoryMetrics(List<JmhResult> results) {
        Set<String> names = new LinkedHashSet<>();
        for (JmhResult r : results) {
            for (String n : r.secondaryNames()) {
                if (EndToEndMetrics.isMemory(n) && !n.endsWith(".perConnection")) {
                    names.add(n);
                }
            }
        }
        return List.copyOf(names);
    }

    /**
     * Rows that report a change with its 95% interval and judge nothing ({@link Status#SHOWN}): outside the Holm
     * family, never a regression, never "not judged". A memory figure is a footprint, not a cost per operation; a
     * threshold for it would be a number nobody measured, so the gate shows it and a reader judges it.
     */
    public static List<Row> shown(List<Entry> entries, boolean paired) {
        List<Row> rows = new ArrayList<>();
        for (Entry e : entries) {
            int nb = e.baseline().length;
            int nc = e.candidate().length;
            if (nb < 2 || nc < 2 || (paired && nb != nc) || !allPositive(e.baseline()) || !allPositive(e.candidate())) {
                rows.add(new Row(e, Status.SHOWN, null, "no interval (" + nb + " and " + nc + " values)"));
                continue;
            }
            LogRatio ratio = paired ? LogRatio.paired(e.baseline(), e.candidate())
                    : LogRatio.unpaired(e.candidate(), e.baseline());
            Verdicts.Change change = new Verdicts.Change(ratio, e.higherIsBetter(), 0);
            rows.add(new Row(e, Status.SHOWN, new Verdicts.Judgement(change, Verdicts.Verdict.NO_VERDICT,
                    ratio.interval(Verdicts.CONFIDENCE), Double.NaN, Double.NaN, Double.NaN), ratio.method()));
        }
        return rows;
    }

    /**
     * {@code loopbench compare}: two JMH JSON files, each fork an independent sample (Welch t). Metrics asked for
     * that no benchmark has are an error naming the ones there are.
     */
    public static List<Row> compareFiles(List<JmhResult> baseline, List<JmhResult> candidate, List<String> metrics,
                                         Thresholds thresholds) {
        for (String metric : metrics) {
            boolean present = baseline.stream().anyMatch(r -> r.metric(metric) != null);
            if (!present) {
                Set<String> names = new LinkedHashSet<>();
                names.add(JmhResult.PRIMARY);
                baseline.forEach(r -> names.addAll(r.secondaryNames()));
                throw new IllegalArgumentException("no benchmark in the baseline has the metric '" + metric
                        + "'; valid: " + String.join(", ", names));
            }
        }
        return judge(entries(byKey(baseline), byKey(candidate), metrics), false, thresholds);
    }

    /** Groups results by {@link JmhResult#key()}, keeping their order. */
    public static Map<String, List<JmhResult>> byKey(List<JmhResult> results) {
        Map<String, List<JmhResult>> m = new LinkedHashMap<>();
        results.forEach(r -> m.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
        return m;
    }

    private static JmhResult.Metric firstWith(List<JmhResult> results, String metric) {
        return results.stream().map(r -> r.metric(metric)).filter(m -> m != null).findFirst().orElse(null);
    }

    private static double[] values(List<JmhResult> results, String metric) {
        List<Double> v = new ArrayList<>();
        for (JmhResult r : results) {
            JmhResult.Metric m = r.metric(metric);
            if (m == null) {
                continue;
            }
            for (double d : m.forkMeans()) {
                v.add(ALLOC.equals(metric) ? Math.max(d, ALLOC_FLOOR_BYTES) : d);
            }
        }
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /**
     * Judges the entries together (one Holm family).
     *
     * @param paired whether index i of both sides ran in the same round (the gate); else two independent samples
     */
    public static List<Row> judge(List<Entry> entries, boolean paired, Thresholds thresholds) {
        List<Row> rows = new ArrayList<>(Arrays.asList(new Row[entries.size()]));
        List<Integer> judgedIndex = new ArrayList<>();
        List<Verdicts.Change> changes = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            Entry e = entries.get(i);
            int nb = e.baseline().length;
            int nc = e.candidate().length;
            if (nb == 0 || nc == 0) {
                rows.set(i, new Row(e, nb == 0 ? Status.ONLY_IN_CANDIDATE : Status.ONLY_IN_BASELINE, null,
                        nb == 0 ? "no values in the baseline" : "no values in the candidate"));
            } else if (nb < 2 || nc < 2 || (paired && nb != nc)) {
                rows.set(i, new Row(e, Status.NO_VERDICT, null, paired && nb != nc
                        ? nb + " baseline vs " + nc + " candidate forks cannot be paired"
                        : "needs >= 2 forks per side, has " + nb + " and " + nc));
            } else if (!allPositive(e.baseline()) || !allPositive(e.candidate())) {
                rows.set(i, new Row(e, Status.NO_VERDICT, null, "a ratio needs positive values"));
            } else {
                LogRatio ratio = paired ? LogRatio.paired(e.baseline(), e.candidate())
                        : LogRatio.unpaired(e.candidate(), e.baseline());
                judgedIndex.add(i);
                changes.add(new Verdicts.Change(ratio, e.higherIsBetter(), thresholds.of(e.metric())));
            }
        }
        List<Verdicts.Judgement> judged = Verdicts.judge(changes);
        for (int k = 0; k < judged.size(); k++) {
            Verdicts.Judgement j = judged.get(k);
            int i = judgedIndex.get(k);
            rows.set(i, new Row(entries.get(i), Status.valueOf(j.verdict().name()), j, j.change().ratio().method()));
        }
        return rows;
    }

    /** How many rows have the status. */
    public static long count(List<Row> rows, Status status) {
        return rows.stream().filter(r -> r.status() == status).count();
    }

    /** How many changes were judged together (the size of the Holm family). */
    public static long family(List<Row> rows) {
        return rows.stream().filter(r -> r.judgement() != null && r.status() != Status.SHOWN).count();
    }

    /** The rule the verdicts follow, in one sentence, for the head of a report. */
    public static String rule(List<Row> rows, Thresholds t, boolean paired) {
        return String.format(Locale.ROOT, "A regression is a change worse than the threshold (score %s%%, "
                        + "bytes/op %s%%) whose 95%% interval lies wholly beyond it, with Holm's correction over the "
                        + "%d changes judged (family-wise false-alarm rate <= 2.5%%). Change = candidate/baseline "
                        + "ratio of the geometric means of fork means; interval: %s on log ratios.",
                plain(t.primaryPercent()), plain(t.allocPercent()), family(rows),
                paired ? "paired t (one baseline and one candidate fork per round)" : "Welch t (independent forks)");
    }

    /** A Markdown table of the rows, regressions first, then in the given order. */
    public static String markdown(List<Row> rows) {
        StringBuilder sb = new StringBuilder();
        sb.append("| benchmark | metric | baseline | candidate | unit | change (95% interval) | threshold "
                + "| p (Holm) | forks | verdict |\n");
        sb.append("| --- | --- | ---: | ---: | --- | --- | ---: | ---: | ---: | --- |\n");
        for (Row r : sorted(rows)) {
            Entry e = r.entry();
            Verdicts.Judgement j = r.judgement();
            String change = "";
            String threshold = "";
            String p = "";
            boolean judged = r.status() != Status.SHOWN;
            if (j != null) {
                LogRatio.Interval in = j.interval();
                change = percent(in.ratio()) + (Double.isNaN(in.lower()) ? ""
                        : " (" + percent(in.lower()) + " .. " + percent(in.upper()) + ")");
                threshold = judged ? (e.higherIsBetter() ? "-" : "+") + plain(j.change().thresholdPercent()) + "%" : "";
                p = judged ? String.format(Locale.ROOT, "%.3g", j.pWorseHolm()) : "";
            }
            String verdict = (judged ? r.status().toString() : "shown, not judged")
                    + (j == null && r.note() != null ? " (" + r.note() + ")" : "");
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |%n",
                    e.key(), metricLabel(e), fmt(r.baselineMean()), fmt(r.candidateMean()), e.unit(), change,
                    threshold, p, e.baseline().length + "+" + e.candidate().length, verdict));
        }
        return sb.toString();
    }

    /** The rows as JSON, for tools: every fork value, the ratio, the interval, the p-values and the verdict. */
    public static JsonArray json(List<Row> rows) {
        JsonArray a = new JsonArray();
        for (Row r : rows) {
            Entry e = r.entry();
            JsonObject o = new JsonObject();
            o.addProperty("benchmark", e.key());
            o.addProperty("metric", e.metric());
            o.addProperty("unit", e.unit());
            o.addProperty("higherIsBetter", e.higherIsBetter());
            o.add("baselineForks", array(e.baseline()));
            o.add("candidateForks", array(e.candidate()));
            o.add("baseline", number(r.baselineMean()));
            o.add("candidate", number(r.candidateMean()));
            Verdicts.Judgement j = r.judgement();
            if (j != null && r.status() == Status.SHOWN) {
                o.add("ratio", number(j.interval().ratio()));
                o.add("lower", number(j.interval().lower()));
                o.add("upper", number(j.interval().upper()));
                o.addProperty("confidence", j.interval().confidence());
            } else if (j != null) {
                o.add("ratio", number(j.interval().ratio()));
                o.add("lower", number(j.interval().lower()));
                o.add("upper", number(j.interval().upper()));
                o.addProperty("confidence", j.interval().confidence());
                o.addProperty("thresholdPercent", j.change().thresholdPercent());
                o.add("pWorse", number(j.pWorse()));
                o.add("pWorseHolm", number(j.pWorseHolm()));
                o.add("pBetterHolm", number(j.pBetterHolm()));
            }
            o.addProperty("verdict", r.status().name());
            if (r.note() != null) {
                o.addProperty("method", r.note());
            }
            a.add(o);
        }
        return a;
    }

    private static List<Row> sorted(List<Row> rows) {
        List<Row> s = new ArrayList<>(rows);
        s.sort(Comparator.comparingInt(r -> r.status().ordinal())); // stable: keeps the given order within a status
        return s;
    }

    private static String metricLabel(Entry e) {
        if (JmhResult.PRIMARY.equals(e.metric())) {
            return "score (" + (e.higherIsBetter() ? "higher" : "lower") + " is better)";
        }
        return ALLOC.equals(e.metric()) ? "B/op" : e.metric();
    }

    static String percent(double ratio) {
        return String.format(Locale.ROOT, "%+.2f%%", LogRatio.Interval.percent(ratio));
    }

    private static String plain(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "" : ResultTable.format(v);
    }

    private static boolean allPositive(double[] v) {
        return Arrays.stream(v).allMatch(d -> d > 0 && !Double.isInfinite(d));
    }

    static double geometricMean(double[] v) {
        if (v.length == 0 || !allPositive(v)) {
            return Double.NaN;
        }
        double s = 0;
        for (double d : v) {
            s += Math.log(d);
        }
        return Math.exp(s / v.length);
    }

    private static JsonArray array(double[] v) {
        JsonArray a = new JsonArray();
        for (double d : v) {
            a.add(number(d));
        }
        return a;
    }

    private static com.google.gson.JsonElement number(double d) {
        return Double.isNaN(d) || Double.isInfinite(d) ? JsonNull.INSTANCE : new JsonPrimitive(d);
    }
}
