package loopbench.cli;

import io.netty.util.ResourceLeakDetector;
import loopbench.knobs.EpollModes;
import loopbench.server.RunningServer;
import loopbench.server.ServerOptions;
import loopbench.load.Durations;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Supplier;

/** The options every server takes. */
final class ServerOptionsMixin {

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:0",
            description = "Address to listen on; port 0 picks a free port (printed on stdout). Default: "
                    + "${DEFAULT-VALUE}.")
    InetSocketAddress listen;

    @Mixin
    EventLoopOptions loops;

    @Mixin
    CpusOption cpus;

    @Option(names = "--epoll-mode", paramLabel = "MODE[,MODE]",
            description = "Epoll: edge- or level-triggered, the first for the listening socket, the second for "
                    + "accepted connections (one value: both). Needs --transport epoll and Netty 4.1 (4.2's epoll is "
                    + "level-triggered only). Default: the line's (4.1: edge; 4.2: level).")
    EpollModes epollModes;

    @Option(names = "--exit-with-parent",
            description = "Also stop when stdin reaches end-of-file: a parent process that started this server "
                    + "and holds its stdin (a benchmark, a test) died or let go, so the server cannot outlive it.")
    boolean exitWithParent;

    @Option(names = "--parent-heartbeat", paramLabel = "DURATION",
            description = "With --exit-with-parent: also stop when nothing at all arrives on stdin for this long. A "
                    + "parent on another machine (over SSH) sends a line every few seconds, so a link that drops "
                    + "without a reset, and goes silent, ends the server too. Default: off.")
    String parentHeartbeat;

    /** {@code --parent-heartbeat}, or null when off. */
    Duration parentHeartbeat() {
        return parentHeartbeat == null ? null : Durations.parse(parentHeartbeat);
    }

    @Option(names = "--leak-detection", paramLabel = "LEVEL",
            description = "Netty's buffer leak detection: disabled, simple, advanced, paranoid. Default: disabled, "
                    + "as the suite measures its servers (Netty's own default, simple, costs CPU on every request), "
                    + "unless the system property " + LeakDetection.PROPERTY + " says otherwise.")
    ResourceLeakDetector.Level leakDetection;

    /** Sets Netty's leak detection as asked (see --leak-detection) and says which on stderr. */
    private void applyLeakDetection() {
        LeakDetection.apply(leakDetection, System.err);
    }

    /**
     * The end of every server command: leak detection as asked, then serve what {@code start} starts until a
     * signal, or until the parent lets go (--exit-with-parent, --parent-heartbeat).
     */
    int serve(Supplier<? extends RunningServer> start) {
        Duration heartbeat = Cli.validated(this::parentHeartbeat); // a bad value is a usage error (exit 2)
        applyLeakDetection();
        return ServerRunner.serveUntilSignalled(start, System.out, System.err, exitWithParent, heartbeat);
    }

    ServerOptions toServerOptions() {
        return new ServerOptions(listen, loops.transport, loops.allocator, loops.buffers, loops.ioThreads(),
                epollModes);
    }
}
