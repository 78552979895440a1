package loopbench.load;

import com.google.gson.JsonObject;
import io.netty.handler.codec.http.HttpResponseStatus;
import loopbench.echo.EchoConfig;
import loopbench.echo.EchoServer;
import loopbench.server.LoopbackServer;
import loopbench.testing.CountingHttpServer;
import loopbench.testing.RawHttp;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The load generator counts exactly, keeps an open loop's schedule, corrects for coordinated omission, counts every
 * kind of error and backs off from a target that refuses; behaviour only: counts, bytes and statuses, never a rate
 * or a latency (those are measured by the benchmarks).
 */
class LoadGeneratorTest {
    private static final Duration LONG = Duration.ofSeconds(60);

    @AfterEach
    void noThreadLeft() {
        Rig.assertNoThreads("load");
    }

    private static LoadSpec http(String url) {
        return LoadSpec.closedLoop(Target.parse(url));
    }

    private static LoadResult run(LoadSpec spec) throws InterruptedException {
        return LoadGenerator.start(spec).awaitResult();
    }

    @Test
    void closedLoopSendsAndCountsExactlyTheRequestsAsked() throws Exception {
        try (CountingHttpServer server = CountingHttpServer.start(100)) {
            LoadResult r = run(http(server.url()).withConnections(8).withPipeline(3).withRequests(500)
                    .withDuration(LONG));
            assertEquals(500, r.requests());
            assertEquals(500, r.sent());
            assertEquals(500, server.served(), "the server served exactly what the generator counted");
            assertEquals(0, r.errorsTotal());
            assertEquals(0, r.exitCode());
            assertEquals(500, r.corrected().getTotalCount());
            assertEquals(500, r.uncorrected().getTotalCount());
            assertTrue(r.bytesRead() >= 500L * (100 + "HTTP/1.1 200 OK\r\n".length()), "bytes read: " + r.bytesRead());
            assertEquals(500L * HttpRequests.encode(r.spec()).length, r.bytesWritten());
        }
    }

    @Test
    void warmupRequestsAreSentButNotRecorded() throws Exception {
        try (CountingHttpServer server = CountingHttpServer.start(10)) {
            LoadResult r = run(http(server.url()).withConnections(4).withWarmup(Duration.ofMillis(300))
                    .withRequests(200).withDuration(LONG));
            assertEquals(200, r.requests());
            assertTrue(r.warmupRequests() > 0, "the warm-up sent requests");
            assertEquals(200 + r.warmupRequests(), server.served());
            assertEquals(200, r.corrected().getTotalCount(), "only measured requests are in the histograms");
        }
    }

    @Test
    void openLoopSendsItsWholeScheduleNoneSkipped() throws Exception {
        try (CountingHttpServer server = CountingHttpServer.start(10)) {
            // 5 connections at 100 req/s each: every connection's schedule has exactly 200 intended starts in 2 s,
            // whenever the requests actually go out.
            LoadResult r = run(http(server.url()).withConnections(5).withRate(500.0)
                    .withDuration(Duration.ofSeconds(2)));
            assertEquals(1000, r.requests(), "rate x duration requests, none skipped");
            assertEquals(1000, r.sent());
            assertEquals(1000, server.served());
            assertEquals(0, r.errorsTotal());
            assertFalse(r.perSecond().isEmpty());
            assertEquals(r.requests(), r.perSecond().stream().mapToLong(PerSecond::requests).sum(),
                    "the per-second series adds up to the total");
        }
    }

    @Test
    void anOpenLoopBoundedByRequestsAdmitsExactlyThatMany() throws Exception {
        try (CountingHttpServer server = CountingHttpServer.start(10)) {
            LoadResult r = run(http(server.url()).withConnections(4).withRate(2000.0).withRequests(300)
                    .withDuration(LONG));
            assertEquals(300, r.sent(), "the rate limiter admitted the requests asked, no more");
            assertEquals(300, r.requests());
            assertEquals(300, server.served());
            assertEquals(300, r.corrected().getTotalCount());
            assertEquals(0, r.errorsTotal());
        }
    }

