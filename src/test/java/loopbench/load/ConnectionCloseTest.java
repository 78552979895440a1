package loopbench.load;

import loopbench.testing.CountingHttpServer;
import loopbench.testing.RawHttp;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A connection per request ({@code --connection-close}, ab without {@code -k}): the target accepts exactly one
 * connection per request, receives each request whole (with {@code Connection: close}) on a connection of its own,
 * and the generator closes each connection after reading the whole response, whether or not the target closes it.
 * Counts and bytes only.
 */
class ConnectionCloseTest {
    private static final Duration LONG = Duration.ofSeconds(60);
    private static final byte[] BODY = RawHttp.ascii("0123456789abcdef".repeat(4));
    private static final byte[] RESPONSE = RawHttp.concat(
            RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: " + BODY.length + "\r\n\r\n"), BODY);

    @AfterEach
    void noThreadLeft() {
        Rig.assertNoThreads("load");
    }

    /**
     * A target that, on each connection, reads one request of exactly the expected bytes, answers {@code response},
     * and then either waits for the client to close ({@code clientCloses}) or closes itself; and what it saw.
     */
    private static final class OneRequestTarget implements TestBackend.Handler {
        final AtomicInteger wholeRequests = new AtomicInteger();
        final AtomicInteger closedByClient = new AtomicInteger();
        private final byte[] response;
        private final boolean clientCloses;
        /** Set once the spec (and so the request) is known, before the run starts. */
        volatile byte[] expected;

        OneRequestTarget(byte[] response, boolean clientCloses) {
            this.response = response;
            this.clientCloses = clientCloses;
        }

        @Override
        public void serve(Socket s, int connectionIndex) throws Exception {
            request(s.getInputStream());
            s.getOutputStream().write(response);
            s.getOutputStream().flush();
            if (clientCloses) {
                clientClose(s);
            }
        }

        /** Reads one request of exactly the expected bytes; throws (a backend error) if anything differs. */
        private void request(InputStream in) throws IOException {
            byte[] got = RawHttp.readExactly(in, expected.length);
            if (!Arrays.equals(got, expected)) {
                throw new AssertionError("request bytes differ: " + new String(got, StandardCharsets.US_ASCII));
            }
            wholeRequests.incrementAndGet();
        }

        /** Waits for the client to close: nothing more may come on this connection. */
        private void clientClose(Socket s) throws IOException {
            int b = s.getInputStream().read();
            if (b != -1) {
                throw new AssertionError("a second request on a connection meant for one: byte " + b);
            }
            closedByClient.incrementAndGet();
        }

        void awaitClosed(int n) throws InterruptedException {
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (closedByClient.get() < n && System.nanoTime() - deadline < 0) {
                Thread.sleep(10);
            }
        }
    }

    private static LoadSpec perRequest(int port) {
        return LoadSpec.closedLoop(Target.parse("http://127.0.0.1:" + port + "/")).withConnectionClose(true);
    }

    @Test
    void aClosedLoopOpensOneConnectionPerRequestAndClosesItAfterTheResponse() throws Exception {
        // This target keeps the connection open: the generator must close it.
        OneRequestTarget seen = new OneRequestTarget(RESPONSE, true);
        try (TestBackend backend = TestBackend.start(seen)) {
            LoadSpec spec = perRequest(backend.port()).withConnections(3).withRequests(90).withDuration(LONG);
            seen.expected = HttpRequests.encode(spec);
            assertTrue(new String(seen.expected, StandardCharsets.US_ASCII).contains("\r\nConnection: close\r\n"));
            LoadResult r = LoadGenerator.start(spec).awaitResult();
            seen.awaitClosed(90);
            assertEquals(90, r.requests(), r.summary());
            assertEquals(0, r.errorsTotal(), r.summary());
            assertEquals(90, backend.accepted(), "one connection per request");
            assertEquals(90, r.connectionsOpened());
            assertEquals(90, seen.wholeRequests.get(), "every request came whole, alone on its connection");
            assertEquals(90, seen.closedByClient.get(), "the generator closed every connection after its response");
            assertEquals(90L * RESPONSE.length, r.bytesRead());
            assertEquals(90L * seen.expected.length, r.bytesWritten());
            backend.assertNoErrors();
        }
    }

    @Test
    void aTargetThatClosesAfterEachResponseIsNoError() throws Exception {
        // The response has no length: its body runs to the close, which ends the request.
        byte[] toClose = RawHttp.concat(RawHttp.ascii("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n"), BODY);
        OneRequestTarget seen = new OneRequestTarget(toClose, false);
        try (TestBackend backend = TestBackend.start(seen)) {
            LoadSpec spec = perRequest(backend.port()).withPost(100).withConnections(2).withRequests(40)
                    .withDuration(LONG);
            seen.expected = HttpRequests.encode(spec);
            LoadResult r = LoadGenerator.start(spec).awaitResult();
            assertEquals(40, r.requests(), r.summary());
            assertEquals(0, r.errorsTotal(), r.summary());
            assertEquals(40, backend.accepted());
            assertEquals(40, r.connectionsOpened());
            assertEquals(40, seen.wholeRequests.get());
            assertEquals(40L * toClose.length, r.bytesRead());
            backend.assertNoErrors();
        }
    }

    @Test
    void anOpenLoopOpensAConnectionForEveryRequestOfItsSchedule() throws Exception {
        OneRequestTarget seen = new OneRequestTarget(RESPONSE, true);
        try (TestBackend backend = TestBackend.start(seen)) {
            // 2 clients at 100 req/s each for 1 s: exactly 200 intended starts, each on a connection of its own.
            LoadSpec spec = perRequest(backend.port()).withConnections(2).withRate(200.0)
                    .withDuration(Duration.ofSeconds(1));
            seen.expected = HttpRequests.encode(spec);
            LoadResult r = LoadGenerator.start(spec).awaitResult();
            seen.awaitClosed(200);
            assertEquals(200, r.requests(), r.summary());
            assertEquals(200, r.sent());
            assertEquals(0, r.errorsTotal(), r.summary());
            assertEquals(200, backend.accepted());
            assertEquals(200, r.connectionsOpened());
            assertEquals(200, seen.closedByClient.get());
            backend.assertNoErrors();
        }
    }

    @Test
    void echoMessagesEachComeBackWholeOnAConnectionOfTheirOwn() throws Exception {
        int size = 1000;
        byte[] message = Payload.bytes(size);
        OneRequestTarget seen = new OneRequestTarget(message, true); // an echo of exactly one message
        seen.expected = message;
        try (TestBackend backend = TestBackend.start(seen)) {
            LoadSpec spec = LoadSpec.closedLoop(Target.parse("tcp://127.0.0.1:" + backend.port()))
                    .withMessageSize(size).withConnectionClose(true).withConnections(2).withRequests(30)
                    .withDuration(LONG);
            LoadResult r = LoadGenerator.start(spec).awaitResult();
            seen.awaitClosed(30);
            assertEquals(30, r.requests(), r.summary());
            assertEquals(0, r.errorsTotal(), r.summary());
            assertEquals(30, backend.accepted());
            assertEquals(30, seen.closedByClient.get());
            assertEquals(30L * size, r.bytesRead());
            assertEquals(30L * size, r.bytesWritten());
            backend.assertNoErrors();
        }
    }

    @Test
    void aRefusedConnectFailsItsRequestAndBacksOff() throws Exception {
        try (TestBackend.RefusingPort port = TestBackend.refusingPort()) {
            LoadResult r = LoadGenerator.start(perRequest(port.port()).withConnections(2)
                    .withDuration(Duration.ofMillis(500))).awaitResult();
            long failed = r.errors(ErrorKind.CONNECT);
            assertTrue(failed >= 2, "each client's request failed to connect: " + failed);
            long allowed = 2 * (LoadGeneratorTest.attemptsWithin(Math.round(r.durationSeconds() * 1000)) + 1);
            assertTrue(failed <= allowed, failed + " connect attempts in " + r.durationSeconds() + " s; the "
                    + "back-off allows " + allowed);
            assertEquals(failed, r.errorsTotal());
            assertEquals(0, r.connectionsOpened());
            assertEquals(1, r.exitCode());
        }
    }

    @Test
    void everyClientCountsAsConnectedFromItsFirstConnectUntilTheRunStops() throws Exception {
        // The end-to-end benchmarks wait for every connection before they measure; here, for every client.
        try (CountingHttpServer server = CountingHttpServer.start(10)) {
            LoadGenerator g = LoadGenerator.start(LoadSpec.closedLoop(Target.parse(server.url()))
                    .withConnectionClose(true).withConnections(3).withDuration(Duration.ofHours(1)));
            try {
                assertTrue(g.awaitConnected(Duration.ofSeconds(30)), "clients up: " + g.connectionsUp());
            } finally {
                g.close();
            }
            assertEquals(0, g.connectionsUp());
            assertTrue(g.hasEnded());
        }
    }

    @Test
    void aDrainEndsOnceTheRequestsSentHaveCompletedWhateverConnectsArePending() throws Exception {
        // The end-to-end benchmarks drain the generator after their last iteration. With a connection per request,
        // a request is taken when its connect starts; a connect that completes after the drain began sends nothing,
        // and its request must leave the count in flight, or the drain waits for a response that never comes.
        // 64 clients that spend much of their time connecting: a connect is often pending when the drain starts
        // (before the fix, the fifth of the first five drains tried here waited out its timeout).
        try (CountingHttpServer server = CountingHttpServer.start(10)) {
            for (int attempt = 0; attempt < 20; attempt++) {
                LoadGenerator g = LoadGenerator.start(LoadSpec.closedLoop(Target.parse(server.url()))
                        .withConnectionClose(true).withConnections(64).withDuration(Duration.ofHours(1)));
                assertTrue(g.awaitConnected(Duration.ofSeconds(30)), "clients up: " + g.connectionsUp());
                assertTrue(g.drainAndClose(Duration.ofSeconds(10)),
                        "the drain ended with nothing in flight (attempt " + attempt + ")");
                assertEquals(0, g.connectionsUp());
            }
        }
    }

    @Test
    void pipeliningIsRefusedWithAConnectionPerRequest() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> perRequest(1).withPipeline(2));
        assertTrue(e.getMessage().contains("pipeline must be 1"), e.getMessage());
    }
}
