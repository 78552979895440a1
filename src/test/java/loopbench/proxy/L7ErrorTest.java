package loopbench.proxy;

import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.knobs.Allocator;
import loopbench.origin.OriginConfig;
import loopbench.origin.OriginServer;
import loopbench.origin.ResponseBody;
import loopbench.server.LoopbackServer;
import loopbench.server.ServerOptions;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.RawHttp.Request;
import loopbench.testing.RawHttp.Response;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The L7 proxy's answers to faults, for every thread model on every transport: a backend that refuses, dies before
 * answering or answers garbage gets the client a 502; a malformed request a 400 and a close; a body over
 * --max-content-length a 413 and a close. After each, the proxy goes on serving: a fresh connection (and, after a
 * 502, the same one) gets 200 with the right body. In both L7 modes (streaming gives the same answers) and
 * with both backend pools (a pooled connection that fails is never handed to the next client).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class L7ErrorTest {
    static final int BODY = 1000;
    static final int MAX_CONTENT = 64 * 1024;

    private LoopbackServer origin;

    @BeforeAll
    void startOrigin() {
        origin = Rig.origin(BODY);
    }

    @AfterAll
    void stopOrigin() {
        if (origin != null) {
            origin.close();
        }
    }

    static Stream<Arguments> configs() {
        return Rig.combinations(L7Mode.values(), BackendPool.values(), ThreadModel.values(), Transport.values());
    }

    private static LoopbackServer proxy(L7Mode mode, BackendPool pool, ThreadModel model, Transport transport,
                                        int backendPort) {
        return ProxyServer.start(Rig.options(transport, Allocator.ADAPTIVE),
                new ProxyConfig(Layer.L7, Rig.loopback(backendPort), model, MAX_CONTENT, mode, pool));
    }

    private static void assertServes(int proxyPort, int bodySize) throws IOException {
        try (Conn c = RawHttp.open(proxyPort)) {
            assertServes(c, bodySize);
        }
    }

    private static void assertServes(Conn c, int bodySize) throws IOException {
        Response r = c.exchange(RawHttp.get("/"));
        assertEquals(200, r.status(), r::toString);
        assertArrayEquals(ResponseBody.bytes(bodySize), r.body());
    }

    private static void assert502(Response r) {
        assertEquals(502, r.status(), r::toString);
        assertEquals(String.valueOf(r.body().length), r.header("Content-Length"));
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("configs")
    void backendRefuses502ThenServesOnceItListens(L7Mode mode, BackendPool pool, ThreadModel model, Transport transport)
            throws Exception {
        TestBackend.RefusingPort refusing = TestBackend.refusingPort();
        int port = refusing.port();
        try (refusing; LoopbackServer proxy = proxy(mode, pool, model, transport, port)) {
            try (Conn c = RawHttp.open(proxy.port())) {
                assert502(c.exchange(RawHttp.get("/")));
                assert502(c.exchange(RawHttp.post("/", new byte[10]))); // keep-alive after a 502
                refusing.close();
                // The backend comes up on that port: the same client connection and a fresh one are served.
                ServerOptions at = Rig.options().withTransport(Transport.NIO);
                at = new ServerOptions(Rig.loopback(port), at.transport(), at.allocator(), at.buffers(), 1);
                try (LoopbackServer late = OriginServer.start(at, OriginConfig.of(BODY))) {
                    assertEquals(port, late.port());
                    assertServes(c, BODY);
                    assertServes(proxy.port(), BODY);
                }
            }
        }
    }

    /** What the misbehaving backend does with each request; switched to OK to see the proxy recover. */
    enum Mode { CLOSE_BEFORE_READING, CLOSE_AFTER_READING, GARBAGE, OK }

    private static TestBackend scriptedBackend(AtomicReference<Mode> mode) throws IOException {
        return TestBackend.start((socket, index) -> {
            OutputStream out = socket.getOutputStream();
            while (true) {
                if (mode.get() == Mode.CLOSE_BEFORE_READING) {
                    return; // accept, then close without reading or answering
                }
                Request req = RawHttp.readRequest(socket.getInputStream());
                if (req == null) {
                    return;
                }
                switch (mode.get()) {
                    case CLOSE_AFTER_READING:
                    case CLOSE_BEFORE_READING:
                        return;
                    case GARBAGE:
                        out.write("SPDY/9 banana\r\n\u0001\u0002garbage\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                        break; // and keep the connection open: the proxy must not wait for a close
                    case OK:
                        byte[] body = ResponseBody.bytes(BODY);
                        out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1));
                        out.write(body);
                        out.flush();
                        break;
                    default:
                        throw new AssertionError(mode.get());
                }
            }
        });
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("configs")
    void backendClosesOrSendsGarbage502ThenRecovers(L7Mode mode, BackendPool pool, ThreadModel model,
            Transport transport)
            throws Exception {
        AtomicReference<Mode> fault = new AtomicReference<>(Mode.OK);
        try (TestBackend backend = scriptedBackend(fault);
             LoopbackServer proxy = proxy(mode, pool, model, transport, backend.port());
             Conn kept = RawHttp.open(proxy.port())) {
            assertServes(kept, BODY); // a keep-alive connection, served before the faults
            for (Mode f : new Mode[] {Mode.CLOSE_AFTER_READING, Mode.CLOSE_BEFORE_READING, Mode.GARBAGE}) {
                fault.set(f);
                // On the kept connection the backend connection already exists: it dies (or lies) mid-request.
                assert502(kept.exchange(RawHttp.get("/" + f)));
                // On a new connection the proxy connects anew and meets the same fault.
                try (Conn c = RawHttp.open(proxy.port())) {
                    assert502(c.exchange(RawHttp.post("/" + f, new byte[100])));
                }
                fault.set(Mode.OK);
                assertServes(kept, BODY);
                assertServes(proxy.port(), BODY);
            }
            backend.assertNoErrors();
        }
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("configs")
    void malformedRequest400AndClose(L7Mode mode, BackendPool pool, ThreadModel model, Transport transport)
            throws Exception {
        try (LoopbackServer proxy = proxy(mode, pool, model, transport, origin.port());
             Conn kept = RawHttp.open(proxy.port())) {
            assertServes(kept, BODY);
            String[] malformed = {
                    "THIS IS NOT HTTP\r\n\r\n",
                    "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: banana\r\n\r\n",
                    "GET / HTTP/1.1\r\nbad header line without colon\r\n\r\n",
            };
            for (String bad : malformed) {
                try (Conn c = RawHttp.open(proxy.port())) {
                    c.send(bad.getBytes(StandardCharsets.ISO_8859_1));
                    Response r = c.read();
                    assertEquals(400, r.status(), () -> "for '" + bad.trim() + "': " + r);
                    assertTrue(r.headers().hasToken("Connection", "close"), r::toString);
                    assertTrue(c.closedByPeer(), "connection should be closed after a 400");
                }
                assertServes(kept, BODY);
                assertServes(proxy.port(), BODY);
            }
        }
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("configs")
    void bodyOverMaxContentLength413AndClose(L7Mode mode, BackendPool pool, ThreadModel model, Transport transport)
            throws Exception {
        try (LoopbackServer proxy = proxy(mode, pool, model, transport, origin.port());
             Conn kept = RawHttp.open(proxy.port())) {
            // At the limit is fine.
            byte[] atLimit = RawHttp.uniqueBody(1, MAX_CONTENT);
            Response ok = kept.exchange(RawHttp.post("/", atLimit));
            assertEquals(200, ok.status(), ok::toString);
            assertArrayEquals(atLimit, ok.body());

            // One byte over, announced by Content-Length; and over the limit in chunks (no Content-Length).
            byte[] over = RawHttp.uniqueBody(2, MAX_CONTENT + 1);
            byte[] chunked = RawHttp.concat(
                    RawHttp.ascii("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"),
                    RawHttp.ascii(Integer.toHexString(MAX_CONTENT) + "\r\n"), new byte[MAX_CONTENT],
                    RawHttp.ascii("\r\n"),
                    RawHttp.ascii("10\r\n"), new byte[16], RawHttp.ascii("\r\n0\r\n\r\n"));
            for (byte[] request : new byte[][] {RawHttp.post("/", over), chunked}) {
                try (Conn c = RawHttp.open(proxy.port())) {
                    // The proxy may answer and close before taking the whole body: send from another thread.
                    var sent = c.sendInBackground(request, null);
                    Response r = c.read();
                    assertEquals(413, r.status(), r::toString);
                    assertTrue(r.headers().hasToken("Connection", "close"), r::toString);
                    assertTrue(c.closedByPeer(), "connection should be closed after a 413");
                    try {
                        RawHttp.await(sent, 30);
                    } catch (IOException expected) {
                        // the proxy closed before reading all of it
                    }
                }
                assertServes(kept, BODY);
                assertServes(proxy.port(), BODY);
            }
        }
    }

    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("configs")
    void pipelinedRequestsBeforeAnErrorAreAnsweredFirst(L7Mode mode, BackendPool pool, ThreadModel model,
            Transport transport)
            throws Exception {
        try (LoopbackServer proxy = proxy(mode, pool, model, transport, origin.port());
             Conn c = RawHttp.open(proxy.port())) {
            byte[] body = RawHttp.uniqueBody(7, 5000);
            c.send(RawHttp.concat(RawHttp.get("/1"), RawHttp.post("/2", body),
                    RawHttp.post("/3", new byte[MAX_CONTENT + 1]), RawHttp.get("/never")));
            Response r1 = c.read();
            assertEquals(200, r1.status(), r1::toString);
            assertArrayEquals(ResponseBody.bytes(BODY), r1.body());
            Response r2 = c.read();
            assertEquals(200, r2.status(), r2::toString);
            assertArrayEquals(body, r2.body());
            Response r3 = c.read();
            assertEquals(413, r3.status(), r3::toString);
            assertTrue(c.closedByPeer(), "no answer to the request after the oversized one: the connection closes");
        }
    }

    /** The backend server goes away while the proxy holds a keep-alive connection to it, then comes back. */
    @ParameterizedTest(name = "{0} {1} {2} {3}")
    @MethodSource("configs")
    void backendServerDies502ThenServesWhenItIsBack(L7Mode mode, BackendPool pool, ThreadModel model,
            Transport transport)
            throws Exception {
        LoopbackServer backend = Rig.origin(BODY);
        int port = backend.port();
        try (LoopbackServer proxy = proxy(mode, pool, model, transport, port);
             Conn kept = RawHttp.open(proxy.port())) {
            assertServes(kept, BODY);
            backend.close(); // closes the proxy's backend connection, and nothing listens any more
            assert502(kept.exchange(RawHttp.get("/while-down")));
            assert502(kept.exchange(RawHttp.get("/still-down")));
            ServerOptions at = new ServerOptions(Rig.loopback(port), Transport.NIO, Allocator.ADAPTIVE,
                    loopbench.knobs.BufferType.DIRECT, 1);
            backend = OriginServer.start(at, OriginConfig.of(BODY));
            assertServes(kept, BODY);
            assertServes(proxy.port(), BODY);
        } finally {
            backend.close();
        }
    }
}