    @Test
    void correctedLatencyCountsEveryRequestDueDuringAStallUncorrectedOnlyThoseInFlight() throws Exception {
        // 1,000 req/s over 10 connections for 4 s; after 500 requests the target's only event loop sleeps for 1 s.
        // About 1,000 requests were due during the sleep, and the requests due in its first half cannot have
        // completed less than half a second after their intended start: about 500 requests, counted in the corrected
        // view. From its send, a request waited through the sleep only if it was in flight when it began, at most
        // one per connection (the others were sent after it, when the target answered at once).
        int connections = 10;
        try (CountingHttpServer server = CountingHttpServer.stallingOnce(500, 1000)) {
            LoadResult r = run(http(server.url()).withConnections(connections).withRate(1000.0)
                    .withDuration(Duration.ofSeconds(4)));
            assertEquals(4000, r.requests(), "the requests due during the stall were still sent");
            assertEquals(4000, server.served());
            long correctedHalf = atLeast(r.corrected(), 500_000);
            long uncorrectedWhole = atLeast(r.uncorrected(), 1_000_000);
            assertTrue(correctedHalf >= 400, correctedHalf + " requests waited half the stall from their intended "
                    + "start; about 500 were due in its first half\n" + r.summary());
            assertTrue(uncorrectedWhole <= connections, uncorrectedWhole + " requests waited the whole stall from "
                    + "their send; at most one per connection was in flight when it began\n" + r.summary());
            assertTrue(r.uncorrected().getMaxValue() <= r.corrected().getMaxValue());
        }
    }

    /** Requests recorded at {@code micros} or more. */
    private static long atLeast(org.HdrHistogram.Histogram h, long micros) {
        return h.getTotalCount() == 0 || h.getMaxValue() < micros ? 0
                : h.getCountBetweenValues(micros, h.getMaxValue());
    }

    @Test
    void refusedConnectionsAreConnectErrors() throws Exception {
        try (TestBackend.RefusingPort port = TestBackend.refusingPort()) {
            LoadResult r = run(http("http://127.0.0.1:" + port.port() + "/").withConnections(2)
                    .withDuration(Duration.ofMillis(500)));
            assertTrue(r.errors(ErrorKind.CONNECT) >= 2, "connect errors: " + r.errors(ErrorKind.CONNECT));
            assertEquals(0, r.requests());
            assertEquals(1, r.exitCode());
            assertTrue(r.summary().contains("connect"), r.summary());
        }
    }

    @Test
    void aRefusingTargetIsRetriedOnTheBackOffSchedule() throws Exception {
        // Each connection retries after 10 ms, 20 ms, 40 ms, ... at most 1 s: 7 attempts in the first second, 8 by
        // 1.27 s. Without the back-off, a refused connect is retried at once: thousands of attempts per second.
        int connections = 2;
        try (TestBackend.RefusingPort port = TestBackend.refusingPort()) {
            LoadResult r = run(http("http://127.0.0.1:" + port.port() + "/").withConnections(connections)
                    .withDuration(Duration.ofSeconds(1)));
            long attempts = r.errors(ErrorKind.CONNECT);
            // The bound follows the run's own length (a loaded machine ends it late, and can only retry less often),
            // plus the attempt each connection may have had under way when the run ended.
            long allowed = connections * (attemptsWithin(Math.round(r.durationSeconds() * 1000)) + 1);
            assertTrue(attempts >= connections, "every connection tried: " + attempts);
            assertTrue(attempts <= allowed, attempts + " connect attempts in " + r.durationSeconds() + " s; the "
                    + "back-off allows " + allowed);
            assertEquals(attempts, r.errorsTotal(), r.summary());
        }
    }

    /** Connect attempts one connection makes in {@code millis} against a port that refuses, by the back-off. */
    static int attemptsWithin(long millis) {
        int attempts = 1;
        for (long t = Connection.reconnectDelayMillis(1); t <= millis; t += Connection.reconnectDelayMillis(attempts)) {
            attempts++;
        }
        return attempts;
    }

    @Test
    void non2xxStatusIsAnErrorAndNeverThroughput() throws Exception {
        try (CountingHttpServer server = CountingHttpServer.answering(HttpResponseStatus.INTERNAL_SERVER_ERROR)) {
            LoadResult r = run(http(server.url()).withConnections(2).withRequests(50).withDuration(LONG));
            assertEquals(50, r.errors(ErrorKind.STATUS));
            assertEquals(0, r.requests());
            assertEquals(50, server.served());
            assertEquals(1, r.exitCode());
        }
    }

