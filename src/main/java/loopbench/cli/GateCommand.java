package loopbench.cli;

import loopbench.gate.Gate;
import loopbench.gate.GateSettings;
import loopbench.rounds.ProcessForkRunner;
import loopbench.report.Comparison;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "gate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"CI gate: runs a baseline and a candidate benchmarks.jar in randomized interleaved rounds "
                + "(each round, every profile line runs one fork of each side, back to back, the lines in random "
                + "order, each side first in half the rounds) and "
                + "judges every benchmark from its forks: candidate/baseline ratio of fork means with a 95%% interval "
                + "(paired t on log ratios), for the score and, separately, bytes per operation (gc.alloc.rate.norm), "
                + "CPU per operation (cpu.ns/op) and, end to end, the server's own CPU per request (the proxy's, else "
                + "the origin's or the echo server's); Holm's correction over all of them; a regression only when the "
                + "interval lies beyond the threshold (throughput is better higher, times and bytes lower, read from "
                + "the JMH mode). The servers' memory figures are shown with their intervals, not judged.",
                "Prints progress and a table; writes a Markdown summary and JSON, and every fork's raw JSON and log "
                        + "under --out (rewritten after every round: a killed gate keeps what it measured).",
                "Exit: 0 pass, 1 regression, 2 bad usage, a side that failed to run, or an incomplete gate (less "
                        + "judged than the profile asks; see --allow-partial)."},
        footer = {"", "Each fork: JVM -jar SIDE.jar <profile line> -f 1 -rf json -rff FILE, with the side's JVM args "
                + "given to the fork by -jvmArgsPrepend (before the benchmark's own @Fork args; Netty's Unsafe flags "
                + "for the side's JDK first).",
                "Example (JDK upgrade): gate --baseline target/benchmarks.jar --candidate target/benchmarks.jar "
                        + "--baseline-jvm /usr/lib/jvm/java-17-openjdk-amd64/bin/java "
                        + "--candidate-jvm /usr/lib/jvm/temurin-25-jdk-amd64/bin/java"})
final class GateCommand implements Callable<Integer> {

    @Option(names = "--baseline", required = true, paramLabel = "JAR", description = "The accepted benchmarks.jar.")
    Path baseline;

    @Option(names = "--candidate", required = true, paramLabel = "JAR", description = "The benchmarks.jar under test.")
    Path candidate;

    @Option(names = "--profile", paramLabel = "FILE", defaultValue = "profiles/gate.jmh",
            description = "The runs: one JMH command line per line ([jdk>=N] guards, # comments). Default: "
                    + "${DEFAULT-VALUE}.")
    Path profile;

    @Option(names = "--rounds", paramLabel = "R", defaultValue = "" + GateSettings.DEFAULT_ROUNDS,
            description = "Rounds (forks per side per benchmark), >= 2. Default: ${DEFAULT-VALUE}.")
    int rounds;

    @Option(names = "--baseline-jvm", paramLabel = "PATH", description = "java executable of the baseline side. "
            + "Default: the JVM running this command.")
    Path baselineJvm;

    @Option(names = "--candidate-jvm", paramLabel = "PATH", description = "java executable of the candidate side. "
            + "Default: the JVM running this command.")
    Path candidateJvm;

    @Option(names = "--baseline-jvm-args", paramLabel = "\"ARGS\"",
            description = "JVM arguments for every baseline fork.")
    String baselineJvmArgs;

    @Option(names = "--candidate-jvm-args", paramLabel = "\"ARGS\"",
            description = "JVM arguments for every candidate fork (e.g. a flag under test).")
    String candidateJvmArgs;

    @Option(names = "--baseline-unsafe", paramLabel = "on|off", defaultValue = "on",
            description = "Netty's sun.misc.Unsafe path in the baseline forks (checked in each). Default: "
                    + "${DEFAULT-VALUE}.")
    String baselineUnsafe;

    @Option(names = "--candidate-unsafe", paramLabel = "on|off", defaultValue = "on",
            description = "The same for the candidate. Default: ${DEFAULT-VALUE}.")
    String candidateUnsafe;

    @Option(names = "--threshold", paramLabel = "PERCENT", defaultValue = Comparison.GATE_DEFAULT_THRESHOLD,
            description = "How much worse the score may get before it can fail. Default: ${DEFAULT-VALUE}.")
    double threshold;

    @Option(names = "--alloc-threshold", paramLabel = "PERCENT", defaultValue = Comparison.DEFAULT_ALLOC_THRESHOLD,
            description = "The same for bytes per operation (gc.alloc.rate.norm). Default: ${DEFAULT-VALUE}.")
    double allocThreshold;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/gate",
            description = "Where forks/ (every fork's JSON and log) and the reports go. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Option(names = "--summary", paramLabel = "FILE.md", description = "The Markdown summary. Default: DIR/summary.md.")
    Path summary;

    @Option(names = "--json", paramLabel = "FILE", description = "The JSON report. Default: DIR/gate.json.")
    Path json;

    @Option(names = "--seed", paramLabel = "N",
            description = "Seed of the random order (to replay one). Default: random.")
    Long seed;

    @Option(names = "--ignore-lock", description = "Do not take JMH's machine-wide lock (/tmp/jmh.lock): only for a "
            + "functional check; figures are disturbed by any other JMH run.")
    boolean ignoreLock;

    @Option(names = "--allow-partial", description = "Pass a gate that judged less than its profile asks (a line that "
            + "selects nothing in one jar, a benchmark or parameter set in one jar only, a comparison without a "
            + "verdict), when that is intended. Without it such a gate is INCOMPLETE: exit 2.")
    boolean allowPartial;

    @Option(names = "--new-param", paramLabel = "NAME=VALUE", description = "A benchmark parameter one jar has and "
            + "the other lacks (added or removed since), with the value that does what the jar without it does: forks "
            + "run with NAME=VALUE are compared with the other jar's forks of the same benchmark without NAME. "
            + "Repeatable. Without it their rows are in one jar only (INCOMPLETE).")
    List<String> newParams;

    @Option(names = "--dry-run", description = "Print the schedule (which line and side runs when), then exit.")
    boolean dryRun;

    @Override
    public Integer call() throws IOException, InterruptedException {
        GateSettings settings = Cli.validated(() -> GateSettings.of(new GateSettings.Raw(baseline, candidate, profile,
                rounds, baselineJvm, candidateJvm, baselineJvmArgs, candidateJvmArgs, baselineUnsafe, candidateUnsafe,
                threshold, allocThreshold, out, summary, json, seed, ignoreLock, allowPartial),
                GateSettings.newParams(newParams)));
        if (dryRun) {
            System.out.print(Gate.describeSchedule(settings));
            return 0;
        }
        try (ProcessForkRunner runner = new ProcessForkRunner()) {
            return new Gate(settings, runner, System.err, System.out).run();
        }
    }
}
