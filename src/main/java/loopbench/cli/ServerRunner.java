package loopbench.cli;

import loopbench.server.LoopbackServer;
import loopbench.server.RunningServer;
import sun.misc.Signal;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * Starts a server and runs it until SIGTERM or SIGINT, then shuts it down gracefully. Signals are caught
 * with {@code sun.misc.Signal} rather than a shutdown hook, so that a requested stop exits 0, not 143.
 */
final class ServerRunner {
    private ServerRunner() {
    }

    /** With {@code exitWithParent}, also stops when stdin reaches end-of-file (the parent holding it is gone). */
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
                    while (System.in.read() >= 0) {
                        // whatever the parent writes is ignored; only the end of the stream matters
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
