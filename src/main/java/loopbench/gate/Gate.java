package loopbench.gate;

import loopbench.report.AtomicFile;
import loopbench.profile.ProfileLine;
import loopbench.report.Comparison;
import loopbench.report.JmhResult;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;

/**
 * The CI gate: runs a baseline and a candidate benchmarks jar in randomized, interleaved rounds and judges every
 * benchmark from its forks.
 *
 * <p>In each round, every profile line runs one fork of each side, the lines in a random order and the two sides of
 * a line back to back, each side first in half the rounds, which half at random ({@link #balancedOrder}): whatever
 * the machine does meanwhile (another job, a thermal or frequency change, a noisy neighbour) hits both sides of a
 * pair alike and cancels in their ratio, and so does any effect of being first or second in a pair. One fork at a
 * time, while the gate holds JMH's machine-wide lock.
 *
 * <p>After the last round, per benchmark and metric (the score, and bytes per operation where the line runs
 * {@code -prof gc}), {@link Comparison#judge} pairs the fork means of the rounds: candidate/baseline ratio with a
 * 95% interval (paired t on log ratios), Holm's correction over everything judged, regression only when the
 * interval lies beyond the threshold. Every fork's JSON and log stay in {@code OUT/forks/}, and the reports are
 * rewritten after every round, so a gate that is killed keeps what it measured.
 *
 * <p>Exit codes: {@link #PASS} 0, {@link #REGRESSION} 1, {@link #FAILED} 2 (a side failed to run, or the JMH lock
 * is taken).
 */
public final class Gate {
    public static final int PASS = 0;
    public static final int REGRESSION = 1;
    public static final int FAILED = 2;
    private static final int LOG_TAIL_LINES = 15;

    private final GateSettings settings;
    private final ForkRunner runner;
    private final PrintStream progress;
    private final PrintStream out;
    private final Map<Integer, List<Double>> lineSeconds = new HashMap<>();
    private final List<Double> allSeconds = new ArrayList<>();
    /** Lines left out because one side's jar has no benchmark they select, with why. */
    private final List<String> dropped = new ArrayList<>();
    private final java.util.Set<Integer> droppedLines = new java.util.HashSet<>();
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

    /** Runs the gate; returns its exit code. */
    public int run() throws IOException, InterruptedException {
        started = System.nanoTime();
        Path forks = settings.out().resolve("forks");
        Files.createDirectories(forks);
        clearOldForks(forks);
        progress.println("loopbench gate: " + settings.rounds() + " rounds x " + settings.lines().size()
                + " profile line(s) x 2 sides, one fork each, seed " + settings.seed());
        progress.println("  baseline:  " + settings.baseline().describe());
        progress.println("  candidate: " + settings.candidate().describe());
        settings.skipped().forEach(s -> progress.println("  skipped: " + s));
        progress.println("  forks and their logs: " + forks);

        try (FileChannel lockFile = settings.ignoreLock() ? null : openLock(); FileLock lock = tryLock(lockFile)) {
            if (lockFile != null && lock == null) {
                progress.println("loopbench gate: FAILED: another JMH run holds the machine-wide lock "
                        + lockPath() + "; run the gate when it is done (--ignore-lock runs anyway, but both "
                        + "runs' figures are then disturbed)");
                return FAILED;
            }
            return rounds(forks);
        }
    }

