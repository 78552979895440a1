package loopbench.topology;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import loopbench.load.LoadMerge;
import loopbench.process.ProcessLog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Load generators on several machines sharing the load: the same {@code loopbench load} command run at once on each
 * {@code client=} host of a hosts file (this machine: a child JVM; another: over SSH), each writing its JSON result to
 * stdout ({@code --json -}), merged into one ({@link LoadMerge}: histograms added, never percentiles averaged). Each
 * generator runs with {@code --exit-with-parent}: it ends when its stdin (this JVM's pipe, through ssh for a remote
 * one) ends, so none outlives the run; every one is bounded by its own {@code --duration} anyway.
 */
public final class LoadFleet {
    private LoadFleet() {
    }

    /** One generator's run: where, its process, its stdout, its log. */
    private record Run(String name, Process process, CompletableFuture<String> stdout, ProcessLog log) {
    }

    /**
     * Runs {@code load <loadArgs> --json - --exit-with-parent} on every client host at once and merges the results;
     * waits at most {@code bound} for all of them.
     */
    public static JsonObject run(HostsFile hosts, List<String> loadArgs, Duration bound) {
        List<String> args = new ArrayList<>(loadArgs);
        args.addAll(List.of("--json", "-", "--exit-with-parent"));
        List<Run> runs = new ArrayList<>();
        try {
            for (Optional<SshHost> h : hosts.clients()) {
                runs.add(h.isPresent()
                        ? start(h.get().toString(), h.get().ssh(hosts.jvm(h.get()).command("load", args)))
                        : start("local", local(args)));
            }
            List<String> names = new ArrayList<>();
            List<JsonObject> results = new ArrayList<>();
            long deadline = System.nanoTime() + bound.toNanos();
            for (Run r : runs) {
                names.add(r.name());
                results.add(result(r, deadline));
            }
            return LoadMerge.of(names, results);
        } finally {
            for (Run r : runs) {
                try {
                    r.process().getOutputStream().close(); // the generator's cue, if it still runs
                } catch (IOException e) {
                    // gone already
                }
                if (!waitFor(r.process(), 15)) {
                    r.process().destroyForcibly();
                }
            }
        }
    }

    private static List<String> local(List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "loopbench.cli.Main", "load"));
        cmd.addAll(args);
        return cmd;
    }

    private static Run start(String name, List<String> cmd) {
        ProcessLog log = ProcessLog.create("load-" + name.replaceAll("[^A-Za-z0-9.-]", "_"));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(log.file()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", cmd) + ": " + e.getMessage(), e);
        }
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        return new Run(name, p, out, log);
    }

    private static JsonObject result(Run r, long deadline) {
        String out;
        try {
            out = r.stdout().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (!r.process().waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the load generator on " + r.name() + " did not exit after its result");
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("the load generator on " + r.name() + " gave no result in time; its log:\n"
                    + r.log().tail(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot read the result of the load generator on " + r.name(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the load generators", e);
        }
        int code = r.process().exitValue();
        if (code != 0 && code != 1) { // 1: some requests failed, still a result
            throw new IllegalStateException("the load generator on " + r.name() + " exited " + code + ": "
                    + r.log().tail());
        }
        try {
            return JsonParser.parseString(out).getAsJsonObject();
        } catch (RuntimeException e) {
            throw new IllegalStateException("the load generator on " + r.name() + " wrote no JSON result: '" + out
                    + "'; its log:\n" + r.log().tail(), e);
        }
    }

    private static boolean waitFor(Process p, long seconds) {
        try {
            return p.waitFor(seconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
