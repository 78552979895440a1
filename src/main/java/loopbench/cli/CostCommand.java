package loopbench.cli;

import loopbench.metrics.ProcStat;
import loopbench.metrics.TreeCost;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

@Command(name = "cost", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs COMMAND (a load generator's run, e.g. wrk) and measures what the process --pid and every "
                + "process descending from it cost meanwhile: CPU time, user and system, and context switches, with "
                + "the whole machine's busy CPU time beside it (less this JVM's own), read from /proc just before "
                + "COMMAND starts and just after it ends, as the end-to-end benchmarks read theirs "
                + "(loopbench.metrics.ProcStat). COMMAND's stdout and stderr pass through.",
                "Writes one line to --out (default: stderr): cost pid=PID seconds=S cpuNanos=N userNanos=N "
                        + "systemNanos=N contextSwitches=N machineBusyNanos=N and, with --requests-from, requests=N "
                        + "cpuMicrosPerRequest=X userMicrosPerRequest=X systemMicrosPerRequest=X "
                        + "contextSwitchesPerRequest=X machineCpuMicrosPerRequest=X.",
                "Exit: COMMAND's exit code (no line if it failed); 1 if --requests-from finds no request count; "
                        + "2 on bad input. COMMAND is stopped if this is (SIGTERM, Ctrl-C).",
                "Example: loopbench cost --pid 4242 --requests-from '([0-9]+) requests in' --out cost.txt -- "
                        + "wrk -t1 -c64 -d10s http://127.0.0.1:8080/"})
final class CostCommand implements Callable<Integer> {
    private static final int KEPT_CHARS = 1 << 20;

    @Option(names = "--pid", paramLabel = "PID", required = true,
            description = "The process to measure, with every process descending from it (nginx: its master).")
    long pid;

    @Option(names = "--requests-from", paramLabel = "REGEX",
            description = "A regular expression whose first group, found in COMMAND's stdout, is the number of "
                    + "requests it completed (wrk: '([0-9]+) requests in'): the figures are then also per request.")
    String requestsFrom;

    @Option(names = "--out", paramLabel = "FILE", description = "Where the line goes. Default: stderr.")
    Path out;

    @Parameters(paramLabel = "COMMAND", arity = "1..*",
            description = "The command to run and its arguments, after '--' (e.g. -- wrk -t1 -c64 -d10s URL).")
    List<String> command;

    @Override
    public Integer call() throws Exception {
        Pattern requests = requestsPattern();
        if (!ProcStat.isAvailable()) {
            throw new IllegalStateException("cost reads Linux's /proc, which this system does not have");
        }
        TreeCost.Reading before;
        try {
            before = TreeCost.read(pid);
        } catch (IllegalStateException e) {
            throw new Cli.BadInput("--pid " + pid + ": no such process (" + e.getMessage() + ")");
        }
        Process process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.INHERIT)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Thread stopper = new Thread(() -> stop(process), "cost-stops-its-command");
        Runtime.getRuntime().addShutdownHook(stopper);
        String output;
        int exit;
        try {
            output = passThrough(process);
            exit = process.waitFor();
        } finally {
            stop(process);
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs (or ran) anyway
            }
        }
        TreeCost.Reading after;
        try {
            after = TreeCost.read(pid);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("process " + pid + " ended while " + command.get(0) + " ran ("
                    + e.getMessage() + "): no figures", e);
        }
        TreeCost cost = TreeCost.between(before, after);
        if (exit != 0) {
            System.err.println("cost: " + command.get(0) + " exited " + exit + "; no figures");
            return exit;
        }
        StringBuilder line = new StringBuilder("cost pid=" + pid + " seconds="
                + format(cost.wallNanos() / 1e9, 3) + " cpuNanos=" + cost.cpuNanos() + " userNanos=" + cost.userNanos()
                + " systemNanos=" + cost.systemNanos() + " contextSwitches=" + cost.contextSwitches()
                + " machineBusyNanos=" + cost.machineBusyNanos());
        if (requests != null) {
            long n = requestCount(requests, output);
            line.append(" requests=").append(n)
                    .append(" cpuMicrosPerRequest=").append(format(cost.cpuNanos() / 1e3 / n, 2))
                    .append(" userMicrosPerRequest=").append(format(cost.userNanos() / 1e3 / n, 2))
                    .append(" systemMicrosPerRequest=").append(format(cost.systemNanos() / 1e3 / n, 2))
                    .append(" contextSwitchesPerRequest=").append(format((double) cost.contextSwitches() / n, 3))
                    .append(" machineCpuMicrosPerRequest=").append(format(cost.machineBusyNanos() / 1e3 / n, 2));
        }
        if (out == null) {
            System.err.println(line);
        } else {
            Files.writeString(out, line + "\n");
        }
        return 0;
    }

    private Pattern requestsPattern() {
        if (requestsFrom == null) {
            return null;
        }
        Pattern p;
        try {
            p = Pattern.compile(requestsFrom);
        } catch (PatternSyntaxException e) {
            throw new Cli.BadInput("--requests-from '" + requestsFrom + "' is not a regular expression: "
                    + e.getDescription());
        }
        if (p.matcher("").groupCount() < 1) {
            throw new Cli.BadInput("--requests-from '" + requestsFrom + "' has no group: put the request count in "
                    + "one, e.g. '([0-9]+) requests in'");
        }
        return p;
    }

    private long requestCount(Pattern requests, String output) {
        Matcher m = requests.matcher(output);
        if (!m.find()) {
            throw new IllegalStateException("--requests-from '" + requestsFrom + "' matches nothing in "
                    + command.get(0) + "'s output");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1).trim());
        } catch (NumberFormatException e) {
            throw new IllegalStateException("--requests-from '" + requestsFrom + "' found '" + m.group(1)
                    + "', not a whole number of requests");
        }
        if (n <= 0) {
            throw new IllegalStateException(command.get(0) + " completed no request: nothing to divide by");
        }
        return n;
    }

    /** Copies the command's stdout to ours as it comes, and returns it (at most its last MiB or two). */
    private static String passThrough(Process process) throws IOException {
        StringBuilder kept = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String l = r.readLine(); l != null; l = r.readLine()) {
                System.out.println(l);
                System.out.flush();
                kept.append(l).append('\n');
                if (kept.length() > KEPT_CHARS * 2) {
                    kept.delete(0, kept.length() - KEPT_CHARS);
                }
            }
        }
        return kept.toString();
    }

    /** Nothing this started outlives it: SIGTERM to the command and its descendants, SIGKILL 5 s later. */
    private static void stop(Process process) {
        if (!process.isAlive()) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String format(double value, int decimals) {
        return String.format(Locale.ROOT, "%." + decimals + "f", value);
    }
}
