package loopbench.proxy;

import loopbench.knobs.Allocator;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.RawHttp.Request;
import loopbench.testing.RawHttp.Response;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the L7 proxy does to the messages: Host set to the backend, X-Forwarded-For appended, hop-by-hop headers
 * dropped, keep-alive kept on both sides (one backend connection per client connection, reused; or pooled per event
 * loop), and the client's
 * own wish (Connection: close, HTTP/1.0) honoured on the client side only. The backend is a recording test server.
 */
class L7HeadersTest {

    /** A request as the backend saw it, with the index of the backend connection it came on. */
    record Seen(int connection, Request request) {
    }

    private final List<Seen> seen = new CopyOnWriteArrayList<>();
    private TestBackend backend;

    @BeforeEach
    void startBackend() throws IOException {
        backend = TestBackend.start((socket, index) -> {
            OutputStream out = socket.getOutputStream();
            Request r;
            while ((r = RawHttp.readRequest(socket.getInputStream())) != null) {
                seen.add(new Seen(index, r));
                byte[] body = (r.method() + " " + r.target() + " " + r.body().length).getBytes(StandardCharsets.UTF_8);
                boolean close = r.target().contains("backend-closes");
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n"
                        + (close ? "Connection: close\r\n" : "") + "X-Backend: yes\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
                if (close) {
                    return;
                }
            }
        });
    }

    @AfterEach
    void stopBackend() {
        backend.close();
        backend.assertNoErrors();
    }

    private LoopbackServer proxy(L7Mode mode, BackendPool pool, ThreadModel model) {
        return ProxyServer.start(Rig.options(),
                ProxyConfig.of(Layer.L7, backend.address(), model).withL7Mode(mode).withBackendPool(pool));
    }

    static Stream<Arguments> modesAndModels() {
        return Rig.combinations(L7Mode.values(), BackendPool.values(), ThreadModel.values());
    }

