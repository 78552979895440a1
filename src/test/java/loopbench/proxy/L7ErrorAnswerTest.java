package loopbench.proxy;

import loopbench.knobs.ThreadModel;
import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.RawHttp.Response;
import loopbench.testing.RecordingBackend;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the L7 proxy answers when it cannot forward: a fixed short text per status, never the backend's address, an
 * exception or a class name (those go to its log). Ambiguous or unsupported requests (two Host headers, CONNECT) are
 * refused and never reach the backend. After each, the proxy serves the next client.
 */
class L7ErrorAnswerTest {
    static final int MAX_CONTENT = 64 * 1024;

    static Stream<Arguments> configs() {
        return Rig.combinations(L7Mode.values(), BackendPool.values());
    }

    private static LoopbackServer proxy(L7Mode mode, BackendPool pool, InetSocketAddress backend) {
        return ProxyServer.start(Rig.options(), new ProxyConfig(Layer.L7, backend, ThreadModel.REUSE_SERVER_THREAD,
                MAX_CONTENT, mode, pool));
    }

    private static Response refused(int proxyPort, byte[] request) throws IOException {
        try (Conn c = RawHttp.open(proxyPort)) {
            c.send(request);
            Response r = c.read();
            assertTrue(r.headers().hasToken("Connection", "close"), r::toString);
            assertTrue(c.closedByPeer(), "a refused request's connection is closed: " + r);
            return r;
        }
    }

    private static void assertServes(int proxyPort) throws IOException {
        try (Conn c = RawHttp.open(proxyPort)) {
            Response r = c.exchange(RawHttp.get("/next"));
            assertEquals(200, r.status(), r::toString);
        }
    }

    /** RFC 9112 3.2: more than one Host is a 400; CONNECT, a tunnel, is not implemented by a reverse proxy: 501. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("configs")
    void twoHostHeadersAndConnectAreRefusedWithoutReachingTheBackend(L7Mode mode, BackendPool pool) throws Exception {
        try (RecordingBackend backend = RecordingBackend.start();
             LoopbackServer proxy = proxy(mode, pool, backend.address())) {
            byte[] twoHosts = RawHttp.request("GET", "/two-hosts", null, "Host: elsewhere.test");
            ErrorAnswers.assertFixed(refused(proxy.port(), twoHosts), 400, backend.port());
            byte[] twoHostsWithBody = RawHttp.request("POST", "/two-hosts", new byte[10], "Host: elsewhere.test");
            ErrorAnswers.assertFixed(refused(proxy.port(), twoHostsWithBody), 400, backend.port());
            byte[] connect = RawHttp.ascii("CONNECT backend.test:443 HTTP/1.1\r\nHost: backend.test:443\r\n\r\n");
            ErrorAnswers.assertFixed(refused(proxy.port(), connect), 501, backend.port());
            assertEquals(0, backend.connections().size(), "nothing reached the backend");
            assertServes(proxy.port());
            assertEquals(1, backend.requests().size());
            assertEquals("/next", backend.requests().get(0).target());
        }
    }

    /** The refusals that predate the fixed texts: each now a fixed text too. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("configs")
    void everyRefusalIsAFixedText(L7Mode mode, BackendPool pool) throws Exception {
        try (RecordingBackend backend = RecordingBackend.start();
             LoopbackServer proxy = proxy(mode, pool, backend.address())) {
            int port = proxy.port();
            ErrorAnswers.assertFixed(refused(port, RawHttp.ascii("NOT HTTP\r\n\r\n")), 400, backend.port());
            ErrorAnswers.assertFixed(refused(port, RawHttp.get("/" + "x".repeat(10_000))), 414, backend.port());
            ErrorAnswers.assertFixed(refused(port, RawHttp.request("GET", "/", null, "X-Big: " + "y".repeat(10_000))),
                    431, backend.port());
            try (Conn c = RawHttp.open(port)) {
                c.sendInBackground(RawHttp.post("/", new byte[MAX_CONTENT + 1]), null);
                ErrorAnswers.assertFixed(c.read(), 413, backend.port());
            }
            assertEquals(0, backend.connections().size(), "nothing reached the backend");
            assertServes(port);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("configs")
    void aRefusingBackendGetsAFixed502(L7Mode mode, BackendPool pool) throws Exception {
        try (TestBackend.RefusingPort refusing = TestBackend.refusingPort();
             LoopbackServer proxy = proxy(mode, pool, Rig.loopback(refusing.port()));
             Conn c = RawHttp.open(proxy.port())) {
            ErrorAnswers.assertFixed(c.exchange(RawHttp.get("/")), 502, refusing.port());
            ErrorAnswers.assertFixed(c.exchange(RawHttp.get("/again")), 502, refusing.port());
        }
    }

    /** The case: a reset mid-body. Aggregated: a fixed 502. Streamed: the head went out, so a close. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("configs")
    void aBackendResetMidBodyGetsAFixed502OrAClose(L7Mode mode, BackendPool pool) throws Exception {
        try (StallingBackend backend = StallingBackend.start();
             LoopbackServer proxy = proxy(mode, pool, backend.address());
             Conn c = RawHttp.open(proxy.port())) {
            c.send(RawHttp.get("/reset-mid-body"));
            if (mode == L7Mode.AGGREGATE) {
                ErrorAnswers.assertFixed(c.read(), 502, backend.port());
                assertEquals(200, c.exchange(RawHttp.get("/after-502")).status(), "the client is kept");
            } else {
                assertThrows(EOFException.class, c::read, "the head and part of the body, then the close");
            }
            try (Conn other = RawHttp.open(proxy.port())) {
                assertEquals(200, other.exchange(RawHttp.get("/other")).status());
            }
        }
    }
}
