package loopbench.testing;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The CLI ({@code loopbench.cli.Main}) in a child JVM on the test classpath, as {@code java -jar target/loopbench.jar}
 * would run it (the jar is only built after the tests). Its stdout is collected line by line, its stderr as text;
 * every wait is bounded.
 */
public final class CliProcess implements AutoCloseable {
    private static final long WAIT_SECONDS = 60;

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> allLines = new ArrayList<>();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private final Thread outReader;
    private final Thread errReader;

    private CliProcess(List<String> command) throws IOException {
        process = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        process.getOutputStream().close();
        outReader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (allLines) {
                        allLines.add(line);
                    }
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // process gone
            }
        }, "cli-stdout");
        errReader = new Thread(() -> {
            try (InputStream in = process.getErrorStream()) {
                byte[] buf = new byte[8192];
                int n;
                while ((n = in.read(buf)) > 0) {
                    synchronized (stderr) {
                        stderr.write(buf, 0, n);
                    }
                }
            } catch (IOException ignored) {
                // process gone
            }
        }, "cli-stderr");
        outReader.setDaemon(true);
        errReader.setDaemon(true);
        outReader.start();
        errReader.start();
    }

    /** Starts {@code java -cp <test classpath> loopbench.cli.Main args...} with the running JVM's java. */
    public static CliProcess start(String... args) throws IOException {
        return start(List.of(), args);
    }

    /** As {@link #start(String...)}, the command run by {@code prefix} (e.g. {@code setpriv ...}). */
    public static CliProcess start(List<String> prefix, String... args) throws IOException {
        List<String> command = new ArrayList<>(prefix);
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx256m");
        command.add("-XX:TieredStopAtLevel=1");
        command.add("-cp");
        command.add(System.getProperty("java.class.path"));
        command.add("loopbench.cli.Main");
        command.addAll(List.of(args));
        return new CliProcess(command);
    }

    /** The next stdout line, or null if none came within the wait (or the process ended without one). */
    public String nextLine() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (System.nanoTime() < deadline) {
            String line = lines.poll(100, TimeUnit.MILLISECONDS);
            if (line != null) {
                return line;
            }
            if (!process.isAlive() && !outReader.isAlive()) {
                return lines.poll();
            }
        }
        return null;
    }

    public long pid() {
        return process.pid();
    }

    /**
     * SIGTERM, sent with kill(1): {@link Process#destroy()} sends SIGTERM too, but also closes the pipes, and the
     * test must still read what the process prints while it shuts down.
     */
    public void sigterm() throws IOException, InterruptedException {
        kill("-TERM");
    }

    /**
     * Whether this JVM was started with SIGINT ignored, as everything started in the background by a
     * non-interactive shell is (`cmd &`, `nohup cmd &` in a script). A child inherits that, and the JVM then
     * rightly installs no handler for it: SIGINT cannot stop the child, by the convention that keeps Ctrl-C away
     * from background jobs. Read from the SigIgn mask in /proc/self/status (SIGINT is signal 2: bit 1).
     */
    public static boolean sigintIgnoredHere() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & (1L << 1)) != 0;
            }
        }
        throw new IOException("no SigIgn line in /proc/self/status");
    }

    /** SIGINT, as Ctrl-C would send. */
    public void sigint() throws IOException, InterruptedException {
        kill("-INT");
    }

    private void kill(String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start();
        if (!kill.waitFor(WAIT_SECONDS, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new IOException("kill " + signal + " " + process.pid() + " failed");
        }
    }

    /** Waits for the exit (bounded) and returns the exit code; -1 if it did not exit in time. */
    public int waitForExit() throws InterruptedException {
        if (!process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)) {
            return -1;
        }
        outReader.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        errReader.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        return process.exitValue();
    }

    /** Every stdout line so far. */
    public List<String> stdoutLines() {
        synchronized (allLines) {
            return new ArrayList<>(allLines);
        }
    }

    public String stderr() {
        synchronized (stderr) {
            return stderr.toString(StandardCharsets.UTF_8);
        }
    }

    /** Runs the CLI to completion (for commands that exit by themselves) and returns it, exited. */
    public static CliProcess run(String... args) throws IOException, InterruptedException {
        CliProcess p = start(args);
        p.waitForExit();
        return p;
    }

    public int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** Kills the process if a failed test left it running. */
    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
            try {
                process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public String toString() {
        return "CLI pid " + process.pid() + " stdout=" + stdoutLines() + " stderr=\n" + stderr();
    }
}
