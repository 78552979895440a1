package loopbench.proxy;

import loopbench.knobs.Allocator;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The L4 proxy's timeouts, made short: a connection with no byte either way for --idle-timeout is closed on both sides
 * (nginx stream's proxy_timeout), one that keeps moving is not, and a backend that does not accept gets the client
 * closed after --backend-connect-timeout. Meanwhile the proxy relays another client's bytes. No timing is asserted.
 */
class L4TimeoutTest {
    static final Duration SHORT = Duration.ofMillis(L7TimeoutTest.SHORT_MILLIS);

    /** Copying on the client's own loop and on another loop (the backend's reads counted there); splicing. */
    static Stream<Arguments> configs() {
        return Stream.of(Arguments.of(L4Mode.COPY, ThreadModel.REUSE_SERVER_THREAD, Transport.NIO),
                Arguments.of(L4Mode.COPY, ThreadModel.INDIVIDUAL_GROUP, Transport.EPOLL),
                Arguments.of(L4Mode.SPLICE, ThreadModel.REUSE_SERVER_THREAD, Transport.EPOLL));
    }

    private static LoopbackServer proxy(L4Mode mode, ThreadModel model, Transport transport, int backendPort) {
        ProxyTimeouts timeouts = ProxyTimeouts.DEFAULTS.withIdle(SHORT).withBackendConnect(SHORT);
        return ProxyServer.start(Rig.options(transport, Allocator.ADAPTIVE),
                ProxyConfig.of(Layer.L4, Rig.loopback(backendPort), model).withL4Mode(mode).withTimeouts(timeouts));
    }

    /** Echoes every byte until the proxy closes the connection. */
    private static TestBackend echo() throws Exception {
        return TestBackend.start((socket, index) -> {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            byte[] buf = new byte[8192];
            int n;
            try {
                while ((n = in.read(buf)) > 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException closedByTheProxy) {
                // done
            }
        });
    }

    private static void assertEchoes(Conn c, byte[] bytes) throws Exception {
        c.send(bytes);
        assertArrayEquals(bytes, RawHttp.readExactly(c.in(), bytes.length));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("configs")
    void aConnectionWithNothingEitherWayIsClosed(L4Mode mode, ThreadModel model, Transport transport)
            throws Exception {
        try (TestBackend backend = echo(); LoopbackServer proxy = proxy(mode, model, transport, backend.port());
             Conn silent = RawHttp.open(proxy.port()); Conn used = RawHttp.open(proxy.port())) {
            assertEchoes(used, RawHttp.ascii("a request"));
            try (Conn other = RawHttp.open(proxy.port())) {
                assertEchoes(other, RawHttp.uniqueBody(1, 100_000));
            }
            assertTrue(silent.closedByPeer(), "a connection that never sent a byte is closed");
            assertTrue(used.closedByPeer(), "a connection idle since its last bytes is closed");
        }
    }

    /** Bytes both ways at intervals well within the timeout, for longer than it: never cut off. */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("configs")
    void aConnectionThatKeepsMovingIsNotClosed(L4Mode mode, ThreadModel model, Transport transport) throws Exception {
        try (TestBackend backend = echo(); LoopbackServer proxy = proxy(mode, model, transport, backend.port());
             Conn c = RawHttp.open(proxy.port())) {
            for (int i = 0; i < StallingBackend.PIECES; i++) {
                Thread.sleep(StallingBackend.PIECE_GAP_MILLIS);
                assertEchoes(c, RawHttp.uniqueBody(i, 1000));
            }
            assertTrue(c.closedByPeer(), "then, idle, it is closed");
        }
    }

    /** (An L4 proxy whose one backend cannot be reached has no other client to serve meanwhile.) */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("configs")
    void aBackendThatDoesNotAcceptGetsTheClientClosed(L4Mode mode, ThreadModel model, Transport transport)
            throws Exception {
        try (L7TimeoutTest.FullBacklog full = L7TimeoutTest.FullBacklog.open();
             LoopbackServer proxy = proxy(mode, model, transport, full.address().getPort());
             Conn c = RawHttp.open(proxy.port())) {
            c.send(RawHttp.ascii("never relayed"));
            assertTrue(c.closedByPeer(), "closed once connecting timed out");
        }
    }
}
