package loopbench.bench;

import loopbench.knobs.Allocator;
import loopbench.knobs.Transport;
import loopbench.load.LoadGenerator;
import loopbench.load.LoadResult;
import loopbench.load.LoadSpec;
import loopbench.load.Target;
import loopbench.metrics.MemoryReport;
import loopbench.process.MeasuredProcess;
import loopbench.report.EndToEndMetrics;
import loopbench.topology.Role;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What does each allocator hold in memory, in the L7 proxy and in the echo server under load, and what does it give
 * back after a burst of large bodies? (claim N-1; netty/netty#15691, #15767, #17107: direct memory of Netty 4.2's
 * adaptive allocator far above the pooled allocator's, out-of-memory errors after the upgrade)
 *
 * <p>Speed is what {@code AllocatorBenchmark} measures; this is the other half: memory held. Every iteration each
 * server reports, as it reads it itself ({@link loopbench.metrics.MemoryReport}, asked outside the measured time):
 * direct memory its allocator reserves (chunks, whether buffers use them or not) and what live buffers use of it
 * (pooled and unpooled; the adaptive allocator's API has no such figure), Netty's direct-memory counter, its resident
 * set size and its heap after the last collection; per process ({@code e2e.ROLE.mem.FIGURE}) and per client
 * connection ({@code ...perConnection}).
 *
 * <p>{@code phase}:
 * <ul>
 *   <li>{@code steady}: a closed loop of {@code connections} connections, GET answers (proxy) or echo messages of
 *       {@code bodySize} bytes: memory under full load;</li>
 *   <li>{@code after-burst}: first a burst of {@value #BURST_BODY}-byte bodies ({@code burstSeconds}, a closed loop on
 *       at most {@value #BURST_CONNECTIONS} connections: POSTs echoed by the origin through the proxy, or echo
 *       messages), its figures read at its end ({@code e2e.ROLE.mem.burstEnd.FIGURE}); then light load
 *       ({@value #LIGHT_RATE} requests/s in total, an open loop over {@code connections} connections, bodies of
 *       {@code bodySize}) for {@code settleSeconds}, and the iterations measure under that same light load: what the
 *       allocator kept of the burst.</li>
 * </ul>
 *
 * <p>What to expect, from the threads: the pooled allocator keeps every chunk it ever needed (its chunks are released
 * only when a whole chunk empties, rarely under load); the adaptive allocator sizes its chunks to what it sees and
 * may hold more than pooled after large bodies (the reports); unpooled holds only live buffers, but the process's
 * resident size need not shrink when they are freed. The allocator's own figures say what Netty holds; RSS says what
 * the machine pays; the two differ by the heap, code, thread stacks and whatever malloc keeps.
 *
 * <p>The proxy is the L7 proxy (aggregating: a request and a response are each whole in memory once), limit
 * {@value #MAX_CONTENT_LENGTH} bytes so that the burst fits; the origin and the echo server run on {@code transport}.
 * Every output names the Netty the servers ran (the side file's {@code stack} and {@code memory}).
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar MemoryEndToEndBenchmark -p server=proxy -p connections=64
 * -p bodySize=1024 -p phase=steady -prof loopbench.bench.EndToEndProfiler}; the memory table is
 * {@code profiles/memory.jmh} and {@code loopbench memory}.
 */
public class MemoryEndToEndBenchmark extends AbstractEndToEndBenchmark {
    static final int BURST_BODY = 1 << 20;
    static final int BURST_CONNECTIONS = 64;
    static final double LIGHT_RATE = 100;
    static final int MAX_CONTENT_LENGTH = 2 << 20;

    /** proxy: the L7 proxy in front of an origin; echo: the Netty echo server. */
    @Param({"proxy", "echo"})
    public String server;

    /** The proxy's or the echo server's allocator (direct buffers). */
    @Param({"pooled", "adaptive", "unpooled"})
    public String allocator;

    @Param({"64", "1000"})
    public int connections;

    /** Bytes of every GET answer (proxy) or echo message. */
    @Param({"1024", "65536"})
    public int bodySize;

    /** steady: under full load; after-burst: under light load, after a burst of 1 MiB bodies. */
    @Param({"steady", "after-burst"})
    public String phase;

    @Param({"5"})
    public int burstSeconds;

    @Param({"30"})
    public int settleSeconds;

    @Param({"nio"})
    public String transport;

    /** The proxy's or the echo server's event loops. */
    @Param({"2"})
    public int ioThreads;

    @Override
    protected List<Role> components() {
        return proxy() ? List.of(Role.PROXY, Role.CLIENT, Role.ORIGIN) : List.of(Role.ECHO, Role.CLIENT);
    }

    private boolean proxy() {
        return switch (server) {
            case "proxy" -> true;
            case "echo" -> false;
            default -> throw new IllegalArgumentException("server '" + server + "' is not valid; valid: proxy, echo");
        };
    }

    @Override
    protected void start(EndToEndTrial trial) throws Exception {
        boolean burst = switch (phase) {
            case "steady" -> false;
            case "after-burst" -> true;
            default -> throw new IllegalArgumentException("phase '" + phase + "' is not valid; valid: steady, "
                    + "after-burst");
        };
        if (burstSeconds < 1 || settleSeconds < 0) {
            throw new IllegalArgumentException("burstSeconds must be >= 1 and settleSeconds >= 0, were " + burstSeconds
                    + " and " + settleSeconds);
        }
        Allocator.parse(allocator);
        Transport.parse(transport).ensureAvailable();
        Target target = startServers(trial);
        if (burst) {
            burst(trial, target);
            trial.startLoad(load(target, connections, false).withRate(LIGHT_RATE));
            Thread.sleep(settleSeconds * 1000L);
        } else {
            trial.startLoad(load(target, connections, false));
        }
    }

    private Target startServers(EndToEndTrial trial) {
        List<String> common = List.of("--transport", transport, "--allocator", allocator, "--buffers", "direct",
                "--io-threads", Integer.toString(ioThreads));
        if (!proxy()) {
            MeasuredProcess echo = trial.startServer(EndToEndMetrics.ECHO, "echo", common);
            trial.messageBytes(bodySize);
            return Target.parse("tcp://" + echo.hostPort());
        }
        MeasuredProcess origin = trial.startServer(EndToEndMetrics.ORIGIN, "origin", List.of("--body-size",
                Integer.toString(bodySize), "--transport", transport, "--io-threads", "1"));
        List<String> args = new ArrayList<>(List.of("--backend", origin.hostPort(), "--layer", "7",
                "--thread-model", "reuse-server-thread", "--max-content-length", Integer.toString(MAX_CONTENT_LENGTH),
                "--l7-mode", "aggregate", "--backend-pool", "per-client"));
        args.addAll(common);
        MeasuredProcess proxy = trial.startServer(EndToEndMetrics.PROXY, "proxy", args);
        return Target.parse("http://" + proxy.hostPort() + "/");
    }

    /**
     * Bodies of {@code bodySize} (GET answers, echo messages), or with {@code large} the burst's: POSTs of
     * {@value #BURST_BODY} bytes the origin echoes, echo messages of that size.
     */
    private LoadSpec load(Target target, int n, boolean large) {
        LoadSpec spec = onClientLoops(LoadSpec.closedLoop(target)).withConnections(n)
                .withDuration(large ? Duration.ofSeconds(burstSeconds) : Duration.ofHours(1)); // a bound
        if (!proxy()) {
            return spec.withMessageSize(large ? BURST_BODY : bodySize);
        }
        return large ? spec.withPost(BURST_BODY) : spec;
    }

    /** The burst, to its end; then each server's figures at that moment, added to every iteration's. */
    private void burst(EndToEndTrial trial, Target target) throws InterruptedException {
        LoadResult r;
        try (LoadGenerator g = LoadGenerator.start(load(target, Math.min(connections, BURST_CONNECTIONS), true))) {
            r = g.awaitResult();
        }
        if (r.errorsTotal() > 0 || r.requests() == 0) {
            throw new IllegalStateException("the burst of " + BURST_BODY + "-byte bodies failed: " + r.summary()
                    + trial.serverLogs());
        }
        Map<String, Double> atBurstEnd = new LinkedHashMap<>();
        for (Role role : components()) {
            MeasuredProcess p = trial.component(role.cliName());
            MemoryReport m = p == null ? null : p.memory();
            if (m != null) {
                m.figures().forEach((figure, bytes) -> atBurstEnd.put(
                        EndToEndMetrics.memoryAtBurstEnd(role.cliName(), figure), (double) bytes));
            }
        }
        trial.addFigures(new EndToEndTrial.IterationFigures() {
            @Override
            public void iterationStarted() {
            }

            @Override
            public Map<String, Double> iterationEnded() {
                return atBurstEnd;
            }
        });
    }

    /** One completed request (GET through the proxy) or one echoed message. */
    @Benchmark
    public long requests() {
        return trial.nextCompleted();
    }
}
