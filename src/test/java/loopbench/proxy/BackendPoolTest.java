package loopbench.proxy;

import loopbench.knobs.ThreadModel;
import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.RawHttp.Request;
import loopbench.testing.RawHttp.Response;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The L7 proxy's backend connections with both {@link BackendPool}s, in both L7 modes: how many it opens (one per
 * client connection, or one per event loop for clients that take turns), that every one is closed when its client
 * leaves (per client), when its exchange is cut off, or when the proxy stops (pooled), and what a client gets when the
 * backend closes a kept connection: the request again on a new connection when that is safe (an idempotent request
 * without a body), else 502, never a client left waiting. The backend is a scripted test server that counts its
 * connections, open and accepted.
 */
class BackendPoolTest {
    private static final byte[] OK_BODY = "ok".getBytes(StandardCharsets.ISO_8859_1);

    /** What the backend does with the {@code n}th request (from 0) on a connection. */
    @FunctionalInterface
    interface Script {
        Action on(int n, Request request, Socket socket) throws Exception;
    }

    enum Action { ANSWER, CLOSE_WITHOUT_ANSWER, ANSWER_THEN_CLOSE }

    /** A keep-alive HTTP test backend that follows a script and counts the connections open at any moment. */
    static final class ScriptedBackend implements AutoCloseable {
        final AtomicInteger open = new AtomicInteger();
        final TestBackend server;

        ScriptedBackend(Script script) throws IOException {
            server = TestBackend.start((socket, index) -> {
                open.incrementAndGet();
                try {
                    serve(socket, script);
                } finally {
                    open.decrementAndGet();
                }
            });
        }

        private static void serve(Socket socket, Script script) throws Exception {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            for (int n = 0; ; n++) {
                Request r = RawHttp.readRequest(in);
                if (r == null) {
                    return; // the proxy closed the connection
                }
                Action a = script.on(n, r, socket);
                if (a == Action.CLOSE_WITHOUT_ANSWER) {
                    return;
                }
                byte[] body = (r.method() + " " + r.target() + " "
                        + r.body().length).getBytes(StandardCharsets.ISO_8859_1);
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length
                        + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
                if (a == Action.ANSWER_THEN_CLOSE) {
                    return; // as a keep-alive timeout would, without saying so in the response
                }
            }
        }

        int accepted() {
            return server.accepted();
        }

        /** Waits (at most 10 s) until exactly {@code n} connections are open; returns how many are. */
        int awaitOpen(int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (open.get() != n && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            return open.get();
        }

        @Override
        public void close() {
            server.close();
        }
    }

    static Stream<Arguments> modesAndPools() {
        return Rig.combinations(L7Mode.values(), BackendPool.values());
    }

    static Stream<Arguments> modesPoolsAndModels() {
        return Rig.combinations(L7Mode.values(), BackendPool.values(), ThreadModel.values());
    }

    private static LoopbackServer proxy(L7Mode mode, BackendPool pool, ThreadModel model, int ioThreads,
                                        ScriptedBackend backend) {
        return ProxyServer.start(Rig.options().withIoThreads(ioThreads),
                ProxyConfig.of(Layer.L7, backend.server.address(), model).withL7Mode(mode).withBackendPool(pool));
    }

    private static void assertAnswered(Response r, String expected) {
        assertEquals(200, r.status(), r::toString);
        assertEquals(expected, r.bodyText());
    }

