package loopbench.suite;

import loopbench.claims.ClaimCatalog;
import loopbench.claims.ClaimsReport;
import loopbench.claims.Machine;
import loopbench.flame.FlameEvent;
import loopbench.flame.FlameGraphs;
import loopbench.process.JvmFlags;
import loopbench.profile.ProfileLine;
import loopbench.report.AtomicFile;
import loopbench.report.EndToEndMetrics;
import loopbench.report.ResultTable;
import loopbench.rounds.Arm;
import loopbench.rounds.ForkIdentity;
import loopbench.rounds.Group;
import loopbench.rounds.Launch;
import loopbench.rounds.ProcessForkRunner;
import loopbench.rounds.RoundsEngine;
import loopbench.rounds.Schedule;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Runs a profile of the JMH suite: one JMH run per profile line, every result written to JMH's JSON and to
 * a Markdown table as soon as its benchmark finishes, so an interrupted run keeps everything it measured.
 * {@code ./mvnw -Pjmh verify} runs {@code profiles/default.jmh} through here.
 *
 * <p>A profile whose lines carry {@code [rounds=N]} runs through the rounds engine instead ({@link RoundsEngine}):
 * each line is a group, each combination of its {@code -p} values an arm, one fork per arm per round, in randomized,
 * balanced, interleaved rounds; every fork is a child {@code java -jar <this benchmarks jar>} with the suite's own
 * fork options, and {@code results.json} holds the forks merged per arm with the round of each. Every run has an id
 * ({@link ForkIdentity#newRunId()}), written in every result's "loopbench" field and given to every fork (its side
 * files carry it). Like JMH, the suite takes JMH's machine-wide lock unless {@code -Djmh.ignoreLock=true}.
 *
 * <p>Next to the results: {@code machine.json} (what JMH's JSON does not record: CPU, kernel, Netty, transports),
 * the end-to-end benchmarks' side files ({@code e2e/}), flame graphs with {@code --flame} ({@code flame/}), and with
 * {@code --claims DIR} the claims report, written at the end from whatever was measured.
 *
 * <p>{@code java -cp target/benchmarks.jar loopbench.suite.Suite [--profile FILE] [--out DIR] [--flame EVENT]
 * [--claims DIR] [--dry-run] [--seed N] [--benchmarks-jar JAR] [--jar NAME=JAR] [-- JMH options]}
 */
@Command(name = "loopbench.suite.Suite", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs a profile of loopbench's JMH suite (one JMH run per line of the profile, or a rounds "
                + "profile's forks in interleaved rounds) and writes DIR/results.json (JMH's JSON) and DIR/results.md "
                + "(tables) after every benchmark (every fork).",
        footer = {"", "JMH options after -- are appended to every line of the profile, e.g. -- -f 2 -i 10.",
                "Profile lines: '<regex> <JMH options>'; '[jdk>=21] <line>' runs only on JDK 21+; # comments.",
                "Rounds profiles: '[rounds=N] [label=NAME] [twins] <line>' on every line: one fork per combination of "
                        + "the line's -p values per round, in randomized interleaved rounds (--dry-run prints the "
                        + "schedule)."})
public final class Suite implements Callable<Integer> {

    @Option(names = "--profile", paramLabel = "FILE", defaultValue = "profiles/default.jmh",
            description = "The runs to make. Default: ${DEFAULT-VALUE}.")
    Path profile;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/jmh",
            description = "Where results.json and results.md go. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--flame", paramLabel = "EVENT", defaultValue = "none",
            description = "An async-profiler flame graph of every benchmark: none, cpu, alloc, lock or wall "
                    + "(loopbench.bench.FlameProfiler, into DIR/flame). Default: ${DEFAULT-VALUE}.")
    String flame;

    @Option(names = "--claims", paramLabel = "REPORT_DIR",
            description = "At the end, write the claims report (report.md, report.html) from DIR/results.json into "
                    + "REPORT_DIR.")
    Path claims;

    @Option(names = "--dry-run", description = "Print the JMH runs the profile makes (a rounds profile: its groups, "
            + "arms and schedule), then exit.")
    boolean dryRun;

    @Option(names = "--seed", paramLabel = "N", description = "Rounds profiles: the seed of the random order (to "
            + "replay one). Default: random.")
    Long seed;

    @Option(names = "--benchmarks-jar", paramLabel = "JAR", description = "Rounds profiles: the benchmarks jar the "
            + "forks run. Default: the jar this suite runs from (target/benchmarks.jar).")
    Path benchmarksJar;

    @Option(names = "--jar", paramLabel = "NAME=JAR", description = "Rounds profiles: the jar of lines tagged "
            + "[jar=NAME] (valid names: netty-4.1).")
    Map<String, Path> jars = new LinkedHashMap<>();

    @Parameters(paramLabel = "JMH_OPTION", description = "Extra JMH options (after --), for every run.")
    List<String> jmhArgs = new ArrayList<>();

    private final PrintStream log = System.out;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The suite's command line: a bad profile (an IOException) exits 2 with its message, other failures 1. */
    static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new Suite());
        cmd.setExecutionExceptionHandler((e, command, parseResult) -> {
            command.getErr().println("loopbench suite: " + e.getMessage());
            return e instanceof IOException ? 2 : 1;
        });
        return cmd;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
        List<ProfileLine> lines = ProfileLine.read(profile);
        int feature = Runtime.version().feature();
        String run = ForkIdentity.newRunId();
        List<String> extra = new ArrayList<>();
        if (!"none".equals(flame)) {
            try {
                FlameEvent event = FlameEvent.parse(flame);
                extra.add("-prof");
                extra.add(flameProfiler(event, out.toAbsolutePath().resolve(FlameGraphs.SUITE_DIR)));
            } catch (IllegalArgumentException e) {
                System.err.println("--flame: " + e.getMessage() + " (or none)");
                return 2;
            }
        }
        Path sideFiles = out.toAbsolutePath().resolve(EndToEndMetrics.SIDE_FILE_DIR);
        if (lines.get(0).isRounds()) {
            List<String> all = new ArrayList<>(extra);
            all.addAll(jmhArgs);
            return rounds(lines, feature, all, sideFiles, run);
        }
        List<Options> runs = new ArrayList<>();
        List<String> titles = new ArrayList<>();
        for (ProfileLine line : lines) {
            if (!line.runsOn(feature)) {
                log.printf("skipped (needs JDK %d+, this JVM is %s): %s%n", line.minJdk(), Runtime.version(),
                        line.text());
                continue;
            }
            List<String> args = new ArrayList<>(line.args());
            args.addAll(extra);
            args.addAll(jmhArgs);
            try {
                runs.add(options(new CommandLineOptions(args.toArray(new String[0])), feature, sideFiles, run));
            } catch (CommandLineOptionException e) {
                System.err.println(profile + " line " + line.number()
                        + (jmhArgs.isEmpty() ? "" : " (with the options after --: " + String.join(" ", jmhArgs) + ")")
                        + ": " + e.getMessage() + "\n  " + line.text());
                return 2;
            }
            List<String> added = new ArrayList<>(extra);
            added.addAll(jmhArgs);
            titles.add(line.text() + (added.isEmpty() ? "" : " " + String.join(" ", added)));
        }
        if (dryRun) {
            titles.forEach(t -> log.println("would run: " + t));
            return 0;
        }
        Files.createDirectories(out);
        Machine.Snapshot.current().write(out.resolve(Machine.FILE));
        log.println("=== loopbench suite: run " + run);
        IncrementalResults results = new IncrementalResults(out.resolve("results.json"), out.resolve("results.md"),
                run);
        int failed = 0;
        for (int i = 0; i < runs.size(); i++) {
            log.printf("%n=== loopbench suite: run %d of %d: %s%n", i + 1, runs.size(), titles.get(i));
            ProgressOutput output = new ProgressOutput(log, results);
            try {
                new Runner(runs.get(i), output).run();
            } catch (RunnerException e) {
                System.err.println("run " + (i + 1) + " failed: " + e.getMessage());
                failed++;
            }
            failed += output.failedBenchmarks();
        }
        log.printf("%n=== loopbench suite: %d result(s) in %s and %s%s%n", results.count(),
                out.resolve("results.json"), out.resolve("results.md"),
                failed == 0 ? "" : "; " + failed + " benchmark(s) FAILED (see above)");
        if (claims != null && !writeClaimsReport(results.count())) {
            return 1;
        }
        return failed == 0 ? 0 : 1;
    }

    /**
     * A rounds profile: a group per line the JVM may run, the engine's schedule, then the forks one at a time, with
     * results.json (merged by the engine) and results.md rewritten after each; then the claims report.
     */
    private Integer rounds(List<ProfileLine> lines, int feature, List<String> extra, Path sideFiles, String run)
            throws IOException, InterruptedException {
        Path jar = benchmarksJar != null ? benchmarksJar : ownJar();
        if (dryRun && jar == null) {
            jar = Paths.get("target", "benchmarks.jar"); // only named in a dry run's schedule
        } else if (jar == null || !Files.isRegularFile(jar)) {
            System.err.println("a rounds profile runs its forks from a benchmarks jar, and "
                    + (jar == null ? "this suite does not run from one" : jar + " is not a file")
                    + ": give --benchmarks-jar target/benchmarks.jar (built by ./mvnw -Pjmh package)");
            return 2;
        }
        for (Map.Entry<String, Path> j : jars.entrySet()) {
            if (!ProfileLine.JARS.contains(j.getKey())) {
                System.err.println("--jar " + j.getKey() + "=" + j.getValue() + ": unknown name; valid: "
                        + String.join(", ", ProfileLine.JARS));
                return 2;
            }
        }
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        List<Group> groups = new ArrayList<>();
        for (ProfileLine line : lines) {
            if (!line.runsOn(feature)) {
                log.printf("skipped (needs JDK %d+, this JVM is %s): %s%n", line.minJdk(), Runtime.version(),
                        line.text());
                continue;
            }
            if (line.jar() != null && !jars.containsKey(line.jar())) {
                System.err.println(profile + " line " + line.number() + " runs from the " + line.jar() + " benchmarks "
                        + "jar: give it with --jar " + line.jar() + "=JAR\n  " + line.text());
                return 2;
            }
            // A jar given for lines this profile does not have need not exist (the Maven build always names it).
            if (line.jar() != null && !dryRun && !Files.isRegularFile(jars.get(line.jar()))) {
                System.err.println("--jar " + line.jar() + "=" + jars.get(line.jar()) + ": no such file; " + profile
                        + " line " + line.number() + " runs from it (build it with " + loopbench.claims.Group
                        .NETTY_41_BUILD + ")\n  " + line.text());
                return 2;
            }
            Launch launch = new Launch(java, line.jar() == null ? jar : jars.get(line.jar()), forkJvmArgs(feature,
                    sideFiles));
            try {
                Group g = Group.ofLine(line, launch, extra);
                for (Arm arm : g.arms()) {
                    new CommandLineOptions(arm.jmhArgs().toArray(new String[0]));
                }
                groups.add(g);
            } catch (IllegalArgumentException | CommandLineOptionException e) {
                System.err.println(profile + " line " + line.number() + ": " + e.getMessage() + "\n  " + line.text());
                return 2;
            }
        }
        if (groups.isEmpty()) {
            System.err.println(profile + ": no line runs on this JVM (" + Runtime.version() + ")");
            return 2;
        }
        long s = seed != null ? seed : System.nanoTime();
        boolean ignoreLock = Boolean.getBoolean("jmh.ignoreLock");
        RoundsEngine.Plan plan = new RoundsEngine.Plan("suite", groups, s, run, out, ignoreLock);
        if (dryRun) {
            log.print(Schedule.of(groups, s).describe(groups));
            return 0;
        }
        Files.createDirectories(out);
        Machine.Snapshot.current().write(out.resolve(Machine.FILE));
        Path json = out.resolve(RoundsEngine.RESULTS);
        Path table = out.resolve("results.md");
        log.printf("=== loopbench suite: %s in rounds, run %s, seed %d: every fork's JSON and log in %s%n", profile,
                run, s, out.resolve(RoundsEngine.FORKS));
        RoundsEngine.Listener tables = new RoundsEngine.Listener() {
            @Override
            public RoundsEngine.Decision forkDone(RoundsEngine.Fork fork) throws IOException {
                AtomicFile.write(table, ResultTable.render(ResultTable.read(json)));
                return RoundsEngine.Decision.CONTINUE;
            }
        };
        RoundsEngine.Outcome outcome;
        try (ProcessForkRunner runner = new ProcessForkRunner()) {
            outcome = new RoundsEngine(plan, runner, log, tables).run();
        }
        if (outcome.status() == RoundsEngine.Status.LOCKED) {
            System.err.println("another JMH run holds the machine-wide lock " + RoundsEngine.lockPath() + "; run the "
                    + "suite when it is done (-Djmh.ignoreLock=true runs anyway, but both runs' figures are then "
                    + "disturbed)");
            return 1;
        }
        int count = ResultTable.read(json).size();
        log.printf("%n=== loopbench suite: %d result(s) from %d fork(s) in %s and %s%s%n", count, outcome.forksRun(),
                json, table, outcome.failed().isEmpty() ? "" : "; " + outcome.failed().size()
                        + " fork(s) FAILED (see above; their rounds are missing)");
        if (claims != null && !writeClaimsReport(count)) {
            return 1;
        }
        return outcome.failed().isEmpty() ? 0 : 1;
    }

    /** The jar this class was loaded from, or null (a classes directory: the tests). */
    private static Path ownJar() {
        try {
            Path p = Paths.get(Suite.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return Files.isRegularFile(p) ? p : null;
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** The claims report from what was measured; false (and why on stderr) if it could not be written. */
    private boolean writeClaimsReport(int resultCount) {
        if (resultCount == 0) {
            log.println("=== loopbench suite: no results, so no claims report");
            return true;
        }
        try {
            ClaimsReport.Written w = ClaimsReport.write(List.of(out.resolve("results.json")), claims,
                    ClaimCatalog.all());
            log.printf("=== loopbench suite: claims report %s and %s (%s)%n", w.markdown(), w.html(), w.summary());
            return true;
        } catch (IOException | RuntimeException e) {
            System.err.println("claims report failed (the results are kept in " + out.resolve("results.json") + "): "
                    + e);
            return false;
        }
    }

    /** The {@code -prof} value that takes a flame graph of every benchmark into {@code dir}. */
    static String flameProfiler(FlameEvent event, Path dir) {
        return "loopbench.bench.FlameProfiler:event=" + event.cliName() + ";dir=" + dir;
    }

    /**
     * What loopbench's forks need on this JDK: on JDK 23+, Netty's Unsafe path is kept on with
     * {@code --sun-misc-unsafe-memory-access=allow} (JDK 25 turns it off otherwise), and every fork checks that it
     * really has Unsafe ({@code -Dloopbench.requireUnsafe=true}, see AbstractBenchmark). End-to-end benchmarks write
     * their side files (full latency distributions, per-second series) to {@code sideFiles}.
     */
    static List<String> forkJvmArgs(int jdkFeature, Path sideFiles) {
        List<String> args = new ArrayList<>(JvmFlags.unsafeAccess(jdkFeature));
        args.add("-Dloopbench.requireUnsafe=true");
        if (sideFiles != null) {
            args.add("-D" + EndToEndMetrics.SIDE_FILE_PROPERTY + "=" + sideFiles);
        }
        return args;
    }

    /** JMH's options plus {@link #forkJvmArgs} and the run's id for every fork. */
    static Options options(CommandLineOptions cmd, int jdkFeature, Path sideFiles, String run) {
        List<String> prepend = forkJvmArgs(jdkFeature, sideFiles);
        prepend.addAll(ForkIdentity.of(run).properties());
        if (cmd.getJvmArgsPrepend().hasValue()) {
            prepend.addAll(cmd.getJvmArgsPrepend().get());
        }
        return new OptionsBuilder().parent(cmd).jvmArgsPrepend(prepend.toArray(new String[0])).build();
    }
}
