package loopbench.bench;

import loopbench.line.NettyLine;
import loopbench.metrics.MemoryReport;
import loopbench.process.ServerProcess;
import loopbench.report.EndToEndMetrics;
import loopbench.topology.Placement;
import org.junit.jupiter.api.AfterEach;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.options.TimeValue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each end-to-end benchmark does the work its name says: the requests its method takes were really answered by
 * the origin (or echoed by the echo server), through the proxy where there is one, configured as its parameters
 * say; its per-iteration figures are there; and no server process outlives the trial, also when setup fails.
 */
class EndToEndBenchmarkTest {
    private static final IterationParams MEASUREMENT = new IterationParams(IterationType.MEASUREMENT, 1,
            TimeValue.seconds(1), 1);
    private static final Pattern ANSWERED = Pattern.compile("origin answered (\\d+) requests");

    @AfterEach
    void noServerLeft() {
        assertEquals(List.of(), ServerProcess.live(), "every server process was stopped");
    }

    /** Runs one iteration of {@code n} operations, then stops the trial; returns the iteration's figures. */
    private static Map<String, Double> oneIteration(AbstractEndToEndBenchmark b, Map<String, String> params, int n,
                                                    Runnable op) throws Exception {
        b.startTrial(EndToEndTrial.begin(b.getClass().getName() + ".op", params));
        b.iterationStarted(MEASUREMENT);
        for (int i = 0; i < n; i++) {
            op.run();
        }
        b.iterationEnded();
        return b.trial.lastIterationMetrics();
    }

    private static long answered(ServerProcess origin) {
        Matcher m = ANSWERED.matcher(origin.stderr());
        assertTrue(m.find(), () -> "the origin says how many requests it answered:\n" + origin.stderr());
        return Long.parseLong(m.group(1));
    }

    @ParameterizedTest(name = "layer {0}, {1}, {2}, rate {3}, {4}, {5}")
    @CsvSource({
            "direct, reuse-server-thread, nio, 0, per-client, keep-alive",
            "4, reuse-server-thread, epoll, 0, per-client, keep-alive",
            "4, individual-group, nio, 0, per-client, keep-alive",
            "7, reuse-server-thread, nio, 0, per-client, keep-alive",
            "7, reuse-server-group, io_uring, 0, per-client, keep-alive",
            "7, individual-group, epoll, 0, per-client, keep-alive",
            "7, reuse-server-thread, nio, 400, per-client, keep-alive",
            "7, reuse-server-thread, epoll, 0, per-loop, keep-alive",
            "direct, reuse-server-thread, nio, 0, per-client, close",
            "7, reuse-server-thread, nio, 0, per-client, close",
    })
    void proxyBenchmarkRequestsGoThroughTheProxyToTheOrigin(String layer, String threadModel, String transport,
                                                            double rate, String backendPool, String connection)
            throws Exception {
        ProxyEndToEndBenchmark b = new ProxyEndToEndBenchmark();
        b.connection = connection;
        b.rate = rate;
        b.layer = layer;
        b.threadModel = threadModel;
        b.transport = transport;
        b.allocator = "pooled";
        b.connections = 8;
        b.bodySize = 1000;
        b.maxContentLength = 8388608;
        b.l7Mode = rate > 0 ? "stream" : "aggregate";
        b.backendPool = backendPool;
        b.ioThreads = 2;
        b.originIoThreads = 1;
        b.clientTransport = "epoll";
        b.clientIoThreads = 1;
        Map<String, Double> m;
        ServerProcess origin;
        ServerProcess proxy;
        long counted;
        try {
            m = oneIteration(b, Map.of("layer", layer, "transport", transport), 500, b::requests);
            origin = b.trial.server(EndToEndMetrics.ORIGIN);
            proxy = b.trial.server(EndToEndMetrics.PROXY);
            if (proxy != null) {
                String cmd = String.join(" ", proxy.command());
                assertTrue(cmd.contains("--layer " + layer) && cmd.contains("--thread-model " + threadModel)
                        && cmd.contains("--transport " + transport) && cmd.contains("--allocator pooled")
                        && cmd.contains("--l7-mode " + b.l7Mode), cmd);
                assertEquals("7".equals(layer), cmd.contains("--backend-pool " + backendPool), cmd);
                assertTrue(proxy.stderr().contains("transport=" + transport), proxy.stderr());
                assertTrue(proxy.io().bytesRead() >= 500L * 1000, "the responses went through the proxy");
            }
        } finally {
            b.stopTrial();
            counted = b.trial.generator() == null ? -1 : b.trial.generator().successes(); // after the drain
        }
        long opened = b.trial.generator().snapshot().connectionsOpened();
        if ("close".equals(connection)) {
            // one connection per request; requests still connecting when the run stopped opened one too
            assertTrue(opened >= counted && opened <= counted + b.connections, opened + " connections for " + counted);
        } else {
            assertEquals(b.connections, opened, "keep-alive: each connection opened once");
        }
        assertEquals("direct".equals(layer), proxy == null);
        assertTrue(counted >= 500, "the benchmark took 500 completed requests, the generator counted " + counted);
        assertEquals(counted, answered(origin), "the origin answered exactly what the generator counted");
        assertEquals(0.0, m.get(EndToEndMetrics.ERRORS));
        int requestBytes = ("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + (proxy == null ? origin : proxy).address().getPort()
                + "\r\n" + ("close".equals(connection) ? "Connection: close\r\n" : "") + "\r\n").length();
        assertEquals(requestBytes, m.get(EndToEndMetrics.BYTES_REQUEST_FRONT), 1e-9, "the request, per request");
        assertTrue(m.get(EndToEndMetrics.BYTES_RESPONSE_FRONT) > 1000, "1000-byte bodies plus headers");
        for (String role : proxy == null ? List.of("client", "origin") : List.of("client", "proxy", "origin")) {
            assertTrue(m.get(EndToEndMetrics.cpu(role)) > 0, role + " CPU per request: " + m);
            assertTrue(m.containsKey(EndToEndMetrics.contextSwitches(role)), role);
            // A server JVM fresh from its start compiles the code its first 500 requests run: the JIT's share is
            // seen. The client is this test JVM, warm from earlier tests: its compilers may well be idle.
            double jit = m.get(EndToEndMetrics.jit(role));
            assertTrue("client".equals(role) ? jit >= 0 : jit > 0, role + " JIT CPU per request: " + m);
        }
        assertTrue(m.get(EndToEndMetrics.LATENCY_P99) >= m.get(EndToEndMetrics.LATENCY_P50));
        for (String role : proxy == null ? List.of("origin") : List.of("proxy", "origin")) {
            double rss = m.get(EndToEndMetrics.memory(role, MemoryReport.RSS));
            assertTrue(rss > 0, role + " reports its memory: " + m);
            assertEquals(rss / b.connections, m.get(EndToEndMetrics.memoryPerConnection(role, MemoryReport.RSS)), 1e-6);
        }
        if (proxy != null) { // the proxy's pooled allocator: what it reserved and what live buffers use of it
            assertTrue(m.containsKey(EndToEndMetrics.memory("proxy", MemoryReport.ALLOCATOR_DIRECT_IN_USE)),
                    m::toString);
        }
        if ("7".equals(layer) && !"io_uring".equals(transport)) {
            assertTrue(m.get(EndToEndMetrics.BYTES_REQUEST_BACK) > m.get(EndToEndMetrics.BYTES_REQUEST_FRONT),
                    "the L7 proxy adds X-Forwarded-For on the way to the origin: " + m);
        }
        assertFalse(origin.isAlive());
    }

