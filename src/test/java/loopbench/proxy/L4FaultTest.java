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

import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The L4 proxy's faults, for every thread model on every transport (and splicing, on epoll): a refusing backend closes
 * the client connection; either side closing closes the other, after every byte it had sent has been delivered.
 */
class L4FaultTest {
    static final int BIG = 4 * 1024 * 1024;

    /** Copy mode everywhere; splice where it runs (epoll, reuse-server-thread). */
    static Stream<Arguments> configs() {
        return Stream.concat(Rig.combinations(new Object[] {L4Mode.COPY}, ThreadModel.values(), Transport.values()),
                Stream.of(Arguments.of(L4Mode.SPLICE, ThreadModel.REUSE_SERVER_THREAD, Transport.EPOLL)));
    }

    private static LoopbackServer proxy(L4Mode mode, ThreadModel model, Transport transport, int backendPort) {
        return ProxyServer.start(Rig.options(transport, Allocator.POOLED),
                ProxyConfig.of(Layer.L4, Rig.loopback(backendPort), model).withL4Mode(mode));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("configs")
    void backendRefusesClientIsClosed(L4Mode mode, ThreadModel model, Transport transport) throws Exception {
        try (TestBackend.RefusingPort refusing = TestBackend.refusingPort();
             LoopbackServer proxy = proxy(mode, model, transport, refusing.port())) {
            for (int i = 0; i < 3; i++) {
                try (Conn c = RawHttp.open(proxy.port())) {
                    assertTrue(c.closedByPeer(), "the client connection should be closed, not fed bytes");
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("configs")
    void backendClosesAfterWritingClientGetsEveryByteThenEof(L4Mode mode, ThreadModel model,
            Transport transport) throws Exception {
        byte[] small = RawHttp.ascii("hello, then goodbye");
        byte[] big = RawHttp.uniqueBody(42, BIG);
        try (TestBackend backend = TestBackend.start((socket, index) -> {
                 OutputStream out = socket.getOutputStream();
                 out.write(index == 0 ? small : big);
                 out.flush();
                 // returning closes the socket: FIN right after the bytes
             });
             LoopbackServer proxy = proxy(mode, model, transport, backend.port())) {
            try (Conn c = RawHttp.open(proxy.port())) {
                assertArrayEquals(small, RawHttp.readExactly(c.in(), small.length));
                assertTrue(c.closedByPeer(), "EOF after the backend's bytes");
            }
            try (Conn c = RawHttp.open(proxy.port())) {
                assertArrayEquals(big, RawHttp.readExactly(c.in(), big.length));
                assertTrue(c.closedByPeer(), "EOF after the backend's bytes");
            }
            backend.assertNoErrors();
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("configs")
    void clientClosesBackendGetsEveryByteThenEof(L4Mode mode, ThreadModel model, Transport transport) throws Exception {
        List<CompletableFuture<byte[]>> received = List.of(new CompletableFuture<>(), new CompletableFuture<>(),
                new CompletableFuture<>());
        try (TestBackend backend = TestBackend.start((socket, index) ->
                     received.get(index).complete(socket.getInputStream().readAllBytes())); // returns at EOF
             LoopbackServer proxy = proxy(mode, model, transport, backend.port())) {
            byte[] small = RawHttp.ascii("a few bytes");
            byte[] big = RawHttp.uniqueBody(7, BIG);
            try (Conn c = RawHttp.open(proxy.port())) {
                c.send(small);
            } // close() right after writing
            assertArrayEquals(small, RawHttp.await(received.get(0), 30));
            try (Conn c = RawHttp.open(proxy.port())) {
                c.send(big);
            }
            assertArrayEquals(big, RawHttp.await(received.get(1), 30));
            try (Conn c = RawHttp.open(proxy.port())) { // a half-close (FIN) counts as closing too
                c.send(small);
                c.shutdownOutput();
                assertArrayEquals(small, RawHttp.await(received.get(2), 30));
                assertTrue(c.closedByPeer(), "the proxy closes the client side as well");
            }
            backend.assertNoErrors();
        }
    }
}
