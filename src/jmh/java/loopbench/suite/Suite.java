package loopbench.suite;

import loopbench.claims.ClaimCatalog;
import loopbench.claims.ClaimsReport;
import loopbench.claims.Machine;
import loopbench.flame.FlameEvent;
import loopbench.flame.FlameGraphs;
import loopbench.process.JvmFlags;
import loopbench.report.EndToEndMetrics;
import loopbench.profile.ProfileLine;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Runs a profile of the JMH suite: one JMH run per profile line, every result written to JMH's JSON and to
 * a Markdown table as soon as its benchmark finishes, so an interrupted run keeps everything it measured.
 * {@code ./mvnw -Pjmh verify} runs {@code profiles/default.jmh} through here.
 *
 * <p>Next to the results: {@code machine.json} (what JMH's JSON does not record: CPU, kernel, Netty, transports),
 * the end-to-end benchmarks' side files ({@code e2e/}), flame graphs with {@code --flame} ({@code flame/}), and with
 * {@code --claims DIR} the claims report, written at the end from whatever was measured.
 *
 * <p>{@code java -cp target/benchmarks.jar loopbench.suite.Suite [--profile FILE] [--out DIR] [--flame EVENT]
 * [--claims DIR] [-- JMH options]}
 */
@Command(name = "loopbench.suite.Suite", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Runs a profile of loopbench's JMH suite (one JMH run per line of the profile) and writes "
                + "DIR/results.json (JMH's JSON) and DIR/results.md (tables) after every benchmark.",
        footer = {"", "JMH options after -- are appended to every line of the profile, e.g. -- -f 2 -i 10.",
                "Profile lines: '<regex> <JMH options>'; '[jdk>=21] <line>' runs only on JDK 21+; # comments."})
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
            description = "At the end, write the claims report (report.md, report.html) from DIR/results.json into REPORT_DIR.")
    Path claims;

    @Option(names = "--dry-run", description = "Print the JMH runs the profile makes, then exit.")
    boolean dryRun;

    @Parameters(paramLabel = "JMH_OPTION", description = "Extra JMH options (after --), for every run.")
    List<String> jmhArgs = new ArrayList<>();

    private final PrintStream log = System.out;

    public static void main(String[] args) {
        CommandLine cmd = new CommandLine(new Suite());
        cmd.setExecutionExceptionHandler((e, command, parseResult) -> {
            command.getErr().println("loopbench suite: " + e.getMessage());
            return e instanceof IOException ? 2 : 1;
        });
        System.exit(cmd.execute(args));
    }

    @Override
    public Integer call() throws IOException {
        List<ProfileLine> lines = ProfileLine.read(profile);
        int feature = Runtime.version().feature();
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
        List<Options> runs = new ArrayList<>();
        List<String> titles = new ArrayList<>();
        for (ProfileLine line : lines) {
            if (!line.runsOn(feature)) {
                log.printf("skipped (needs JDK %d+, this JVM is %s): %s%n", line.minJdk(), Runtime.version(), line.text());
                continue;
            }
            List<String> args = new ArrayList<>(line.args());
            args.addAll(extra);
            args.addAll(jmhArgs);
            try {
                runs.add(options(new CommandLineOptions(args.toArray(new String[0])), feature, sideFiles));
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
        IncrementalResults results = new IncrementalResults(out.resolve("results.json"), out.resolve("results.md"));
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

    /** The claims report from what was measured; false (and why on stderr) if it could not be written. */
    private boolean writeClaimsReport(int resultCount) {
        if (resultCount == 0) {
            log.println("=== loopbench suite: no results, so no claims report");
            return true;
        }
        try {
            ClaimsReport.Written w = ClaimsReport.write(List.of(out.resolve("results.json")), claims, ClaimCatalog.all());
            log.printf("=== loopbench suite: claims report %s and %s (%s)%n", w.markdown(), w.html(), w.summary());
            return true;
        } catch (IOException | RuntimeException e) {
            System.err.println("claims report failed (the results are kept in " + out.resolve("results.json") + "): " + e);
            return false;
        }
    }

    /** The {@code -prof} value that takes a flame graph of every benchmark into {@code dir}. */
    static String flameProfiler(FlameEvent event, Path dir) {
        return "loopbench.bench.FlameProfiler:event=" + event.cliName() + ";dir=" + dir;
    }

    /**
     * JMH's options plus what loopbench's forks need on this JDK: on JDK 23+, Netty's Unsafe path is kept on
     * with {@code --sun-misc-unsafe-memory-access=allow} (JDK 25 turns it off otherwise), and every fork checks
     * that it really has Unsafe ({@code -Dloopbench.requireUnsafe=true}, see AbstractBenchmark). End-to-end
     * benchmarks write their side files (full latency distributions, per-second series) to {@code e2eDir}.
     */
    static Options options(CommandLineOptions cmd, int jdkFeature) {
        return options(cmd, jdkFeature, null);
    }

    /** As {@link #options(CommandLineOptions, int)}, and end-to-end forks leave their side files in {@code sideFiles}. */
    static Options options(CommandLineOptions cmd, int jdkFeature, Path sideFiles) {
        List<String> prepend = new ArrayList<>(JvmFlags.unsafeAccess(jdkFeature));
        prepend.add("-Dloopbench.requireUnsafe=true");
        if (sideFiles != null) {
            prepend.add("-D" + EndToEndMetrics.SIDE_FILE_PROPERTY + "=" + sideFiles);
        }
        if (cmd.getJvmArgsPrepend().hasValue()) {
            prepend.addAll(cmd.getJvmArgsPrepend().get());
        }
        return new OptionsBuilder().parent(cmd).jvmArgsPrepend(prepend.toArray(new String[0])).build();
    }
}