    @Test
    void blockingBenchmarkReportsThePredictedBound() throws Exception {
        BlockingWorkEndToEndBenchmark b = new BlockingWorkEndToEndBenchmark();
        b.workMs = 10;
        b.strategy = "block-event-loop";
        b.connections = 20;
        b.ioThreads = 2;
        b.executorThreads = 4;
        b.clientTransport = "nio";
        b.clientIoThreads = 1;
        Map<String, Double> m;
        long counted;
        ServerProcess origin;
        try {
            m = oneIteration(b, Map.of(), 40, b::requests);
            origin = b.trial.server(EndToEndMetrics.ORIGIN);
            String cmd = String.join(" ", origin.command());
            assertTrue(cmd.contains("--work-ms 10") && cmd.contains("--work-strategy block-event-loop"), cmd);
        } finally {
            b.stopTrial();
            counted = b.trial.generator().successes(); // after the drain
        }
        assertEquals(200.0, m.get(EndToEndMetrics.PREDICTED_BOUND), "2 event loops x 1000 / 10 ms");
        assertEquals(counted, answered(origin));
    }

    @Test
    void theBoundsFollowTheArticlesArgument() {
        assertEquals(200, BlockingWorkEndToEndBenchmark.predictedBound(loopbench.origin.WorkStrategy.BLOCK_EVENT_LOOP,
                10, 2, 4, 1000));
        assertEquals(400, BlockingWorkEndToEndBenchmark.predictedBound(loopbench.origin.WorkStrategy.PIPELINE_EXECUTOR,
                10, 2, 4, 1000));
        assertEquals(300, BlockingWorkEndToEndBenchmark.predictedBound(loopbench.origin.WorkStrategy.PIPELINE_EXECUTOR,
                10, 2, 4, 3));
        assertEquals(400, BlockingWorkEndToEndBenchmark.predictedBound(loopbench.origin.WorkStrategy.OFFLOAD_EXECUTOR,
                10, 2, 4, 1000));
        assertEquals(100_000,
                BlockingWorkEndToEndBenchmark.predictedBound(loopbench.origin.WorkStrategy.TIMER, 10, 2, 4, 1000));
        assertTrue(Double.isNaN(BlockingWorkEndToEndBenchmark.predictedBound(loopbench.origin.WorkStrategy.TIMER, 0, 2,
                4, 1000)));
    }

