package loopbench.rounds;

import loopbench.report.AtomicFile;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Runs groups of configurations in randomized, balanced, interleaved rounds, one fork at a time: the one rounds
 * engine of the CI gate (a group per profile line, two arms: the baseline and the candidate jar) and of the suite's
 * {@code [rounds=N]} profiles (a group per line, an arm per combination of its {@code -p} values).
 *
 * <p>In each round every group runs one fork of each of its arms, the groups in a random order and each group's arms
 * back to back in a {@link BalancedOrder} ({@link Schedule}, drawn from the seed before anything runs): whatever the
 * machine does meanwhile (another job, a thermal or frequency change) hits the arms of a group alike and cancels in
 * their ratios when they are paired by round. The engine holds JMH's machine-wide lock for the whole run; its forks
 * skip it ({@link ForkCommand}).
 *
 * <p>Nothing measured is lost: every fork's JSON and log stay in {@code OUT/forks/} ({@code rRR-GROUP-ARM.json|log}),
 * and after every fork {@code OUT/results.json} (every fork so far, merged per group and arm with the round of each
 * fork: {@link MergedResults}) and {@code OUT/progress.txt} (where the run is, with an ETA) are rewritten. A fork that
 * fails is reported with the tail of its log; its round is missing for its arm, the other forks are kept, and the
 * {@link Listener} decides whether the run goes on.
 */
public final class RoundsEngine {
    public static final String RESULTS = "results.json";
    public static final String PROGRESS = "progress.txt";
    public static final String FORKS = "forks";
    private static final int LOG_TAIL_LINES = 15;

    /**
     * A run.
     *
     * @param name       who runs it, for messages ("gate", "suite")
     * @param groups     what runs
     * @param seed       the seed of the {@link Schedule}
     * @param run        the run's id ({@link ForkIdentity#newRunId()})
     * @param out        where forks/, results.json and progress.txt go
     * @param ignoreLock run without JMH's machine-wide lock (a functional check on a busy machine only)
     */
    public record Plan(String name, List<Group> groups, long seed, String run, Path out, boolean ignoreLock) {
        public Plan {
            groups = List.copyOf(groups);
            if (groups.isEmpty()) {
                throw new IllegalArgumentException("a run needs at least one group");
            }
        }
    }

    /** What the engine does after a fork or a round. */
    public enum Decision {
        CONTINUE,
        /** Run no more forks of the fork's group (this round's remaining arms included). */
        DROP_GROUP,
        STOP
    }

    /** What the caller makes of forks and rounds as they finish (the gate judges, the suite renders its tables). */
    public interface Listener {
        /** After every fork (results.json already rewritten). */
        default Decision forkDone(Fork fork) throws IOException {
            return Decision.CONTINUE;
        }

        /** After every round. */
        default Decision roundDone(Schedule.Round round) throws IOException {
            return Decision.CONTINUE;
        }
    }

    /** One fork that ran: where, its command, files and exit code, and its results (empty if it failed). */
    public record Fork(Schedule.Slot slot, Group group, Arm arm, List<String> command, Path json, Path log, int exit,
                       double seconds, List<JmhResult> results) {
        public boolean failed() {
            return exit != 0 || results.isEmpty();
        }

        /** The last lines of its log. */
        public List<String> logTail(int lines) throws IOException {
            List<String> all = Files.readAllLines(log, StandardCharsets.UTF_8);
            return all.subList(Math.max(0, all.size() - lines), all.size());
        }
    }

    public enum Status { COMPLETED, STOPPED, LOCKED }

    /**
     * How the run ended.
     *
     * @param roundsDone the rounds run to their end
     * @param failed     the forks that failed (their rounds are missing for their arms)
     */
    public record Outcome(Status status, int roundsDone, int forksRun, List<Fork> failed, double seconds) {
    }

    private final Plan plan;
    private final Schedule schedule;
    private final ForkRunner runner;
    private final PrintStream progress;
    private final Listener listener;
    private final Map<Integer, List<Double>> groupSeconds = new HashMap<>();
    private final List<Double> allSeconds = new ArrayList<>();
    private final Set<Integer> dropped = new HashSet<>();
    private final List<Fork> failed = new ArrayList<>();
    private long started;
    private int forksRun;

    /** @param progress where the running commentary goes (a line per fork, failures with their logs' tails) */
    public RoundsEngine(Plan plan, ForkRunner runner, PrintStream progress, Listener listener) {
        this.plan = plan;
        this.schedule = Schedule.of(plan.groups(), plan.seed());
        this.runner = runner;
        this.progress = progress;
        this.listener = listener;
    }

    public Schedule schedule() {
        return schedule;
    }

    /** Runs every fork of the schedule (unless the listener stops it, or another JMH run holds the lock). */
    public Outcome run() throws IOException, InterruptedException {
        started = System.nanoTime();
        Path forks = plan.out().resolve(FORKS);
        Files.createDirectories(forks);
        clearOldForks(forks);
        try (FileChannel lockFile = plan.ignoreLock() ? null : openLock(); FileLock lock = tryLock(lockFile)) {
            if (lockFile != null && lock == null) {
                return new Outcome(Status.LOCKED, 0, 0, List.of(), elapsedSeconds());
            }
            return rounds(forks);
        }
    }

