package loopbench.cli;

import loopbench.metrics.MemoryReport;
import loopbench.metrics.ProcStatReport;
import loopbench.server.LoopbackServer;
import loopbench.server.RunningServer;
import sun.misc.Signal;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Starts a server and runs it until SIGTERM or SIGINT, then shuts it down gracefully. Signals are caught
 * with {@code sun.misc.Signal} rather than a shutdown hook, so that a requested stop exits 0, not 143.
 */
final class ServerRunner {
    private ServerRunner() {
    }

    /**
     * With {@code exitWithParent}, also stops when stdin reaches end-of-file (the parent holding it is gone), and
     * answers each {@value ProcStatReport#REQUEST} line on stdin with its /proc counters on stdout (a parent on
     * another machine reads them so) and each {@value MemoryReport#REQUEST} line with the server's
     * {@link MemoryReport}.
     */
    static int serveUntilSignalled(Supplier<? extends RunningServer> start, PrintStream out, PrintStream err,
                                   boolean exitWithParent) {
        return serveUntilSignalled(start, out, err, exitWithParent, null);
    }

    /** As above; with {@code heartbeat}, also stops when stdin stays silent that long (see {@link #stopOnSignal}). */
    static int serveUntilSignalled(Supplier<? extends RunningServer> start, PrintStream out, PrintStream err,
                                   boolean exitWithParent, Duration heartbeat) {
        AtomicReference<RunningServer> running = new AtomicReference<>();
        CountDownLatch stop = stopOnSignal(exitWithParent, heartbeat, line -> answer(line, running.get(), out));
        RunningServer server = start.get();
        running.set(server);
        try {
            err.println("loopbench: " + server);
            out.println("listening on " + LoopbackServer.hostPort(server.address()) + " " + server.stack());
            out.flush();
            stop.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            err.println("loopbench: " + server.role() + " stopping");
            server.close();
        }
        err.println("loopbench: " + server.role() + " stopped");
        return 0;
    }

    /**
     * A latch that SIGTERM or SIGINT opens, and with {@code exitWithParent} also the end of stdin (the parent
     * holding it is gone).
     */
    static CountDownLatch stopOnSignal(boolean exitWithParent) {
        return stopOnSignal(exitWithParent, null);
    }

    /** A request from the parent: the memory report (once the server runs); anything else is not this one's. */
    private static void answer(String line, RunningServer server, PrintStream out) {
        if (server != null && MemoryReport.REQUEST.equals(line.trim())) {
            out.println(server.memory().line()); // println is one synchronized write: never inside another line
            out.flush();
        }
    }

    /** As {@link #stopOnSignal(boolean, Duration, Consumer)}, with no requests of the caller's own. */
    static CountDownLatch stopOnSignal(boolean exitWithParent, Duration heartbeat) {
        return stopOnSignal(exitWithParent, heartbeat, line -> { });
    }

    /**
     * As {@link #stopOnSignal(boolean)}, each stdin line also to {@code requests}; with {@code heartbeat} (and
     * {@code exitWithParent}), also opens when nothing
     * arrives on stdin for that long: a parent on another machine writes a line every few seconds, so a link that
     * drops without a reset (no end of file ever comes) still ends the server.
     */
    static CountDownLatch stopOnSignal(boolean exitWithParent, Duration heartbeat, Consumer<String> requests) {
        if (heartbeat != null && (!exitWithParent || heartbeat.isZero() || heartbeat.isNegative())) {
            throw new Cli.BadInput("--parent-heartbeat needs --exit-with-parent and a duration above 0, was "
                    + heartbeat);
        }
        CountDownLatch stop = new CountDownLatch(1);
        AtomicLong lastWord = new AtomicLong(System.nanoTime());
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        if (exitWithParent) {
            Thread watch = new Thread(() -> {
                try {
                    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                    String line;
                    while ((line = in.readLine()) != null) {
                        lastWord.set(System.nanoTime());
                        // A parent on another machine asks for this process's /proc counters; anything else is
                        // ignored: only the end of the stream matters.
                        if (ProcStatReport.REQUEST.equals(line.trim())) {
                            System.out.println(ProcStatReport.of(ProcessHandle.current().pid()));
                            System.out.flush();
                        }
                        requests.accept(line);
                    }
                } catch (java.io.IOException e) {
                    // a broken pipe is an end too
                }
                stop.countDown();
            }, "loopbench-parent-watch");
            watch.setDaemon(true);
            watch.start();
        }
        if (heartbeat != null) {
            Thread silence = new Thread(() -> {
                try {
                    while (!stop.await(Math.min(1000, heartbeat.toMillis()), TimeUnit.MILLISECONDS)) {
                        if (System.nanoTime() - lastWord.get() > heartbeat.toNanos()) {
                            System.err.println("loopbench: nothing from the parent for " + heartbeat.toMillis()
                                    + " ms: the link is gone, stopping");
                            stop.countDown();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "loopbench-parent-heartbeat");
            silence.setDaemon(true);
            silence.start();
        }
        return stop;
    }
}
