package loopbench.proxy;

import loopbench.knobs.Allocator;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.origin.ResponseBody;
import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.RawHttp.Response;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A side that shuts its output down (sends its FIN) and goes on reading. At L4 the FIN is passed on once what came
 * before it has, and the other direction flows until its own FIN: a client that sends a request and shuts its write
 * side gets the whole response, and a backend that ends its side still receives what the client sends after. At L7 a
 * client's half-close gets every response it asked for (see also L7HeadersTest), and a response a backend ends with
 * its half-close arrives whole, framed for the client.
 */
class HalfCloseTest {

    /** Copy mode with every thread model on every transport; splice where it runs (epoll, reuse-server-thread). */
    static Stream<Arguments> l4Configs() {
        return L4FaultTest.configs();
    }

    private static LoopbackServer l4Proxy(L4Mode mode, ThreadModel model, Transport transport, int backendPort) {
        return ProxyServer.start(Rig.options(transport, Allocator.ADAPTIVE),
                ProxyConfig.of(Layer.L4, Rig.loopback(backendPort), model).withL4Mode(mode));
    }

    /**
     * A request, then shutdown(SHUT_WR): the backend got the request, and the client gets the whole answer.
     *
     * <p>The client reads at once. On epoll a half-closed client that leaves more unread than its socket buffers hold
     * loses the rest: Netty 4.2.18's epoll takes a socket out of the epoll set once nothing is awaited on it
     * (netty/netty#16689), which a socket whose input has ended soon is, and then fails (ENOENT) the first write that
     * has to wait for room. NIO and io_uring have no such limit.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("l4Configs")
    void l4ClientHalfCloseStillGetsTheWholeResponse(L4Mode mode, ThreadModel model, Transport transport)
            throws Exception {
        int size = 256 * 1024; // more than a pipe (splice) and the high-water mark (copy) hold
        try (LoopbackServer origin = Rig.origin(size);
             LoopbackServer proxy = l4Proxy(mode, model, transport, origin.port())) {
            for (int i = 0; i < 3; i++) {
                try (Conn c = RawHttp.open(proxy.port())) {
                    c.send(RawHttp.concat(RawHttp.get("/one"), RawHttp.get("/two")));
                    c.shutdownOutput();
                    for (int r = 0; r < 2; r++) {
                        Response response = c.read();
                        assertEquals(200, response.status(), response::toString);
                        assertArrayEquals(ResponseBody.bytes(size), response.body());
                    }
                    assertTrue(c.closedByPeer(), "EOF once the backend has answered and closed");
                }
            }
        }
    }

    /** The backend writes, ends its side and reads on: the client sees the FIN, and what it sends still arrives. */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("l4Configs")
    void l4BackendHalfCloseStillReceivesWhatTheClientSends(L4Mode mode, ThreadModel model, Transport transport)
            throws Exception {
        byte[] greeting = RawHttp.ascii("hello, and that is all from the backend");
        byte[] reply = RawHttp.uniqueBody(4, 200_000);
        CompletableFuture<byte[]> received = new CompletableFuture<>();
        try (TestBackend backend = TestBackend.start((socket, index) -> {
                 OutputStream out = socket.getOutputStream();
                 out.write(greeting);
                 out.flush();
                 socket.shutdownOutput();
                 received.complete(socket.getInputStream().readAllBytes()); // until the client's FIN
             });
             LoopbackServer proxy = l4Proxy(mode, model, transport, backend.port());
             Conn c = RawHttp.open(proxy.port())) {
            assertArrayEquals(greeting, RawHttp.readExactly(c.in(), greeting.length));
            assertEquals(-1, c.in().read(), "the backend's FIN, passed on");
            CompletableFuture<Void> sent = c.sendInBackground(reply, null);
            RawHttp.await(sent, 30);
            c.shutdownOutput();
            assertArrayEquals(reply, RawHttp.await(received, 30));
            backend.assertNoErrors();
        }
    }

    static Stream<Arguments> l7Configs() {
        return Rig.combinations(L7Mode.values(), BackendPool.values());
    }

    private static LoopbackServer l7Proxy(L7Mode mode, BackendPool pool, StallingBackend backend) {
        return ProxyServer.start(Rig.options(), ProxyConfig.of(Layer.L7, backend.address(),
                ThreadModel.REUSE_SERVER_THREAD).withL7Mode(mode).withBackendPool(pool));
    }

    /** A body without a length, ended by the backend's half-close: whole at the client, which is kept alive. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("l7Configs")
    void l7BackendHalfCloseEndsTheResponseWhole(L7Mode mode, BackendPool pool) throws Exception {
        try (StallingBackend backend = StallingBackend.start(); LoopbackServer proxy = l7Proxy(mode, pool, backend);
             Conn c = RawHttp.open(proxy.port())) {
            for (int i = 0; i < 2; i++) {
                Response r = c.exchange(RawHttp.get("/until-close"));
                assertEquals(200, r.status(), r::toString);
                assertArrayEquals(RawHttp.uniqueBody(3, StallingBackend.BODY), r.body());
                Response next = c.exchange(RawHttp.get("/next"));
                assertEquals(200, next.status(), "the client connection is kept: " + next);
            }
        }
    }

    /** A client that half-closes after pipelined requests (one of them to a backend that half-closes) gets all. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("l7Configs")
    void l7ClientAndBackendHalfClose(L7Mode mode, BackendPool pool) throws Exception {
        try (StallingBackend backend = StallingBackend.start(); LoopbackServer proxy = l7Proxy(mode, pool, backend);
             Conn c = RawHttp.open(proxy.port())) {
            c.send(RawHttp.concat(RawHttp.get("/a"), RawHttp.get("/until-close"), RawHttp.get("/b")));
            c.shutdownOutput();
            assertEquals("/a", c.read().bodyText());
            assertArrayEquals(RawHttp.uniqueBody(3, StallingBackend.BODY), c.read().body());
            assertEquals("/b", c.read().bodyText());
            assertTrue(c.closedByPeer(), "closed after the last response");
        }
    }
}