    /**
     * Twenty clients, one after another on one event loop, each with a GET and a POST: per client, twenty backend
     * connections, each closed when its client leaves; per loop, one, kept idle in the pool until the proxy stops.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void clientsTakingTurnsShareOnePooledConnection(L7Mode mode, BackendPool pool) throws Exception {
        int clients = 20;
        try (ScriptedBackend backend = new ScriptedBackend((n, r, s) -> Action.ANSWER)) {
            try (LoopbackServer proxy = proxy(mode, pool, ThreadModel.REUSE_SERVER_THREAD, 1, backend)) {
                for (int i = 0; i < clients; i++) {
                    try (Conn c = RawHttp.open(proxy.port())) {
                        assertAnswered(c.exchange(RawHttp.get("/g" + i)), "GET /g" + i + " 0");
                        assertAnswered(c.exchange(RawHttp.post("/p" + i, new byte[i])), "POST /p" + i + " " + i);
                    }
                    if (pool == BackendPool.PER_CLIENT) {
                        assertEquals(0, backend.awaitOpen(0), "client " + i + " left: its backend connection closes");
                    }
                }
                int expected = pool == BackendPool.PER_CLIENT ? clients : 1;
                assertEquals(expected, backend.accepted(), "backend connections opened");
                assertEquals(pool == BackendPool.PER_CLIENT ? 0 : 1, backend.awaitOpen(expected == 1 ? 1 : 0),
                        "backend connections open between clients");
            }
            assertEquals(0, backend.awaitOpen(0), "the proxy stopped: every backend connection is closed");
            backend.server.assertNoErrors();
        }
    }

    /**
     * The backend answers the first request on each connection and closes the connection when it reads the second,
     * without answering (a keep-alive timeout that races the request). On one client connection: GET (new backend
     * connection), GET (the kept connection closes: sent again on a new one, answered), POST with a body (not safe to
     * send twice: 502), GET (a new connection). In every thread model, with both pools and modes.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesPoolsAndModels")
    void aKeptConnectionTheBackendClosesIsRetriedWhenSafeElse502(L7Mode mode, BackendPool pool, ThreadModel model)
            throws Exception {
        try (ScriptedBackend backend = new ScriptedBackend((n, r, s) -> n == 0 ? Action.ANSWER
                : Action.CLOSE_WITHOUT_ANSWER);
             LoopbackServer proxy = proxy(mode, pool, model, 2, backend);
             Conn c = RawHttp.open(proxy.port())) {
            assertAnswered(c.exchange(RawHttp.get("/1")), "GET /1 0");
            assertAnswered(c.exchange(RawHttp.get("/2")), "GET /2 0");
            assertEquals(2, backend.accepted(), "the GET went out twice: on the kept connection, then on a new one");
            Response post = c.exchange(RawHttp.post("/3", new byte[10]));
            assertEquals(502, post.status(), post::toString);
            assertEquals(2, backend.accepted(), "a POST is not sent again");
            assertAnswered(c.exchange(RawHttp.get("/4")), "GET /4 0");
            assertEquals(3, backend.accepted());
            backend.server.assertNoErrors();
        }
    }

    /**
     * Every backend connection serves one response, then closes (idle timeout): a closed connection leaves the pool
     * (or the client) and the next request gets a new one, or, if the close races the request, is sent again. Either
     * way every GET is answered, each by a connection that served nothing before.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void connectionsTheBackendClosesWhileIdleAreNotReused(L7Mode mode, BackendPool pool) throws Exception {
        int requests = 10;
        try (ScriptedBackend backend = new ScriptedBackend((n, r, s) -> n == 0 ? Action.ANSWER_THEN_CLOSE
                : Action.CLOSE_WITHOUT_ANSWER);
             LoopbackServer proxy = proxy(mode, pool, ThreadModel.REUSE_SERVER_THREAD, 1, backend)) {
            try (Conn kept = RawHttp.open(proxy.port())) {
                for (int i = 0; i < requests; i++) {
                    assertAnswered(kept.exchange(RawHttp.get("/k" + i)), "GET /k" + i + " 0");
                    try (Conn fresh = RawHttp.open(proxy.port())) {
                        assertAnswered(fresh.exchange(RawHttp.get("/f" + i)), "GET /f" + i + " 0");
                    }
                }
            }
            assertEquals(2 * requests, backend.accepted(), "one connection per request answered");
            assertEquals(0, backend.awaitOpen(0));
            backend.server.assertNoErrors();
        }
    }

    /**
     * A client leaves while its response is still coming: that backend connection is in an unknown state and is
     * closed, not pooled; the next client gets a new connection and its answer.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("modesAndPools")
    void aConnectionWhoseClientLeftMidExchangeIsClosedNotPooled(L7Mode mode, BackendPool pool) throws Exception {
        try (ScriptedBackend backend = new ScriptedBackend((n, r, socket) -> {
                 if (r.target().equals("/slow")) {
                     // No answer: wait for the proxy to close this connection (EOF), or the socket's timeout (30 s).
                     assertEquals(-1, socket.getInputStream().read(), "nothing more on the cut-off connection");
                     return Action.CLOSE_WITHOUT_ANSWER;
                 }
                 return Action.ANSWER;
             });
             LoopbackServer proxy = proxy(mode, pool, ThreadModel.REUSE_SERVER_THREAD, 1, backend)) {
            try (Conn c = RawHttp.open(proxy.port())) {
                assertAnswered(c.exchange(RawHttp.get("/warm")), "GET /warm 0"); // a connection that served before
                c.send(RawHttp.get("/slow"));
                assertEquals(1, backend.awaitOpen(1));
                // It goes away for good (a reset): a plain FIN could be a half-close still waiting for its answer.
                c.socket().setSoLinger(true, 0);
            } // the client leaves before the answer
            assertEquals(0, backend.awaitOpen(0), "the backend connection of the cut-off exchange is closed");
            try (Conn c = RawHttp.open(proxy.port())) {
                assertAnswered(c.exchange(RawHttp.get("/next")), "GET /next 0");
            }
            assertEquals(2, backend.accepted());
            backend.server.assertNoErrors();
        }
    }
}