    @ParameterizedTest(name = "{0}, {1} bytes, executor {2}")
    @CsvSource({"netty, 1024, none", "netty, 102400, group", "mina, 5120, none", "mina, 1024, group"})
    void echoBenchmarkMessagesAreEchoedByTheEchoServer(String server, int size, String executor) throws Exception {
        EchoEndToEndBenchmark b = new EchoEndToEndBenchmark();
        b.server = server;
        b.messageSize = size;
        b.recvAllocator = "halving";
        b.allocator = "unpooled";
        b.buffers = "heap";
        b.executor = executor;
        b.connections = 4;
        b.ioThreads = 2;
        b.executorThreads = 2;
        b.clientTransport = "epoll";
        b.clientIoThreads = 1;
        Map<String, Double> m;
        try {
            m = oneIteration(b, Map.of(), 100, b::messages);
            ServerProcess echo = b.trial.server(EndToEndMetrics.ECHO);
            assertTrue(echo.io().bytesWritten() >= 100L * size, "the echo server wrote the messages back");
            String cmd = String.join(" ", echo.command());
            assertTrue(cmd.contains("--recv-allocator halving") && cmd.contains("--executor " + executor), cmd);
            assertEquals("mina".equals(server), cmd.contains("--server mina"), cmd);
        } finally {
            b.stopTrial();
        }
        assertEquals((double) size, m.get(EndToEndMetrics.BYTES_REQUEST_FRONT), 1e-9);
        // read bytes are counted when read: a message half-read at either end of the iteration moves the mean a little
        assertEquals((double) size, m.get(EndToEndMetrics.BYTES_RESPONSE_FRONT), 0.05 * size);
        assertTrue(m.get(EndToEndMetrics.ECHO_MIB_PER_SECOND) > 0);
        assertTrue(m.get(EndToEndMetrics.cpu(EndToEndMetrics.ECHO)) > 0);
    }