    private Outcome rounds(Path forks) throws IOException, InterruptedException {
        MergedResults merged = new MergedResults(plan.run());
        merged.write(plan.out().resolve(RESULTS));
        List<Schedule.Slot> all = schedule.slots();
        int index = 0;
        for (Schedule.Round round : schedule.rounds()) {
            for (Schedule.Slot slot : round.slots()) {
                index++;
                if (dropped.contains(slot.group())) {
                    continue;
                }
                Group group = plan.groups().get(slot.group());
                Arm arm = group.arms().get(slot.arm());
                String name = String.format(Locale.ROOT, "r%02d-%s-%s", round.number(), group.id(), arm.id());
                Path json = forks.resolve(name + ".json");
                Path log = forks.resolve(name + ".log");
                progress.printf(Locale.ROOT, "[%s] round %d/%d, group %d/%d (profile line %d), %s | elapsed %s, "
                                + "ETA %s | %s%n", plan.name(), round.number(), schedule.rounds().size(),
                        round.groupOrder().indexOf(slot.group()) + 1, round.groupOrder().size(), group.line().number(),
                        arm.label(), duration(elapsedSeconds()), duration(etaSeconds(all, index - 1)),
                        group.line().text());
                ForkIdentity identity = new ForkIdentity(plan.run(), group.label(), arm.label(), round.number());
                List<String> command = ForkCommand.of(arm.launch(), arm.jmhArgs(), json, identity.properties());
                Files.deleteIfExists(json);
                Files.writeString(log, "");
                long t0 = System.nanoTime();
                int exit = runner.run(command, log);
                double seconds = (System.nanoTime() - t0) / 1e9;
                groupSeconds.computeIfAbsent(slot.group(), k -> new ArrayList<>()).add(seconds);
                allSeconds.add(seconds);
                forksRun++;
                Fork fork = new Fork(slot, group, arm, command, json, log, exit, seconds,
                        exit == 0 ? readResults(json) : List.of());
                if (fork.failed()) {
                    failed.add(fork);
                    report(fork);
                } else {
                    merged.add(slot.group(), group, slot.arm(), round.number(), fork.results());
                    merged.write(plan.out().resolve(RESULTS));
                }
                writeProgress(round.number(), all, index, name, exit);
                Decision d = listener.forkDone(fork);
                if (d == Decision.STOP) {
                    return new Outcome(Status.STOPPED, round.number() - 1, forksRun, List.copyOf(failed),
                            elapsedSeconds());
                }
                if (d == Decision.DROP_GROUP) {
                    dropped.add(slot.group());
                }
            }
            if (listener.roundDone(round) == Decision.STOP) {
                return new Outcome(Status.STOPPED, round.number(), forksRun, List.copyOf(failed), elapsedSeconds());
            }
        }
        return new Outcome(Status.COMPLETED, schedule.rounds().size(), forksRun, List.copyOf(failed), elapsedSeconds());
    }

    private void report(Fork f) throws IOException {
        progress.printf(Locale.ROOT, "[%s] fork FAILED: round %d, group %s (profile line %d), arm %s: %s; this round "
                        + "is missing for this arm%n", plan.name(), f.slot().round(), f.group().label(),
                f.group().line().number(), f.arm().label(), f.exit() != 0 ? "JMH exited " + f.exit()
                        : "no results in " + f.json());
        progress.println("  command: " + String.join(" ", f.command()));
        progress.println("  log: " + f.log() + " (last lines:)");
        f.logTail(LOG_TAIL_LINES).forEach(l -> progress.println("  | " + l));
    }

    private void writeProgress(int round, List<Schedule.Slot> all, int index, String lastFork, int exit)
            throws IOException {
        long skipped = all.subList(0, index).stream().filter(s -> dropped.contains(s.group())).count();
        String line = String.format(Locale.ROOT, "%s run %s: round %d of %d, %d of %d forks run (%d failed, %d "
                        + "skipped), elapsed %s, ETA %s; last fork %s exited %d%n", plan.name(), plan.run(), round,
                schedule.rounds().size(), forksRun, all.size(), failed.size(), skipped, duration(elapsedSeconds()),
                duration(etaSeconds(all, index)), lastFork, exit);
        AtomicFile.write(plan.out().resolve(PROGRESS), line);
    }

    /** The forks after the first {@code done} of the schedule, at their group's mean so far (else the run's). */
    private double etaSeconds(List<Schedule.Slot> all, int done) {
        if (allSeconds.isEmpty()) {
            return Double.NaN;
        }
        double average = allSeconds.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        double eta = 0;
        for (Schedule.Slot s : all.subList(done, all.size())) {
            if (!dropped.contains(s.group())) {
                eta += groupSeconds.getOrDefault(s.group(), List.of(average)).stream().mapToDouble(Double::doubleValue)
                        .average().orElse(average);
            }
        }
        return eta;
    }

    private double elapsedSeconds() {
        return (System.nanoTime() - started) / 1e9;
    }

    private static List<JmhResult> readResults(Path json) {
        if (!Files.isRegularFile(json)) {
            return List.of();
        }
        try {
            return JmhResult.read(json);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }

    /** "1h02m" or "3m05s"; "?" for NaN. */
    public static String duration(double seconds) {
        if (Double.isNaN(seconds)) {
            return "?";
        }
        Duration d = Duration.ofSeconds(Math.round(seconds));
        return d.toHours() > 0 ? String.format(Locale.ROOT, "%dh%02dm", d.toHours(), d.toMinutesPart())
                : String.format(Locale.ROOT, "%dm%02ds", d.toMinutes(), d.toSecondsPart());
    }

    /** Fork files of an earlier run in the same directory would mix with this one's: they go (only fork files). */
    private static void clearOldForks(Path forks) throws IOException {
        try (DirectoryStream<Path> old = Files.newDirectoryStream(forks, "r[0-9][0-9]*-*.{json,log}")) {
            for (Path p : old) {
                Files.delete(p);
            }
        }
    }

    /** JMH's machine-wide lock: the file JMH itself locks, so that a JMH run and a rounds run exclude each other. */
    public static Path lockPath() {
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
            return null; // this JVM holds it already (another run in the same JVM)
        }
    }
}
