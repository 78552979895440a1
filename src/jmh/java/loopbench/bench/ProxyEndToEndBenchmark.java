package loopbench.bench;

import loopbench.knobs.Allocator;
import loopbench.knobs.EpollModes;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.load.LoadSpec;
import loopbench.load.Target;
import loopbench.process.CommandTemplate;
import loopbench.process.MeasuredProcess;
import loopbench.proxy.BackendPool;
import loopbench.report.EndToEndMetrics;
import loopbench.topology.Role;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * What does a Netty proxy in the path cost end to end, at L4 and at L7, with each thread model, transport and
 * allocator? (claims C000-1 .. C000-6, C002-1, C004-1)
 *
 * <p>As in the article behind C000 (wrk, a Netty proxy and nginx on three machines), three processes: the load
 * generator (this JMH fork, a closed loop of {@code connections} keep-alive connections, one request in flight
 * each, like wrk), the proxy ({@code loopbench proxy}, its own JVM) and the origin ({@code loopbench origin}, its
 * own JVM, GET answers of {@code bodySize} bytes). {@code layer}: {@code direct} (the generator straight to the
 * origin), {@code 4} (bytes forwarded, HexDumpProxy style) or {@code 7} (HTTP decoded, aggregated, rewritten and
 * re-encoded on both sides). {@code threadModel}, {@code allocator}, {@code maxContentLength}, {@code l7Mode}
 * (aggregate or stream) and {@code backendPool} (per-client or per-loop) are the proxy's;
 * {@code transport} is the proxy's and the origin's (C004-1: NIO's selector, epoll, io_uring), and so is
 * {@code epollMode} (edge- or level-triggered epoll, Netty 4.1 only); the origin runs on
 * {@code originIoThreads}, the proxy on {@code ioThreads} event loops (per group: individual-group has two).
 *
 * <p>Score: requests per second, timed by JMH (with {@code rate} > 0: the rate achieved, an open loop whose
 * latency is the answer). With {@code -prof loopbench.bench.EndToEndProfiler}: per request,
 * CPU-µs and context switches of the client, the proxy and the origin, each from /proc of its own process
 * (C000-4, C000-5), bytes on each leg (C000-8), corrected latency percentiles.
 *
 * <p>{@code placement}: {@code pinned} (the default) gives the proxy CPUs of its own (on 2 CPUs: CPU 1) and keeps
 * the generator and the origin on the others, also with {@code direct}, whose proxy CPUs then stay idle: the
 * article's "same client and server hosts, with or without a proxy host between them". {@code shared} lets the
 * three processes compete for the same cores, so req/s is the pace of the whole box and every added process costs
 * throughput. Either way CPU-µs per request of the proxy is the steadier comparison. L4 costs little user time (its
 * cost is mostly the kernel's copy through one more socket pair); L7 adds HTTP decode/encode on both sides;
 * reuse-server-thread avoids the cross-thread hand-off that individual-group pays twice per request (more context
 * switches). What loopback cannot show: a NIC, its interrupts and a real network's latency, which on the article's 3
 * machines made the proxy hop cheap relative to the link.
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar ProxyEndToEndBenchmark -p layer=direct,4,7
 * -prof loopbench.bench.EndToEndProfiler}
 */
public class ProxyEndToEndBenchmark extends AbstractEndToEndBenchmark {
    static final String DEFAULT_EPOLL_MODE = "default";

    /** The command template of {@code layer=external}. */
    public static final String EXTERNAL_PROXY = EndToEndMetrics.EXTERNAL_PROXY_PROPERTY;
    static final String EXTERNAL = "external";
    static final List<String> LAYERS = List.of("direct", "4", "7", EXTERNAL);

    /**
     * direct: no proxy; 4: L4 proxy; 7: L7 proxy; external (asked for by name): the gateway that
     * {@code -Dloopbench.external.proxy='COMMAND'} starts (nginx, HAProxy, Zuul, your own: a command template with
     * {@code {listenPort}}, {@code {backendHost}}, {@code {backendPort}}), in front of the same origin, measured the
     * same way (its whole process tree's CPU and context switches). The proxy parameters (thread model, allocator,
     * ...) are loopbench's proxy's: the external gateway takes its own from its command; {@code transport} is still
     * the origin's.
     */
    @Param({"direct", "4", "7"})
    public String layer;

    @Param({"reuse-server-thread"})
    public String threadModel;

    /** The proxy's and the origin's transport. */
    @Param({"nio"})
    public String transport;

    /**
     * The proxy's and the origin's epoll mode (with {@code transport=epoll}, on Netty 4.1): {@code default} (the
     * line's: 4.1 edge, 4.2 level), or {@code LISTENING/ACCEPTED} as {@code --epoll-mode} takes it, a slash for its
     * comma (JMH splits parameter lists on commas): {@code edge/edge}, {@code edge/level}, ...; one value for both.
     */
    @Param({DEFAULT_EPOLL_MODE})
    public String epollMode = DEFAULT_EPOLL_MODE;

    /** The proxy's allocator. */
    @Param({"adaptive"})
    public String allocator;

    @Param({"64"})
    public int connections;

    /** Bytes of every GET response body. */
    @Param({"1024"})
    public int bodySize;

    /** The L7 proxy's aggregator limit. */
    @Param({"8388608"})
    public int maxContentLength;

    /** L7 only: aggregate each message before forwarding it (the article's design), or stream its pieces. */
    @Param({"aggregate"})
    public String l7Mode;

    /**
     * L7 only (ignored for direct and 4, as {@code l7Mode} is): a backend connection per client connection, or a
     * keep-alive pool per event loop shared by the client connections (nginx's upstream keepalive).
     */
    @Param({"per-client"})
    public String backendPool;

    /** The proxy's event loops per group (the seed's default: one per core). */
    @Param({"2"})
    public int ioThreads;

    @Param({"1"})
    public int originIoThreads;

    /**
     * 0: a closed loop (each connection sends its next request when the last one is answered, like wrk: the score
     * is the most the box can do). Above 0: an open loop at this many requests/s in total, latency measured from
     * each request's intended start (corrected for coordinated omission, as wrk2 does): latency at a fixed load,
     * for comparing latency distributions (C002-3) below saturation.
     */
    @Param({"0"})
    public double rate;

    /**
     * keep-alive: each connection carries request after request (wrk, ab -k). close: a new connection per request
     * (ab without -k, webbench: C002-1..3, C004-1), its connect time counted in the request's latency.
     */
    @Param({"keep-alive"})
    public String connection = "keep-alive";

    /**
     * The proxy gets CPUs of its own, also with layer=direct (they stay idle: the client and the origin keep theirs).
     */
    @Override
    protected List<Role> components() {
        return List.of(Role.PROXY, Role.CLIENT, Role.ORIGIN);
    }

    @Override
    protected void start(EndToEndTrial trial) throws Exception {
        if (!LAYERS.contains(layer)) {
            throw new IllegalArgumentException("layer must be one of " + String.join(", ", LAYERS) + ", was " + layer);
        }
        CommandTemplate external = EXTERNAL.equals(layer) ? externalProxy() : null; // checked before anything starts
        Transport.parse(transport).ensureAvailable();
        ThreadModel.parse(threadModel);
        Allocator.parse(allocator);
        BackendPool.parse(backendPool);
        List<String> epoll = epollModeArgs(epollMode, Transport.parse(transport));
        List<String> originArgs = new ArrayList<>(List.of(
                "--body-size", Integer.toString(bodySize), "--transport", transport,
                "--io-threads", Integer.toString(originIoThreads)));
        originArgs.addAll(epoll);
        MeasuredProcess origin = trial.startServer(EndToEndMetrics.ORIGIN, "origin", originArgs);
        MeasuredProcess target = origin;
        if (EXTERNAL.equals(layer)) {
            target = trial.startExternal(EndToEndMetrics.PROXY, external, origin);
        } else if (!"direct".equals(layer)) {
            List<String> args = new ArrayList<>(List.of(
                    "--backend", origin.hostPort(), "--layer", layer, "--thread-model", threadModel,
                    "--transport", transport, "--allocator", allocator, "--io-threads", Integer.toString(ioThreads),
                    "--max-content-length", Integer.toString(maxContentLength), "--l7-mode", l7Mode));
            args.addAll(epoll);
            if ("7".equals(layer)) {
                args.addAll(List.of("--backend-pool", backendPool)); // L4 has no pool (the proxy refuses per-loop)
            }
            target = trial.startServer(EndToEndMetrics.PROXY, "proxy", args);
        }
        trial.startLoad(loadSpec(target.hostPort()));
    }

    /**
     * {@code --epoll-mode} for an {@code epollMode} parameter (none for the default), checked before any process
     * starts.
     */
    static List<String> epollModeArgs(String epollMode, Transport transport) {
        if (DEFAULT_EPOLL_MODE.equals(epollMode)) {
            return List.of();
        }
        EpollModes modes = EpollModes.parse(epollMode.replace('/', ','));
        modes.requireSupportedBy(transport);
        return List.of("--epoll-mode", modes.cliName());
    }

    /** The gateway of {@code layer=external}: {@code -D}{@value #EXTERNAL_PROXY}, a command template. */
    static CommandTemplate externalProxy() {
        return CommandTemplate.fromProperty(EXTERNAL_PROXY, "layer=external");
    }

    LoadSpec loadSpec(String hostPort) {
        if (rate < 0) {
            throw new IllegalArgumentException("rate must be >= 0 (0 = closed loop), was " + rate);
        }
        boolean close = connectionClose(connection);
        return onClientLoops(LoadSpec.closedLoop(Target.parse("http://" + hostPort + "/"))
                .withRate(rate > 0 ? rate : null)
                .withConnections(connections)
                .withConnectionClose(close)
                .withDuration(Duration.ofHours(1))); // a bound; the trial ends it long before
    }

    /** Whether a {@code connection} parameter asks for a new connection per request, checked. */
    static boolean connectionClose(String connection) {
        return switch (connection) {
            case "keep-alive" -> false;
            case "close" -> true;
            default -> throw new IllegalArgumentException("connection '" + connection
                    + "' is not valid; valid: keep-alive, close");
        };
    }

    /** One completed request (through the proxy, or direct). */
    @Benchmark
    public long requests() {
        return trial.nextCompleted();
    }
}
