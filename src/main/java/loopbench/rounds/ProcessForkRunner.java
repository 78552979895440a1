package loopbench.rounds;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs fork commands as child processes, one at a time. The JMH child starts a JVM of its own (the fork), so
 * stopping a child means stopping its descendants too: on an interrupt of the waiting thread, and from a shutdown
 * hook when the running JVM is told to stop (Ctrl-C, SIGTERM of a CI job), the whole tree is destroyed, so no
 * benchmark JVM outlives the run.
 */
public final class ProcessForkRunner implements ForkRunner, AutoCloseable {
    private static final long STOP_SECONDS = 10;
    private final Thread hook = new Thread(this::stopCurrent, "loopbench-fork-reaper");
    private volatile Process current;

    public ProcessForkRunner() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    @Override
    public int run(List<String> command, Path log) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        Process p = pb.start();
        current = p;
        try {
            p.getOutputStream().close();
            return p.waitFor();
        } finally {
            if (p.isAlive()) {
                stop(p);
            }
            current = null;
        }
    }

    private void stopCurrent() {
        Process p = current;
        if (p != null) {
            stop(p);
        }
    }

    /** The descendants first (the JMH fork), then the child; forcibly after a grace period. */
    static void stop(Process p) {
        List<ProcessHandle> tree = p.descendants().toList();
        tree.forEach(ProcessHandle::destroy);
        p.destroy();
        try {
            if (!p.waitFor(STOP_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
    }

    @Override
    public void close() {
        stopCurrent();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // already shutting down: the hook is running or has run
        }
    }
}