    @Test
    void aResponseThatNeverComesIsATimeout() throws Exception {
        try (TestBackend backend = TestBackend.start((s, i) -> s.getInputStream().readAllBytes())) {
            LoadResult r = run(http(url(backend)).withConnections(2).withTimeout(Duration.ofMillis(200))
                    .withDuration(Duration.ofMillis(600)));
            assertTrue(r.errors(ErrorKind.TIMEOUT) >= 2, "timeouts: " + r.errors(ErrorKind.TIMEOUT));
            assertEquals(0, r.requests());
        }
    }

    @Test
    void aCloseWithARequestOutstandingIsCounted() throws Exception {
        try (TestBackend backend = TestBackend.start((s, i) -> RawHttp.readRequest(s.getInputStream()))) {
            LoadResult r = run(http(url(backend)).withConnections(2).withDuration(Duration.ofMillis(300)));
            assertTrue(r.errors(ErrorKind.CLOSED) >= 2, r.summary());
            assertEquals(0, r.requests());
        }
    }

    @Test
    void aResetIsCounted() throws Exception {
        try (TestBackend backend = TestBackend.start((s, i) -> {
            RawHttp.readRequest(s.getInputStream());
            s.setSoLinger(true, 0); // close with RST
        })) {
            LoadResult r = run(http(url(backend)).withConnections(2).withDuration(Duration.ofMillis(300)));
            assertTrue(r.errors(ErrorKind.RESET) >= 2, r.summary());
            assertEquals(0, r.requests());
        }
    }

    @Test
    void aBodyCutShortIsCounted() throws Exception {
        try (TestBackend backend = TestBackend.start((s, i) -> {
            RawHttp.readRequest(s.getInputStream());
            s.getOutputStream().write(RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n0123456789"));
            s.getOutputStream().flush();
        })) {
            LoadResult r = run(http(url(backend)).withConnections(2).withDuration(Duration.ofMillis(300)));
            assertTrue(r.errors(ErrorKind.SHORT) >= 2, r.summary());
            assertEquals(0, r.requests());
        }
    }

    @Test
    void garbageIsAProtocolError() throws Exception {
        try (TestBackend backend = TestBackend.start((s, i) -> {
            RawHttp.readRequest(s.getInputStream());
            s.getOutputStream().write(RawHttp.ascii("SMTP ready\r\n\r\n"));
            s.getOutputStream().flush();
            s.getInputStream().readAllBytes();
        })) {
            LoadResult r = run(http(url(backend)).withConnections(2).withDuration(Duration.ofMillis(300)));
            assertTrue(r.errors(ErrorKind.PROTOCOL) >= 2, r.summary());
            assertEquals(0, r.requests());
        }
    }

    @Test
    void echoedBytesThatDifferAreCorrupt() throws Exception {
        try (TestBackend backend = TestBackend.start((s, i) -> {
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] b = RawHttp.readExactly(in, 100);
            b[50] ^= 1;
            out.write(b);
            out.flush();
            in.readAllBytes();
        })) {
            LoadResult r = run(LoadSpec.closedLoop(Target.parse("tcp://127.0.0.1:" + backend.port()))
                    .withMessageSize(100).withConnections(2).withDuration(Duration.ofMillis(300)));
            assertTrue(r.errors(ErrorKind.CORRUPT) >= 2, r.summary());
            assertEquals(0, r.requests());
        }
    }

