package loopbench.proxy;

import loopbench.knobs.ThreadModel;
import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.RawHttp.Response;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The L7 proxy's timeouts, made short ({@value #SHORT_MILLIS} ms): a client or a backend that stalls gets the answer
 * nginx gives (408, a silent close, 504, 502), and while one connection waits the proxy serves another client.
 * Waiting is bounded by the test sockets' read timeout (30 s); nothing here asserts how long anything took, only what
 * arrived. Progress within the limit (a body or a response in pieces spaced well inside it) is never cut off.
 */
class L7TimeoutTest {
    static final int SHORT_MILLIS = 600;
    static final Duration SHORT = Duration.ofMillis(SHORT_MILLIS);
    static final ProxyTimeouts TIMEOUTS = ProxyTimeouts.DEFAULTS.withClientHeader(SHORT).withClientBody(SHORT)
            .withKeepAlive(SHORT).withBackend(SHORT).withBackendConnect(SHORT);

    static Stream<Arguments> modesAndPools() {
        return Rig.combinations(L7Mode.values(), BackendPool.values());
    }

    /**
     * The backend's reads are counted on its own loop, which is another thread with the other thread models: each
     * of them once, besides both modes and pools on the default model.
     */
    static Stream<Arguments> modesPoolsAndModels() {
        return Stream.concat(Rig.combinations(L7Mode.values(), BackendPool.values(),
                        new Object[] {ThreadModel.REUSE_SERVER_THREAD}),
                Stream.of(Arguments.of(L7Mode.AGGREGATE, BackendPool.PER_CLIENT, ThreadModel.INDIVIDUAL_GROUP),
                        Arguments.of(L7Mode.STREAM, BackendPool.PER_LOOP, ThreadModel.REUSE_SERVER_GROUP)));
    }

    private static LoopbackServer proxy(L7Mode mode, BackendPool pool, ThreadModel model, InetSocketAddress backend,
                                        ProxyTimeouts timeouts) {
        return ProxyServer.start(Rig.options(), ProxyConfig.of(Layer.L7, backend, model).withL7Mode(mode)
                .withBackendPool(pool).withTimeouts(timeouts));
    }

    private static LoopbackServer proxy(L7Mode mode, BackendPool pool, StallingBackend backend) {
        return proxy(mode, pool, ThreadModel.REUSE_SERVER_THREAD, backend.address(), TIMEOUTS);
    }

    /** Another client, on a connection of its own, is served meanwhile. */
    private static void assertServesAnother(int proxyPort) throws IOException {
        try (Conn other = RawHttp.open(proxyPort)) {
            Response r = other.exchange(RawHttp.get("/other"));
            assertEquals(200, r.status(), r::toString);
            assertEquals("/other", r.bodyText());
        }
    }

