package loopbench.cli;

import loopbench.metrics.ProcStatReport;
import loopbench.server.LoopbackServer;
import loopbench.server.RunningServer;
import sun.misc.Signal;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
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
     * another machine reads them so).
     */
    static int serveUntilSignalled(Supplier<? extends RunningServer> start, PrintStream out, PrintStream err,
                                   boolean exitWithParent) {
        CountDownLatch stop = stopOnSignal(exitWithParent);
        RunningServer server = start.get();
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
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        if (exitWithParent) {
            Thread watch = new Thread(() -> {
                try {
                    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                    String line;
                    while ((line = in.readLine()) != null) {
                        // A parent on another machine asks for this process's /proc counters; anything else is
                        // ignored: only the end of the stream matters.
                        if (ProcStatReport.REQUEST.equals(line.trim())) {
                            System.out.println(ProcStatReport.of(ProcessHandle.current().pid()));
                            System.out.flush();
                        }
                    }
                } catch (java.io.IOException e) {
                    // a broken pipe is an end too
                }
                stop.countDown();
            }, "loopbench-parent-watch");
            watch.setDaemon(true);
            watch.start();
        }
        return stop;
    }
}
