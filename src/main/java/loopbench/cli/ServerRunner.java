package loopbench.cli;

import loopbench.server.LoopbackServer;
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

    static int serveUntilSignalled(Supplier<LoopbackServer> start, PrintStream out, PrintStream err) {
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), s -> stop.countDown());
        Signal.handle(new Signal("INT"), s -> stop.countDown());
        LoopbackServer server = start.get();
        try {
            err.println("loopbench: " + server);
            out.println("listening on " + LoopbackServer.hostPort(server.address()));
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
}
