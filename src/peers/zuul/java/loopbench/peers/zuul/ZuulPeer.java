package loopbench.peers.zuul;

import com.netflix.config.ConfigurationManager;
import com.netflix.zuul.netty.server.NamedSocketAddress;
import com.netflix.zuul.netty.server.Server;
import sun.misc.Signal;

import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;

/**
 * Zuul 2 (zuul-core 2.6.9, Netty 4.1) as a gateway in front of one origin: the JVM gateway of the article behind
 * C002 ("Zuul vs nginx"), built as loopbench's peers are, so that the end-to-end benchmarks can measure it as an
 * external target beside loopbench's own proxy.
 *
 * <p>What it is: zuul-sample's HTTP server type (Zuul's own server pipeline, its filter chain and ProxyEndpoint,
 * its per-event-loop origin connection pool) with one inbound filter that sends every request to the origin named
 * on the command line ({@link StaticRoute}, {@link StaticServerList}), no Eureka (discovery off), no Groovy filter
 * loading, and the safety throttles off as zuul-sample's benchmark configuration turns them off
 * ({@code application-benchmark.properties}). Logging at WARN (no access log: nginx runs with {@code access_log off}).
 *
 * <p>It follows the CLI contract of loopbench's servers: {@code --listen HOST:PORT} (port 0: any free port),
 * {@code --backend HOST:PORT}, one line {@code listening on HOST:PORT} on stdout once it accepts, SIGTERM or SIGINT
 * stops it (exit 0), {@code --exit-with-parent} also stops it when stdin ends, bad usage exits 2 naming the valid
 * values. {@code --transport} picks Zuul's own choice of event loop (epoll, its default where available; nio;
 * io_uring through Netty's incubator transport), {@code --io-threads} its worker event loops (Zuul's default: one per
 * core) beside its one acceptor thread.
 */
public final class ZuulPeer {
    static final String VIP = "api"; // zuul-sample's route name, so that its benchmark properties apply as written

    private ZuulPeer() {
    }

    /** How long a requested stop may take before the peer halts. */
    private static final long GRACE_MILLIS = 5_000;

    public static void main(String[] args) throws Exception {
        PeerOptions options;
        try {
            options = PeerOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("zuul peer: " + e.getMessage());
            System.err.println(PeerOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options.help()) {
            System.out.println(PeerOptions.USAGE);
            return;
        }
        configure(options);
        CountDownLatch stop = new CountDownLatch(1);
        Signal.handle(new Signal("TERM"), s -> stopWithin(stop));
        Signal.handle(new Signal("INT"), s -> stopWithin(stop));
        if (options.exitWithParent()) {
            Thread watch = new Thread(() -> {
                try {
                    while (System.in.read() >= 0) {
                        // only the end of the stream matters: the parent holding it is gone
                    }
                } catch (java.io.IOException e) {
                    // a broken pipe is an end too
                }
                stopWithin(stop);
            }, "zuul-peer-parent-watch");
            watch.setDaemon(true);
            watch.start();
        }
        Server server;
        try {
            PeerStartup startup = PeerStartup.create(options.listen());
            startup.init();
            server = startup.server();
            server.start();
        } catch (Exception | Error e) {
            System.err.println("zuul peer: cannot start: " + e);
            e.printStackTrace();
            System.exit(1);
            return;
        }
        InetSocketAddress bound = boundAddress(server);
        System.err.println("zuul peer: Zuul 2 on " + bound + " -> " + options.backendHostPort() + ", transport "
                + Server.defaultOutboundChannelType.get().getSimpleName());
        System.out.println("listening on " + bound.getAddress().getHostAddress() + ":" + bound.getPort());
        System.out.flush();
        stop.await();
        System.err.println("zuul peer: stopping");
        server.stop();
        System.err.println("zuul peer: stopped");
        System.exit(0); // the shutdown hook Zuul registered finds the server stopped already
    }

    /**
     * Asks for a graceful stop, and halts the JVM if it has not ended {@link #GRACE_MILLIS} later: a stop that
     * arrives while Zuul is still starting, or a shutdown that waits on Zuul's own hooks, must not leave the peer
     * running after its run.
     */
    private static void stopWithin(CountDownLatch stop) {
        stop.countDown();
        Thread halt = new Thread(() -> {
            try {
                Thread.sleep(GRACE_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            System.err.println("zuul peer: not stopped after " + GRACE_MILLIS + " ms, halting");
            Runtime.getRuntime().halt(1);
        }, "zuul-peer-halt");
        halt.setDaemon(true);
        halt.start();
    }

    /** Zuul reads its settings through Archaius: set before anything reads them. */
    private static void configure(PeerOptions options) {
        var config = ConfigurationManager.getConfigInstance();
        // The one origin, without Eureka.
        config.setProperty(VIP + ".ribbon.listOfServers", options.backendHostPort());
        config.setProperty(VIP + ".ribbon.NIWSServerListClassName", StaticServerList.class.getName());
        // zuul-sample's benchmark configuration: the safety throttles off.
        config.setProperty(VIP + ".ribbon.MaxConnectionsPerHost", -1);
        config.setProperty(VIP + ".netty.client.maxRequestsPerConnection", 10000);
        config.setProperty(VIP + ".netty.client.perServerWaterline", -1);
        config.setProperty("zuul.origin." + VIP + ".concurrency.protect.enabled", false);
        // Transport and event loops.
        switch (options.transport()) {
            case "nio":
                config.setProperty("zuul.server.netty.socket.force_nio", true);
                break;
            case "io_uring":
                config.setProperty("zuul.server.netty.socket.force_io_uring", true);
                break;
            default: // epoll: Zuul's own default where the native library loads
                break;
        }
        if (options.ioThreads() > 0) {
            config.setProperty("zuul.server.netty.threads.worker", options.ioThreads());
        }
        // A stop closes the client connections within 2 s rather than Zuul's 30 s grace (0 races its own timer).
        config.setProperty("server.outofservice.close.timeout", 2);
    }

    private static InetSocketAddress boundAddress(Server server) {
        for (NamedSocketAddress a : server.getListeningAddresses()) {
            if (a.unwrap() instanceof InetSocketAddress) {
                return (InetSocketAddress) a.unwrap();
            }
        }
        throw new IllegalStateException("Zuul listens on no TCP address: " + server.getListeningAddresses());
    }
}