    private static void assert408AndClose(Conn c, int backendPort) throws IOException {
        Response r = c.read();
        ErrorAnswers.assertFixed(r, 408, backendPort);
        assertTrue(r.headers().hasToken("Connection", "close"), r::toString);
        assertTrue(c.closedByPeer(), "closed after the 408");
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void aNewConnectionThatSendsNothingGets408AndIsClosed(L7Mode mode, BackendPool pool) throws Exception {
        try (StallingBackend backend = StallingBackend.start(); LoopbackServer proxy = proxy(mode, pool, backend);
             Conn silent = RawHttp.open(proxy.port())) {
            assertServesAnother(proxy.port());
            assert408AndClose(silent, backend.port());
            assertServesAnother(proxy.port());
        }
    }

    static Stream<Arguments> modesPoolsAndFirst() {
        return Rig.combinations(L7Mode.values(), BackendPool.values(), new Object[] {true, false});
    }

    /**
     * A head sent a byte at a time (slowloris): the header timeout counts from the head's first byte (on a new
     * connection, from its start; on a kept-alive one, the keep-alive timeout's until then) and reads add nothing.
     */
    @ParameterizedTest(name = "{0} {1} first request {2}")
    @MethodSource("modesPoolsAndFirst")
    void aHeadThatTricklesInGets408(L7Mode mode, BackendPool pool, boolean first) throws Exception {
        try (StallingBackend backend = StallingBackend.start(); LoopbackServer proxy = proxy(mode, pool, backend);
             Conn slow = RawHttp.open(proxy.port())) {
            if (!first) {
                assertEquals(200, slow.exchange(RawHttp.get("/first")).status());
            }
            CompletableFuture<Void> trickle = trickle(slow, RawHttp.get("/never-whole"));
            assertServesAnother(proxy.port());
            assert408AndClose(slow, backend.port());
            trickle.cancel(true);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void anIdleKeptAliveConnectionIsClosedWithoutAnAnswer(L7Mode mode, BackendPool pool) throws Exception {
        try (StallingBackend backend = StallingBackend.start(); LoopbackServer proxy = proxy(mode, pool, backend);
             Conn idle = RawHttp.open(proxy.port())) {
            Response first = idle.exchange(RawHttp.get("/first"));
            assertEquals(200, first.status(), first::toString);
            assertServesAnother(proxy.port());
            assertTrue(idle.closedByPeer(), "closed, and nothing sent (a byte would make this false)");
            assertServesAnother(proxy.port());
        }
    }

    /** A head, a tenth of its body, then silence: 408 (the backend, in stream mode, has part of it: dropped). */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void aBodyThatStallsGets408(L7Mode mode, BackendPool pool) throws Exception {
        try (StallingBackend backend = StallingBackend.start(); LoopbackServer proxy = proxy(mode, pool, backend);
             Conn stalled = RawHttp.open(proxy.port())) {
            byte[] post = RawHttp.post("/stalled-body", new byte[1000]);
            stalled.send(Arrays.copyOf(post, post.length - 900));
            assertServesAnother(proxy.port());
            assert408AndClose(stalled, backend.port());
            assertServesAnother(proxy.port());
        }
    }

    /** A body in pieces, each well within the body timeout, the whole longer than it: served whole. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void aBodyInTimelyPiecesIsServed(L7Mode mode, BackendPool pool) throws Exception {
        try (LoopbackServer origin = Rig.origin(10);
             LoopbackServer proxy = proxy(mode, pool, ThreadModel.REUSE_SERVER_THREAD, origin.address(), TIMEOUTS);
             Conn c = RawHttp.open(proxy.port())) {
            byte[] body = RawHttp.uniqueBody(9, StallingBackend.BODY);
            byte[] post = RawHttp.post("/", body);
            int head = post.length - body.length;
            c.send(Arrays.copyOf(post, head));
            int piece = body.length / StallingBackend.PIECES;
            for (int i = 0; i < StallingBackend.PIECES; i++) {
                Thread.sleep(StallingBackend.PIECE_GAP_MILLIS);
                c.send(Arrays.copyOfRange(body, i * piece, (i + 1) * piece));
            }
            Response r = c.read();
            assertEquals(200, r.status(), r::toString);
            assertArrayEquals(body, r.body());
        }
    }

    /** A backend that reads the request and never answers, or sends half a status line: 504, and keep-alive. */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesPoolsAndModels")
    void aBackendThatNeverAnswersGets504(L7Mode mode, BackendPool pool, ThreadModel model) throws Exception {
        try (StallingBackend backend = StallingBackend.start();
             LoopbackServer proxy = proxy(mode, pool, model, backend.address(), TIMEOUTS);
             Conn c = RawHttp.open(proxy.port())) {
            for (String path : new String[] {"/silent", "/half-head"}) {
                c.send(RawHttp.get(path));
                assertServesAnother(proxy.port());
                Response r = c.read();
                ErrorAnswers.assertFixed(r, 504, backend.port());
                Response next = c.exchange(RawHttp.get("/after-504"));
                assertEquals(200, next.status(), "the client connection is kept: " + next);
            }
        }
    }

    /** Half the body, then nothing: 504 if nothing went to the client yet (aggregate), else both sides close. */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesPoolsAndModels")
    void aBackendThatStallsMidBodyGets504OrAClose(L7Mode mode, BackendPool pool, ThreadModel model) throws Exception {
        try (StallingBackend backend = StallingBackend.start();
             LoopbackServer proxy = proxy(mode, pool, model, backend.address(), TIMEOUTS);
             Conn c = RawHttp.open(proxy.port())) {
            c.send(RawHttp.get("/half-body"));
            assertServesAnother(proxy.port());
            if (mode == L7Mode.AGGREGATE) {
                ErrorAnswers.assertFixed(c.read(), 504, backend.port());
                assertEquals(200, c.exchange(RawHttp.get("/after-504")).status());
            } else {
                EOFException cut = assertThrows(EOFException.class, c::read, "the head and half the body, then EOF");
                assertTrue(cut.getMessage().contains("after " + StallingBackend.HALF + " of " + StallingBackend.BODY),
                        cut::getMessage);
            }
            assertServesAnother(proxy.port());
        }
    }

    /** A response in pieces, each well within the backend timeout, the whole longer than it: relayed whole. */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesPoolsAndModels")
    void aResponseInTimelyPiecesIsRelayed(L7Mode mode, BackendPool pool, ThreadModel model) throws Exception {
        try (StallingBackend backend = StallingBackend.start();
             LoopbackServer proxy = proxy(mode, pool, model, backend.address(), TIMEOUTS);
             Conn c = RawHttp.open(proxy.port())) {
            Response r = c.exchange(RawHttp.get("/trickle"));
            assertEquals(200, r.status(), r::toString);
            assertArrayEquals(RawHttp.uniqueBody(2, StallingBackend.BODY), r.body());
        }
    }

    /**
     * A backend that does not accept (its accept queue is full, so the kernel drops the proxy's SYN): 502 after the
     * connect timeout; meanwhile the proxy answers another client (a malformed request: the backend is unreachable).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void aBackendThatDoesNotAcceptGets502(L7Mode mode, BackendPool pool) throws Exception {
        try (FullBacklog full = FullBacklog.open();
             LoopbackServer proxy = proxy(mode, pool, ThreadModel.REUSE_SERVER_THREAD, full.address(), TIMEOUTS);
             Conn c = RawHttp.open(proxy.port())) {
            c.send(RawHttp.get("/"));
            try (Conn other = RawHttp.open(proxy.port())) {
                assertEquals(400, other.exchange(RawHttp.ascii("NOT HTTP\r\n\r\n")).status());
            }
            ErrorAnswers.assertFixed(c.read(), 502, full.address().getPort());
        }
    }

    /**
     * A client that reads nothing for several timeouts while a large response waits for it is served whole: the
     * proxy then stops reading the backend, and that wait is its own (there is no send timeout).
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void aClientThatReadsNothingForAWhileIsServedWhole(L7Mode mode, BackendPool pool) throws Exception {
        int size = 4 * 1024 * 1024;
        try (TestBackend backend = TestBackend.start((socket, index) -> {
                 OutputStream out = socket.getOutputStream();
                 while (RawHttp.readRequest(socket.getInputStream()) != null) {
                     out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: " + size + "\r\n\r\n"));
                     out.write(RawHttp.uniqueBody(5, size));
                     out.flush();
                 }
             });
             LoopbackServer proxy = proxy(mode, pool, ThreadModel.REUSE_SERVER_THREAD, backend.address(), TIMEOUTS);
             Conn c = RawHttp.open(proxy.port())) {
            c.send(RawHttp.get("/down"));
            Thread.sleep(4L * SHORT_MILLIS);
            Response down = c.read();
            assertEquals(200, down.status(), down::toString);
            assertArrayEquals(RawHttp.uniqueBody(5, size), down.body());
            backend.assertNoErrors();
        }
    }

    /** A backend that takes nothing of a large request: 504, as nginx's proxy_send_timeout gives. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void aBackendThatTakesNothingOfTheRequestGets504(L7Mode mode, BackendPool pool) throws Exception {
        CountDownLatch testOver = new CountDownLatch(1);
        try (TestBackend backend = TestBackend.start((socket, index) -> {
                 if (index == 0) {
                     testOver.await(30, TimeUnit.SECONDS); // reads nothing
                     return;
                 }
                 OutputStream out = socket.getOutputStream();
                 while (RawHttp.readRequest(socket.getInputStream()) != null) {
                     out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n"));
                     out.flush();
                 }
             });
             AutoCloseable release = testOver::countDown; // closed before the backend, which waits for its threads
             LoopbackServer proxy = proxy(mode, pool, ThreadModel.REUSE_SERVER_THREAD, backend.address(), TIMEOUTS);
             Conn c = RawHttp.open(proxy.port())) {
            c.sendInBackground(RawHttp.post("/up", RawHttp.uniqueBody(7, 4 * 1024 * 1024)), null);
            Response r = c.read();
            try (Conn other = RawHttp.open(proxy.port())) {
                assertEquals(200, other.exchange(RawHttp.get("/other")).status());
            }
            ErrorAnswers.assertFixed(r, 504, backend.port());
        }
    }

    /** 0 turns a timeout off: a silent client of such a proxy is still served after another proxy's 408. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void zeroTurnsATimeoutOff(L7Mode mode, BackendPool pool) throws Exception {
        ProxyTimeouts off = TIMEOUTS.withClientHeader(Duration.ZERO).withKeepAlive(Duration.ZERO);
        try (StallingBackend backend = StallingBackend.start();
             LoopbackServer patient = proxy(mode, pool, ThreadModel.REUSE_SERVER_THREAD, backend.address(), off);
             LoopbackServer strict = proxy(mode, pool, backend);
             Conn waiting = RawHttp.open(patient.port());
             Conn kept = RawHttp.open(patient.port());
             Conn clock = RawHttp.open(strict.port())) {
            assertEquals(200, kept.exchange(RawHttp.get("/kept")).status());
            assert408AndClose(clock, backend.port()); // the short header timeout has passed
            clock.close();
            try (Conn clock2 = RawHttp.open(strict.port())) {
                assertEquals(200, clock2.exchange(RawHttp.get("/kept")).status());
                assertTrue(clock2.closedByPeer(), "the short keep-alive timeout has passed too");
            }
            assertEquals(200, waiting.exchange(RawHttp.get("/still-open")).status());
            assertEquals(200, kept.exchange(RawHttp.get("/still-kept")).status());
        }
    }

    /** Sends {@code bytes} one at a time, {@value StallingBackend#PIECE_GAP_MILLIS} ms apart, until done or closed. */
    private static CompletableFuture<Void> trickle(Conn c, byte[] bytes) {
        return CompletableFuture.runAsync(() -> {
            try {
                for (byte b : bytes) {
                    c.send(new byte[] {b});
                    Thread.sleep(StallingBackend.PIECE_GAP_MILLIS / 3);
                }
            } catch (IOException | InterruptedException closed) {
                // the proxy closed the connection, or the test is over
            }
        });
    }

    /**
     * A listening socket whose accept queue is full: it never accepts, and the kernel drops further SYNs, so a
     * connect to it hangs (on loopback, nothing else makes a connect hang). Closed with everything it holds.
     */
    static final class FullBacklog implements AutoCloseable {
        private final ServerSocket server;
        private final List<Socket> fillers = new ArrayList<>();

        private FullBacklog() throws IOException {
            server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            // A backlog of 1 holds 2 connections; a few more to be sure the queue is full.
            for (int i = 0; i < 3; i++) {
                Socket s = new Socket();
                try {
                    s.connect(server.getLocalSocketAddress(), 200);
                    fillers.add(s);
                } catch (IOException full) {
                    s.close();
                }
            }
        }

        static FullBacklog open() throws IOException {
            return new FullBacklog();
        }

        InetSocketAddress address() {
            return (InetSocketAddress) server.getLocalSocketAddress();
        }

        @Override
        public void close() throws IOException {
            for (Socket s : fillers) {
                s.close();
            }
            server.close();
        }
    }
}