    /** Every response framing a server may use, written one byte per packet so that every line is split. */
    @ParameterizedTest
    @ValueSource(strings = {
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n1A\r\n"
                    + "abcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: y\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc",
            "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n",
            "HTTP/1.1 200 OK\r\ncontent-LENGTH:  7 \r\nX-Other: a:b\r\n\r\nsixteen",
            "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive, close\r\n\r\nok",
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nthe body runs to the close",
    })
    void everyFramingIsFollowedEvenOneByteAtATime(String response) throws Exception {
        String lower = response.toLowerCase(java.util.Locale.ROOT);
        boolean closes = lower.contains("close") || !lower.contains("length") && !lower.contains("chunked");
        try (TestBackend backend = TestBackend.start((s, i) -> {
            s.setTcpNoDelay(true);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                RawHttp.readRequest(in);
                for (byte b : response.getBytes(StandardCharsets.US_ASCII)) {
                    out.write(b);
                    out.flush();
                }
                if (closes) {
                    return; // the socket closes when the handler returns
                }
            }
        })) {
            LoadResult r = run(http(url(backend)).withConnections(2).withRequests(20).withDuration(LONG));
            assertEquals(20, r.requests(), r.summary());
            assertEquals(0, r.errorsTotal(), r.summary());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 1000, 100_000})
    void echoMessagesComeBackWholeAndAreCounted(int size) throws Exception {
        try (LoopbackServer echo = EchoServer.start(Rig.options(), EchoConfig.defaults())) {
            LoadResult r = run(LoadSpec.closedLoop(Target.parse("tcp://" + LoopbackServer.hostPort(echo.address())))
                    .withMessageSize(size).withConnections(3).withPipeline(2).withRequests(60).withDuration(LONG));
            assertEquals(60, r.requests(), r.summary());
            assertEquals(0, r.errorsTotal());
            assertEquals(60L * size, r.bytesRead());
            assertEquals(60L * size, r.bytesWritten());
        }
    }

    @Test
    void postBodiesReachTheServer() throws Exception {
        try (CountingHttpServer server = CountingHttpServer.start(10)) {
            LoadResult r = run(http(server.url()).withPost(5000).withConnections(2).withRequests(20)
                    .withDuration(LONG));
            assertEquals(20, r.requests());
            assertEquals(20L * 5000, server.postBodyBytes());
            assertTrue(r.bytesRead() >= 20L * 5000, "the echoed bodies came back: " + r.bytesRead());
        }
    }

    @Test
    void closingARunningGeneratorStopsEverything() throws Exception {
        try (CountingHttpServer server = CountingHttpServer.start(10)) {
            LoadGenerator g = LoadGenerator.start(http(server.url()).withConnections(4)
                    .withDuration(Duration.ofHours(1)));
            assertTrue(g.awaitConnected(Duration.ofSeconds(30)));
            while (g.successes() < 100 && !g.hasEnded()) {
                Thread.sleep(10);
            }
            assertTrue(g.successes() >= 100, "requests completed: " + g.successes());
            g.close();
            assertTrue(g.hasEnded());
            assertEquals(0, g.connectionsUp());
        }
    }

    @Test
    void theJsonHasTheDocumentedFields() throws Exception {
        try (CountingHttpServer server = CountingHttpServer.start(10)) {
            LoadResult r = run(http(server.url()).withConnections(2).withRate(200.0)
                    .withDuration(Duration.ofMillis(1500)));
            JsonObject o = r.toJson();
            for (String key : List.of("target", "mode", "connections", "pipeline", "connectionClose", "rate",
                    "durationSeconds", "requests", "connectionsOpened", "requestsPerSecond", "bytesRead", "errors",
                    "latencyMicros", "perSecond", "warmup", "generator", "latencyDistribution")) {
                assertTrue(o.has(key), "missing " + key + " in " + o);
            }
            assertEquals("open", o.get("mode").getAsString());
            assertEquals(200.0, o.get("rate").getAsDouble());
            assertTrue(o.getAsJsonObject("errors").has("total"));
            JsonObject corrected = o.getAsJsonObject("latencyMicros").getAsJsonObject("corrected");
            for (String p : List.of("p50", "p90", "p99", "p99.9", "max")) {
                assertTrue(corrected.has(p), "missing " + p);
            }
            JsonObject s = o.getAsJsonArray("perSecond").get(0).getAsJsonObject();
            for (String key : List.of("second", "requests", "errors", "p99Micros")) {
                assertTrue(s.has(key), "missing perSecond." + key);
            }
            assertTrue(o.getAsJsonObject("generator").has("cpuMicrosPerRequest"));
            assertTrue(o.getAsJsonObject("generator").has("saturated"));
            assertTrue(o.getAsJsonObject("warmup").has("seconds"));
        }
    }

    private static String url(TestBackend backend) {
        return "http://127.0.0.1:" + backend.port() + "/";
    }
}