    private int rounds(Path forks) throws IOException, InterruptedException {
        Random random = new Random(settings.seed());
        List<ProfileLine> lines = settings.lines();
        Map<String, List<JmhResult>> baseline = new LinkedHashMap<>();
        Map<String, List<JmhResult>> candidate = new LinkedHashMap<>();
        int totalForks = settings.rounds() * lines.size() * 2;
        int done = 0;
        List<Comparison.Row> rows = List.of();
        List<List<Boolean>> baselineFirst = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            baselineFirst.add(balancedOrder(settings.rounds(), random));
        }
        for (int round = 1; round <= settings.rounds(); round++) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) {
                order.add(i);
            }
            Collections.shuffle(order, random);
            Map<Integer, List<JmhResult>> roundBaseline = new HashMap<>();
            Map<Integer, List<JmhResult>> roundCandidate = new HashMap<>();
            for (int index : order) {
                ProfileLine line = lines.get(index);
                if (droppedLines.contains(index)) {
                    done += 2;
                    continue;
                }
                List<Side> sides = baselineFirst.get(index).get(round - 1)
                        ? List.of(settings.baseline(), settings.candidate())
                        : List.of(settings.candidate(), settings.baseline());
                for (Side side : sides) {
                    String name = String.format(Locale.ROOT, "r%02d-l%02d-%s", round, index + 1, side.role());
                    Path json = forks.resolve(name + ".json");
                    Path log = forks.resolve(name + ".log");
                    progress.printf(Locale.ROOT, "[gate] round %d/%d, line %d/%d (profile line %d), %-9s | elapsed %s, "
                                    + "ETA %s | %s%n", round, settings.rounds(), order.indexOf(index) + 1, lines.size(),
                            line.number(), side.role(), duration(elapsedSeconds()),
                            duration(etaSeconds(totalForks - done)), line.text());
                    long t0 = System.nanoTime();
                    List<String> command = ForkCommand.of(side, line, json);
                    Files.writeString(log, "");
                    int exit = runner.run(command, log);
                    double seconds = (System.nanoTime() - t0) / 1e9;
                    lineSeconds.computeIfAbsent(index, k -> new ArrayList<>()).add(seconds);
                    allSeconds.add(seconds);
                    done++;
                    List<JmhResult> results = exit == 0 ? readResults(json) : List.of();
                    if (round == 1 && exit != 0 && matchesNothing(log)) {
                        // A benchmark new in the candidate (or gone from it) has nothing to be compared with.
                        String why = String.format(Locale.ROOT, "line %d matches no benchmark in the %s jar (%s), left "
                                + "out on both sides: %s", line.number(), side.role(), side.jar(), line.text());
                        progress.println("[gate] " + why);
                        dropped.add(why);
                        droppedLines.add(index);
                        roundBaseline.remove(index);
                        roundCandidate.remove(index);
                        done += sides.indexOf(side) == 0 ? 1 : 0;
                        break;
                    }
                    if (exit != 0 || results.isEmpty()) {
                        fail(side, line, round, command, log, exit, json);
                        writeReports(rows, round - 1, "FAILED");
                        return FAILED;
                    }
                    (side == settings.baseline() ? roundBaseline : roundCandidate).put(index, results);
                }
            }
            if (droppedLines.size() == lines.size()) {
                progress.println("loopbench gate: FAILED: no line of " + settings.profile() + " selects a benchmark "
                        + "both jars have");
                writeReports(rows, 0, "FAILED");
                return FAILED;
            }
            for (int index : order) {
                if (!droppedLines.contains(index)) {
                    roundBaseline.get(index).forEach(r -> baseline.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
                    roundCandidate.get(index).forEach(r -> candidate.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
                }
            }
            rows = judge(baseline, candidate);
            writeReports(rows, round, round == settings.rounds() ? verdict(rows) : "RUNNING");
        }
        String verdict = verdict(rows);
        out.println();
        out.print(GateReport.markdown(settings, rows, settings.rounds(), verdict, elapsedSeconds(), dropped));
        out.println();
        out.println("loopbench gate: " + verdict + " (summary: " + settings.summary() + ", JSON: " + settings.json()
                + ")");
        return "PASS".equals(verdict) ? PASS : REGRESSION;
    }

    /**
     * Which side of a line goes first in each round: the baseline in half the rounds (one more or less when
     * {@code rounds} is odd), which half at random. Being second in a pair may not be neutral: in the 64 pairs of 8
     * A/A gates of {@code profiles/gate.jmh} (a coin per pair then), the end-to-end benchmark's second fork used 6.5%
     * more proxy CPU per request than the first (t = 1.67: a hint, not proof). With a coin per pair, a gate whose
     * coins fell 5:3 would carry a quarter of such an effect into its ratio; balanced, it cancels in the mean of the
     * log ratios and is left as variance, widening the interval instead of shifting it.
     */
    static List<Boolean> balancedOrder(int rounds, Random random) {
        List<Boolean> order = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            order.add(r < rounds / 2 || (r == rounds / 2 && rounds % 2 == 1 && random.nextBoolean()));
        }
        Collections.shuffle(order, random);
        return List.copyOf(order);
    }

    private List<Comparison.Row> judge(Map<String, List<JmhResult>> baseline, Map<String, List<JmhResult>> candidate) {
        return Comparison.judge(Comparison.entries(baseline, candidate, Comparison.DEFAULT_METRICS), true,
                settings.thresholds());
    }

    static String verdict(List<Comparison.Row> rows) {
        long regressions = Comparison.count(rows, Comparison.Status.REGRESSION);
        return regressions == 0 ? "PASS" : "REGRESSION";
    }

    private void writeReports(List<Comparison.Row> rows, int roundsDone, String verdict) throws IOException {
        double elapsed = elapsedSeconds();
        replace(settings.summary(), GateReport.markdown(settings, rows, roundsDone, verdict, elapsed, dropped));
        replace(settings.json(), GateReport.json(settings, rows, roundsDone, verdict, elapsed, dropped).toString());
    }

    /** JMH's answer to a selection that matches nothing in the jar. */
    private static boolean matchesNothing(Path log) throws IOException {
        return Files.readString(log, StandardCharsets.UTF_8).contains("No matching benchmarks");
    }

    private List<JmhResult> readResults(Path json) {
        if (!Files.isRegularFile(json)) {
            return List.of();
        }
        try {
            return JmhResult.read(json);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    private void fail(Side side, ProfileLine line, int round, List<String> command, Path log, int exit, Path json)
            throws IOException {
        progress.printf(Locale.ROOT, "loopbench gate: FAILED: the %s side failed to run profile line %d (%s) in round "
                        + "%d: %s%n", side.role(), line.number(), line.text(), round,
                exit != 0 ? "JMH exited " + exit : "no results in " + json);
        progress.println("  command: " + String.join(" ", command));
        progress.println("  log: " + log + " (last lines:)");
        List<String> logLines = Files.readAllLines(log, StandardCharsets.UTF_8);
        logLines.subList(Math.max(0, logLines.size() - LOG_TAIL_LINES), logLines.size())
                .forEach(l -> progress.println("  | " + l));
    }

    /** Known seconds per fork of each line so far; lines not yet run count as the average fork. */
    private double etaSeconds(int remainingForks) {
        if (allSeconds.isEmpty()) {
            return Double.NaN;
        }
        double avgFork = allSeconds.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double perRound = 0;
        for (int i = 0; i < settings.lines().size(); i++) {
            perRound += 2 * lineSeconds.getOrDefault(i, List.of(avgFork)).stream().mapToDouble(Double::doubleValue)
                    .average().orElse(avgFork);
        }
        double perFork = perRound / (2.0 * settings.lines().size());
        return perFork * remainingForks;
    }

    private double elapsedSeconds() {
        return (System.nanoTime() - started) / 1e9;
    }

    static String duration(double seconds) {
        if (Double.isNaN(seconds)) {
            return "?";
        }
        Duration d = Duration.ofSeconds(Math.round(seconds));
        return d.toHours() > 0 ? String.format(Locale.ROOT, "%dh%02dm", d.toHours(), d.toMinutesPart())
                : String.format(Locale.ROOT, "%dm%02ds", d.toMinutes(), d.toSecondsPart());
    }

    private static void replace(Path target, String content) throws IOException {
        AtomicFile.write(target, content);
    }

    /** Fork files of an earlier gate in the same directory would mix with this one's: they go (only ours). */
    private static void clearOldForks(Path forks) throws IOException {
        try (DirectoryStream<Path> old = Files.newDirectoryStream(forks, "r[0-9]*-l[0-9]*-{baseline,candidate}.{json,log}")) {
            for (Path p : old) {
                Files.delete(p);
            }
        }
    }

    static Path lockPath() {
        return Paths.get(System.getProperty("java.io.tmpdir"), "jmh.lock");
    }

    private static FileChannel openLock() throws IOException {
        return FileChannel.open(lockPath(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    }

    private static FileLock tryLock(FileChannel channel) throws IOException {
        if (channel == null) {
            return null;
        }
        try {
            return channel.tryLock();
        } catch (OverlappingFileLockException e) {
            return null; // this JVM holds it already (another gate in the same JVM)
        }
    }
}