    @Test
    void aSetupThatFailsHalfWayStopsWhatItStarted() {
        ProxyEndToEndBenchmark b = proxyBenchmark("7", "nio");
        b.maxContentLength = -1; // the origin starts, then the proxy refuses this value (exit 2)
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> b.startTrial(EndToEndTrial.begin("ProxyEndToEndBenchmark.requests", Map.of())));
        assertTrue(e.getMessage().contains("max"), e.getMessage());
        ServerProcess origin = b.trial.server(EndToEndMetrics.ORIGIN);
        assertFalse(origin.isAlive(), "the origin started before the failure was stopped");
    }

    @Test
    void warmupBenchmarkLoadsAColdProxyAndKeepsItsPerSecondSeries(@TempDir Path dir) throws Exception {
        ProxyWarmupBenchmark b = new ProxyWarmupBenchmark();
        b.layer = "7";
        b.seconds = 2;
        b.connections = 4;
        b.bodySize = 100;
        b.transport = "nio";
        b.ioThreads = 1;
        b.originWarmupSeconds = 1;
        b.clientTransport = "nio";
        String old = System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, dir.toString());
        long served;
        Map<String, Double> m;
        try {
            b.warmOrigin(EndToEndTrial.begin("loopbench.bench.ProxyWarmupBenchmark.coldProxy", Map.of("layer", "7")));
            try {
                served = b.coldProxy();
                m = b.trial().lastIterationMetrics();
                assertTrue(b.trial().server(EndToEndMetrics.PROXY).isAlive(), "a proxy process served the run");
                b.stopProxy();
                assertFalse(b.trial().server(EndToEndMetrics.PROXY).isAlive());
            } finally {
                b.stop();
            }
        } finally {
            restore(old);
        }
        assertTrue(served > 0);
        // a cold proxy may answer nothing in 1 s
        assertTrue(m.get(EndToEndMetrics.WARMUP_FIRST_SECOND) >= 0, m::toString);
        assertEquals(0.0, m.get(EndToEndMetrics.WARMUP_ERRORS));
        assertTrue(m.get(EndToEndMetrics.cpu(EndToEndMetrics.PROXY)) > 0);
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            List<Path> side = files.toList();
            assertEquals(1, side.size(), side::toString);
            JsonObject o = JsonParser.parseString(Files.readString(side.get(0))).getAsJsonObject();
            assertEquals("loopbench.bench.ProxyWarmupBenchmark.coldProxy", o.get("benchmark").getAsString());
            assertEquals(served, o.getAsJsonObject("load").get("requests").getAsLong());
            com.google.gson.JsonArray perSecond = o.getAsJsonObject("load").getAsJsonArray("perSecond");
            assertTrue(perSecond.size() >= 2);
            long sum = 0;
            for (com.google.gson.JsonElement e : perSecond) {
                sum += e.getAsJsonObject().get("requests").getAsLong();
            }
            assertEquals(served, sum, "the per-second series holds every request of the run");
            JsonObject stack = o.getAsJsonObject("stack");
            for (String role : List.of(EndToEndMetrics.CLIENT, EndToEndMetrics.PROXY, EndToEndMetrics.ORIGIN)) {
                JsonObject s = stack.getAsJsonObject(role);
                assertEquals(NettyLine.current().version(), s.get("netty").getAsString(), role + ": " + stack);
                assertEquals("nio", s.get("transport").getAsString(), role + ": " + stack);
            }
        }
    }

    /**
     * Netty 4.1: {@code epollMode} reaches the proxy's and the origin's sockets (each server reads its listening
     * socket's mode back on its ready line, the side file keeps it), and requests go through.
     */
    @Test
    void epollModeParameterReachesTheProxyAndTheOrigin(@TempDir Path dir) throws Exception {
        assumeTrue(NettyLine.current().epollModeRefusal() == null, NettyLine.current()::epollModeRefusal);
        ProxyEndToEndBenchmark b = proxyBenchmark("4", "epoll");
        b.epollMode = "level/edge";
        String old = System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, dir.toString());
        try {
            oneIteration(b, Map.of("layer", "4", "transport", "epoll", "epollMode", b.epollMode), 200, b::requests);
            for (String role : List.of(EndToEndMetrics.PROXY, EndToEndMetrics.ORIGIN)) {
                ServerProcess p = b.trial.server(role);
                assertTrue(String.join(" ", p.command()).contains("--epoll-mode level,edge"), p::toString);
                assertEquals("level,edge", p.stack().get("epoll-mode"), role + ": " + p.stack());
            }
        } finally {
            b.stopTrial();
            restore(old);
        }
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            List<Path> side = files.toList();
            assertEquals(1, side.size(), side::toString);
            JsonObject stack = JsonParser.parseString(Files.readString(side.get(0))).getAsJsonObject()
                    .getAsJsonObject("stack");
            assertEquals("level,edge", stack.getAsJsonObject(EndToEndMetrics.PROXY).get("epoll-mode").getAsString());
            assertEquals("level,edge", stack.getAsJsonObject(EndToEndMetrics.ORIGIN).get("epoll-mode").getAsString());
        }
    }

    /** A value this line or transport cannot have fails before any process starts, saying why. */
    @Test
    void epollModeParameterIsCheckedFirst() {
        ProxyEndToEndBenchmark b = proxyBenchmark("direct", "nio");
        b.epollMode = "edge";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.startTrial(EndToEndTrial.begin("ProxyEndToEndBenchmark.requests", Map.of())));
        assertTrue(e.getMessage().contains(NettyLine.current().epollModeRefusal() == null ? "needs --transport epoll"
                : "level-triggered only"), e.getMessage());
        assertEquals(null, b.trial.server(EndToEndMetrics.ORIGIN), "no server was started");
        b.epollMode = "edgy";
        e = assertThrows(IllegalArgumentException.class,
                () -> b.startTrial(EndToEndTrial.begin("ProxyEndToEndBenchmark.requests", Map.of())));
        assertTrue(e.getMessage().contains("'edgy'") && e.getMessage().contains("edge, level"), e.getMessage());
    }

    private static ProxyEndToEndBenchmark proxyBenchmark(String layer, String transport) {
        ProxyEndToEndBenchmark b = SmallBenchmarks.proxy(layer, Placement.PINNED);
        b.transport = transport;
        return b;
    }

    private static void restore(String sideFileDir) {
        if (sideFileDir == null) {
            System.clearProperty(EndToEndMetrics.SIDE_FILE_PROPERTY);
        } else {
            System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, sideFileDir);
        }
    }

    @Test
    void secondsTo90IsTheFirstSecondNearTheSteadyRate() {
        List<loopbench.load.PerSecond> series = new java.util.ArrayList<>();
        double[] rates = {100, 400, 900, 950, 1000, 1000, 1000, 1000, 1000, 1000};
        for (int i = 0; i < rates.length; i++) {
            series.add(new loopbench.load.PerSecond(i + 1, 1.0, (long) rates[i], 0, 0, 0, 0));
        }
        assertEquals(3.0, ProxyWarmupBenchmark.secondsTo90(series));
        assertTrue(Double.isNaN(ProxyWarmupBenchmark.secondsTo90(series.subList(0, 4))), "too short to say");
    }
}
