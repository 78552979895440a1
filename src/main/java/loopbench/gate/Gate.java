package loopbench.gate;

import loopbench.profile.ProfileLine;
import loopbench.report.AtomicFile;
import loopbench.report.Comparison;
import loopbench.report.JmhResult;
import loopbench.rounds.Arm;
import loopbench.rounds.ForkIdentity;
import loopbench.rounds.ForkRunner;
import loopbench.rounds.Group;
import loopbench.rounds.RoundsEngine;
import loopbench.rounds.Schedule;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The CI gate: runs a baseline and a candidate benchmarks jar in randomized, interleaved rounds and judges every
 * benchmark from its forks.
 *
 * <p>The gate is the rounds engine's case "one group per profile line, two arms: the two jars" ({@link RoundsEngine}):
 * in each round, every profile line runs one fork of each side, the lines in a random order and the two sides of a
 * line back to back, each side first in half the rounds, which half at random: whatever the machine does meanwhile
 * hits both sides of a pair alike and cancels in their ratio, and so does any effect of being first or second in a
 * pair. One fork at a time, while the engine holds JMH's machine-wide lock.
 *
 * <p>After every round, per benchmark and metric (the score; bytes per operation where the line runs
 * {@code -prof gc}; CPU per operation where it runs ProcCpuProfiler; end to end, the server's own CPU per request:
 * {@link Comparison#DEFAULT_METRICS}), {@link Comparison#judge} pairs the fork means of the rounds: candidate/baseline
 * ratio with a 95% interval (paired t on log ratios), Holm's correction over everything judged, regression only when
 * the interval lies beyond the threshold. The servers' memory figures are shown beside, with their intervals, and
 * judged by no one ({@link Comparison#shown}). Every fork's JSON and log stay in {@code OUT/forks/}, and the reports
 * are rewritten after every round, so a gate that is killed keeps what it measured.
 *
 * <p>A gate that judged less than its profile asks (a line that selects nothing in one jar, a benchmark or a parameter
 * set in one jar only, a comparison without a verdict) is {@code INCOMPLETE} and fails with {@link #FAILED}, unless
 * {@code --allow-partial} says that is intended: a pull request that deletes or renames a gated benchmark must not
 * turn the gate green.
 *
 * <p>Exit codes: {@link #PASS} 0, {@link #REGRESSION} 1, {@link #FAILED} 2 (a side failed to run, the JMH lock is
 * taken, or the gate is incomplete).
 */
public final class Gate {
    public static final int PASS = 0;
    public static final int REGRESSION = 1;
    public static final int FAILED = 2;
    static final String INCOMPLETE = "INCOMPLETE";

    private final GateSettings settings;
    private final ForkRunner runner;
    private final PrintStream progress;
    private final PrintStream out;
    /** Lines left out because one side's jar has no benchmark they select, with why. */
    private final List<String> dropped = new ArrayList<>();
    private final Set<Integer> droppedLines = new HashSet<>();
    private long started;

    /**
     * @param progress where the running commentary goes (round, line, side, ETA; failures)
     * @param out      where the final table goes
     */
    public Gate(GateSettings settings, ForkRunner runner, PrintStream progress, PrintStream out) {
        this.settings = settings;
        this.runner = runner;
        this.progress = progress;
        this.out = out;
    }

    /** The engine's plan of a gate: a group per profile line, its arms the baseline and the candidate. */
    static RoundsEngine.Plan plan(GateSettings s, String run) {
        List<Group> groups = new ArrayList<>();
        for (ProfileLine line : s.lines()) {
            List<Arm> arms = List.of(arm(s.baseline(), line), arm(s.candidate(), line));
            groups.add(new Group(line.name(), String.format(Locale.ROOT, "l%02d", line.number()), line, s.rounds(),
                    arms));
        }
        return new RoundsEngine.Plan("gate", groups, s.seed(), run, s.out(), s.ignoreLock());
    }

    private static Arm arm(Side side, ProfileLine line) {
        return new Arm(side.role(), side.role(), null, side.launch(), line.args());
    }

    /** The order the gate's forks would run in, for a dry run. */
    public static String describeSchedule(GateSettings s) {
        RoundsEngine.Plan plan = plan(s, "dry-run");
        return Schedule.of(plan.groups(), s.seed()).describe(plan.groups());
    }

    /** Runs the gate; returns its exit code. */
    public int run() throws IOException, InterruptedException {
        started = System.nanoTime();
        RoundsEngine.Plan plan = plan(settings, ForkIdentity.newRunId());
        progress.println("loopbench gate: " + settings.rounds() + " rounds x " + settings.lines().size()
                + " profile line(s) x 2 sides, one fork each, seed " + settings.seed() + ", run " + plan.run());
        progress.println("  baseline:  " + settings.baseline().describe());
        progress.println("  candidate: " + settings.candidate().describe());
        settings.skipped().forEach(s -> progress.println("  skipped: " + s));
        progress.println("  forks and their logs: " + settings.out().resolve(RoundsEngine.FORKS));

        Judging judging = new Judging();
        RoundsEngine.Outcome outcome = new RoundsEngine(plan, runner, progress, judging).run();
        switch (outcome.status()) {
            case LOCKED -> {
                progress.println("loopbench gate: FAILED: another JMH run holds the machine-wide lock "
                        + RoundsEngine.lockPath() + "; run the gate when it is done (--ignore-lock runs anyway, but "
                        + "both runs' figures are then disturbed)");
                return FAILED;
            }
            case STOPPED -> {
                return FAILED;
            }
            default -> {
                List<Comparison.Row> rows = judging.rows;
                String verdict = verdict(rows, dropped, settings.allowPartial());
                out.println();
                out.print(GateReport.markdown(settings, rows, settings.rounds(), verdict, elapsedSeconds(), dropped));
                out.println();
                if (INCOMPLETE.equals(verdict)) {
                    out.println("loopbench gate: INCOMPLETE: " + GateReport.unjudgedSentence(rows, dropped)
                            + "; the gate judged less than its profile asks, so it fails (exit 2). If that is "
                            + "intended (a benchmark added, renamed or removed on purpose), --allow-partial passes "
                            + "it.");
                }
                out.println("loopbench gate: " + verdict + " (summary: " + settings.summary() + ", JSON: "
                        + settings.json() + ")");
                return switch (verdict) {
                    case "PASS" -> PASS;
                    case "REGRESSION" -> REGRESSION;
                    default -> FAILED;
                };
            }
        }
    }

    /**
     * Collects each round's forks per side and line, and after the round (both sides of every line run) adds them to
     * the pairs and judges everything so far.
     */
    private final class Judging implements RoundsEngine.Listener {
        private final Map<String, List<JmhResult>> baseline = new LinkedHashMap<>();
        private final Map<String, List<JmhResult>> candidate = new LinkedHashMap<>();
        private final Map<Integer, List<JmhResult>> roundBaseline = new HashMap<>();
        private final Map<Integer, List<JmhResult>> roundCandidate = new HashMap<>();
        private List<Comparison.Row> rows = List.of();

        @Override
        public RoundsEngine.Decision forkDone(RoundsEngine.Fork f) throws IOException {
            int index = f.slot().group();
            ProfileLine line = f.group().line();
            Side side = settings.baseline().role().equals(f.arm().id()) ? settings.baseline() : settings.candidate();
            if (!f.failed()) {
                (side == settings.baseline() ? roundBaseline : roundCandidate).put(index, f.results());
                return RoundsEngine.Decision.CONTINUE;
            }
            if (f.slot().round() == 1 && f.exit() != 0 && matchesNothing(f.log())) {
                // A benchmark new in the candidate (or gone from it) has nothing to be compared with.
                String why = String.format(Locale.ROOT, "line %d matches no benchmark in the %s jar (%s), left out "
                        + "on both sides: %s", line.number(), side.role(), side.jar(), line.text());
                progress.println("[gate] " + why);
                dropped.add(why);
                droppedLines.add(index);
                roundBaseline.remove(index);
                roundCandidate.remove(index);
                return RoundsEngine.Decision.DROP_GROUP;
            }
            progress.printf(Locale.ROOT, "loopbench gate: FAILED: the %s side failed to run profile line %d (%s) in "
                            + "round %d: %s%n", side.role(), line.number(), line.text(), f.slot().round(),
                    f.exit() != 0 ? "JMH exited " + f.exit() : "no results in " + f.json());
            writeReports(rows, f.slot().round() - 1, "FAILED");
            return RoundsEngine.Decision.STOP;
        }

        @Override
        public RoundsEngine.Decision roundDone(Schedule.Round round) throws IOException {
            if (droppedLines.size() == settings.lines().size()) {
                progress.println("loopbench gate: FAILED: no line of " + settings.profile() + " selects a benchmark "
                        + "both jars have");
                writeReports(rows, 0, "FAILED");
                return RoundsEngine.Decision.STOP;
            }
            for (int index : round.groupOrder()) {
                if (!droppedLines.contains(index)) {
                    roundBaseline.get(index).forEach(r -> baseline.computeIfAbsent(settings.keyOf(r),
                            k -> new ArrayList<>()).add(r));
                    roundCandidate.get(index).forEach(r -> candidate.computeIfAbsent(settings.keyOf(r),
                            k -> new ArrayList<>()).add(r));
                }
            }
            roundBaseline.clear();
            roundCandidate.clear();
            List<Comparison.Row> judged = Comparison.judge(Comparison.entries(baseline, candidate,
                    Comparison.DEFAULT_METRICS), true, settings.thresholds());
            List<JmhResult> all = new ArrayList<>();
            baseline.values().forEach(all::addAll);
            candidate.values().forEach(all::addAll);
            List<Comparison.Row> memory = Comparison.shown(Comparison.entries(baseline, candidate,
                    Comparison.memoryMetrics(all)), true);
            rows = new ArrayList<>(judged);
            rows.addAll(memory);
            boolean last = round.number() == settings.rounds();
            writeReports(rows, round.number(), last ? verdict(rows, dropped, settings.allowPartial()) : "RUNNING");
            return RoundsEngine.Decision.CONTINUE;
        }
    }

    /**
     * REGRESSION if anything regressed; else INCOMPLETE if anything the profile asks was not judged (a line left out,
     * a row without a verdict or in one jar only), unless that is allowed; else PASS.
     */
    static String verdict(List<Comparison.Row> rows, List<String> dropped, boolean allowPartial) {
        if (Comparison.count(rows, Comparison.Status.REGRESSION) > 0) {
            return "REGRESSION";
        }
        boolean partial = !dropped.isEmpty() || !unjudged(rows).isEmpty();
        return partial && !allowPartial ? INCOMPLETE : "PASS";
    }

    /** The rows without a verdict: in one jar only (a benchmark or parameter set the other lacks), or unjudgeable. */
    static List<Comparison.Row> unjudged(List<Comparison.Row> rows) {
        return rows.stream().filter(r -> r.status() == Comparison.Status.NO_VERDICT
                || r.status() == Comparison.Status.ONLY_IN_BASELINE
                || r.status() == Comparison.Status.ONLY_IN_CANDIDATE).toList();
    }

    private void writeReports(List<Comparison.Row> rows, int roundsDone, String verdict) throws IOException {
        double elapsed = elapsedSeconds();
        AtomicFile.write(settings.summary(), GateReport.markdown(settings, rows, roundsDone, verdict, elapsed,
                dropped));
        AtomicFile.write(settings.json(), GateReport.json(settings, rows, roundsDone, verdict, elapsed, dropped));
    }

    /** JMH's answer to a selection that matches nothing in the jar. */
    private static boolean matchesNothing(Path log) throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8).contains("No matching benchmarks");
    }

    private double elapsedSeconds() {
        return (System.nanoTime() - started) / 1e9;
    }
}