    private static void assertOk(Response r, String expectedBody) {
        assertEquals(200, r.status(), r::toString);
        assertEquals(expectedBody, r.bodyText());
        assertEquals("yes", r.header("X-Backend"));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesAndModels")
    void setsHostAndAppendsXForwardedFor(L7Mode mode, BackendPool pool, ThreadModel model) throws Exception {
        try (LoopbackServer proxy = proxy(mode, pool, model); Conn c = RawHttp.open(proxy.port())) {
            assertOk(c.exchange(RawHttp.get("/a")), "GET /a 0");
            assertOk(c.exchange(RawHttp.request("POST", "/b", new byte[3], "X-Forwarded-For: 10.1.2.3")), "POST /b 3");
            assertOk(c.exchange(RawHttp.request("GET", "/c", null, "X-Forwarded-For: 10.1.2.3, 10.4.5.6",
                    "Connection: keep-alive, X-Hop", "X-Hop: secret", "Keep-Alive: timeout=5", "X-End: to-end")),
                    "GET /c 0");
        }
        assertEquals(3, seen.size());
        String backendHost = "127.0.0.1:" + backend.port();
        for (Seen s : seen) {
            assertEquals(backendHost, s.request().header("Host"), "Host of " + s.request().target());
            assertEquals("HTTP/1.1", s.request().version());
            assertEquals(1, s.request().headers().all("Host").size());
            assertEquals(1, s.request().headers().all("X-Forwarded-For").size());
        }
        assertEquals("127.0.0.1", seen.get(0).request().header("X-Forwarded-For"));
        assertEquals("10.1.2.3, 127.0.0.1", seen.get(1).request().header("X-Forwarded-For"));
        Request c = seen.get(2).request();
        assertEquals("10.1.2.3, 10.4.5.6, 127.0.0.1", c.header("X-Forwarded-For"));
        assertNull(c.header("X-Hop"), "a header named in Connection is hop-by-hop");
        assertNull(c.header("Keep-Alive"));
        assertEquals("to-end", c.header("X-End"));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesAndModels")
    void keepsBothSidesAlive(L7Mode mode, BackendPool pool, ThreadModel model) throws Exception {
        try (LoopbackServer proxy = proxy(mode, pool, model); Conn a = RawHttp.open(proxy.port());
             Conn b = RawHttp.open(proxy.port())) {
            for (int i = 0; i < 5; i++) {
                assertOk(a.exchange(RawHttp.get("/a" + i)), "GET /a" + i + " 0");
                assertOk(b.exchange(RawHttp.post("/b" + i, new byte[i])), "POST /b" + i + " " + i);
            }
            // Pipelined on a kept-alive connection too.
            a.send(RawHttp.concat(RawHttp.get("/p1"), RawHttp.get("/p2"), RawHttp.get("/p3")));
            for (int i = 1; i <= 3; i++) {
                assertOk(a.read(), "GET /p" + i + " 0");
            }
        }
        assertEquals(13, seen.size());
        if (pool == BackendPool.PER_CLIENT) {
            // Each client connection had exactly one backend connection, used for all of its requests.
            long aConns = seen.stream().filter(s -> s.request().target().startsWith("/a")
                    || s.request().target().startsWith("/p"))
                    .map(Seen::connection).distinct().count();
            long bConns = seen.stream().filter(s -> s.request().target().startsWith("/b")).map(Seen::connection)
                    .distinct().count();
            assertEquals(1, aConns, "backend connections for client a");
            assertEquals(1, bConns, "backend connections for client b");
            assertEquals(2, backend.accepted());
        } else {
            // One request at a time: each event loop's pool (2 loops) never needed more than one connection.
            assertTrue(backend.accepted() <= 2, "backend connections: " + backend.accepted());
        }
        for (Seen s : seen) {
            assertFalse(s.request().headers().hasToken("Connection", "close"), "the backend side stays keep-alive");
        }
    }

    /** A client that sends its requests and then shuts its output down still gets every response, then EOF. */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesAndModels")
    void clientHalfCloseStillGetsItsResponses(L7Mode mode, BackendPool pool, ThreadModel model) throws Exception {
        for (Transport transport : Transport.values()) {
            try (LoopbackServer proxy = ProxyServer.start(Rig.options(transport, Allocator.ADAPTIVE),
                    ProxyConfig.of(Layer.L7, backend.address(), model).withL7Mode(mode).withBackendPool(pool));
                 Conn c = RawHttp.open(proxy.port())) {
                c.send(RawHttp.concat(RawHttp.get("/h1"), RawHttp.post("/h2", new byte[300])));
                c.shutdownOutput();
                assertOk(c.read(), "GET /h1 0");
                assertOk(c.read(), "POST /h2 300");
                assertTrue(c.closedByPeer(), transport + ": the proxy closes after the last response");
            }
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesAndModels")
    void clientConnectionCloseClosesOnlyTheClientSide(L7Mode mode, BackendPool pool,
            ThreadModel model) throws Exception {
        try (LoopbackServer proxy = proxy(mode, pool, model)) {
            try (Conn c = RawHttp.open(proxy.port())) {
                Response r = c.exchange(RawHttp.request("GET", "/bye", null, "Connection: close"));
                assertOk(r, "GET /bye 0");
                assertTrue(r.headers().hasToken("Connection", "close"), r::toString);
                assertTrue(c.closedByPeer(), "the proxy closes after answering Connection: close");
            }
            try (Conn c = RawHttp.open(proxy.port())) { // HTTP/1.0 without keep-alive: closed after one response
                c.send(RawHttp.ascii("GET /old HTTP/1.0\r\n\r\n"));
                assertOk(c.read(), "GET /old 0");
                assertTrue(c.closedByPeer(), "HTTP/1.0 without keep-alive is closed after the response");
            }
            try (Conn c = RawHttp.open(proxy.port())) { // HTTP/1.0 asking for keep-alive gets it, said explicitly
                for (int i = 0; i < 2; i++) {
                    c.send(RawHttp.ascii("GET /old-ka HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
                    Response r = c.read();
                    assertOk(r, "GET /old-ka 0");
                    assertTrue(r.headers().hasToken("Connection", "keep-alive"), r::toString);
                }
            }
        }
        for (Seen s : seen) {
            assertEquals("HTTP/1.1", s.request().version());
            assertFalse(s.request().headers().hasToken("Connection", "close"), "the backend side stays keep-alive");
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesAndModels")
    void backendClosingAfterAResponseIsReconnectedTransparently(L7Mode mode, BackendPool pool,
            ThreadModel model) throws Exception {
        try (LoopbackServer proxy = proxy(mode, pool, model); Conn c = RawHttp.open(proxy.port())) {
            Response r = c.exchange(RawHttp.get("/backend-closes"));
            assertOk(r, "GET /backend-closes 0");
            assertFalse(r.headers().hasToken("Connection", "close"), "the client connection stays open");
            for (int i = 0; i < 3; i++) {
                assertOk(c.exchange(RawHttp.get("/after" + i)), "GET /after" + i + " 0");
            }
        }
        assertEquals(2, backend.accepted(), "a new backend connection after the backend closed the first");
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesAndModels")
    void headRequestGetsNoBodyButTheLength(L7Mode mode, BackendPool pool, ThreadModel model) throws Exception {
        try (LoopbackServer origin = Rig.origin(4096);
             LoopbackServer proxy = ProxyServer.start(Rig.options(),
                     ProxyConfig.of(Layer.L7, origin.address(), model).withL7Mode(mode).withBackendPool(pool));
             Conn c = RawHttp.open(proxy.port())) {
            c.send(RawHttp.concat(RawHttp.head("/"), RawHttp.get("/")));
            Response head = c.readToHead();
            assertEquals(200, head.status());
            assertEquals("4096", head.header("Content-Length"));
            Response get = c.read();
            assertArrayEquals(loopbench.origin.ResponseBody.bytes(4096), get.body());
        }
    }

    /**
     * Whatever framing the backend uses (chunked, or the end of the body marked by closing the connection), the client
     * gets one aggregated response with Content-Length (aggregate mode) or a chunked one (stream mode), on a connection
     * that stays open; a response over --max-content-length is a 502.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesAndModels")
    void backendResponseFramingIsNormalisedAndOversizedIs502(L7Mode mode, BackendPool pool,
            ThreadModel model) throws Exception {
        byte[] body = RawHttp.uniqueBody(11, 60_000); // under the 64 KiB limit below
        try (TestBackend framing = TestBackend.start((socket, index) -> {
                 OutputStream out = socket.getOutputStream();
                 Request r;
                 while ((r = RawHttp.readRequest(socket.getInputStream())) != null) {
                     switch (r.target()) {
                         case "/chunked":
                             out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"));
                             for (int off = 0; off < body.length; off += 25_000) {
                                 int n = Math.min(25_000, body.length - off);
                                 out.write(RawHttp.ascii(Integer.toHexString(n) + "\r\n"));
                                 out.write(body, off, n);
                                 out.write(RawHttp.ascii("\r\n"));
                             }
                             out.write(RawHttp.ascii("0\r\n\r\n"));
                             out.flush();
                             break;
                         case "/until-close":
                             out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n"));
                             out.write(body);
                             out.flush();
                             return; // closing ends the body
                         case "/too-big":
                             byte[] big = new byte[64 * 1024 + 1];
                             out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: " + big.length + "\r\n\r\n"));
                             out.write(big);
                             out.flush();
                             break;
                         default:
                             out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
                             out.flush();
                     }
                 }
             });
             LoopbackServer proxy = loopbench.proxy.ProxyServer.start(Rig.options(),
                     new ProxyConfig(Layer.L7, framing.address(), model, 64 * 1024, mode, pool));
             Conn c = RawHttp.open(proxy.port())) {
            for (String path : new String[] {"/chunked", "/until-close", "/chunked"}) {
                Response r = c.exchange(RawHttp.get(path));
                assertEquals(200, r.status(), r::toString);
                if (mode == L7Mode.AGGREGATE) {
                    assertEquals(String.valueOf(body.length), r.header("Content-Length"), r::toString);
                    assertNull(r.header("Transfer-Encoding"), r::toString);
                } else { // streamed: no length known up front, so chunked to this HTTP/1.1 client
                    assertNull(r.header("Content-Length"), r::toString);
                    assertEquals("chunked", r.header("Transfer-Encoding"), r::toString);
                }
                assertFalse(r.headers().hasToken("Connection", "close"), "the client side stays open: " + r);
                assertArrayEquals(body, r.body(), path);
            }
            Response tooBig = c.exchange(RawHttp.get("/too-big"));
            assertEquals(502, tooBig.status(), tooBig::toString);
            Response after = c.exchange(RawHttp.get("/small"));
            assertEquals("ok", after.bodyText(), after::toString);
            framing.assertNoErrors();
        }
    }
}
