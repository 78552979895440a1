package loopbench.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs one of the system's tools (taskset, ip, tc) to its end and returns what it printed: the topology is set
 * up with the standard tools, not with hand-made system calls. Bounded: a tool that hangs is killed.
 */
final class SystemCommand {
    private static final long TIMEOUT_SECONDS = 30;

    private SystemCommand() {
    }

    /** What a command printed (stdout and stderr together) and its exit code. */
    record Result(List<String> command, int exitCode, String output) {
        boolean ok() {
            return exitCode == 0;
        }

        /** Throws, naming the command, its exit code and what it said, unless it exited 0. */
        Result orThrow() {
            if (!ok()) {
                throw new IllegalStateException("'" + String.join(" ", command) + "' failed (exit " + exitCode + "): "
                        + output.trim());
            }
            return this;
        }
    }

    /** Runs {@code command}; throws if it exits non-zero. */
    static String run(String... command) {
        return attempt(command).orThrow().output();
    }

    /** Runs {@code command}, whatever its exit code. */
    static Result attempt(String... command) {
        List<String> cmd = List.of(command);
        Path out;
        Process p;
        try {
            out = Files.createTempFile("loopbench-" + command[0] + "-", ".out");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary file: " + e.getMessage(), e);
        }
        try {
            try {
                p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            } catch (IOException e) {
                throw new IllegalStateException("cannot run '" + command[0] + "' (" + e.getMessage() + "): "
                        + installHint(command[0]), e);
            }
            try {
                p.getOutputStream().close();
                if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new IllegalStateException("'" + String.join(" ", cmd) + "' did not end within "
                            + TIMEOUT_SECONDS + " s");
                }
                return new Result(cmd, p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the output of '" + String.join(" ", cmd) + "': "
                        + e.getMessage(), e);
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while running '" + String.join(" ", cmd) + "'", e);
            }
        } finally {
            try {
                Files.deleteIfExists(out);
            } catch (IOException e) {
                // a temporary file left behind is harmless
            }
        }
    }

    private static String installHint(String tool) {
        switch (tool) {
            case "taskset":
                return "it comes with util-linux (apt-get install util-linux)";
            case "ip":
            case "tc":
                return "it comes with iproute2 (apt-get install iproute2)";
            default:
                return "is it installed and on the PATH?";
        }
    }
}
