package loopbench.server;

import loopbench.echo.EchoConfig;
import loopbench.echo.EchoExecutor;
import loopbench.echo.EchoServer;
import loopbench.knobs.Allocator;
import loopbench.knobs.RecvAllocator;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.origin.OriginConfig;
import loopbench.origin.OriginServer;
import loopbench.origin.ResponseBody;
import loopbench.origin.WorkStrategy;
import loopbench.proxy.Layer;
import loopbench.proxy.ProxyConfig;
import loopbench.proxy.ProxyServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Graceful shutdown: LoopbackServer.close() closes every connection, frees the port (nothing accepts on it, and a
 * new server can bind it) and ends every thread the server started (named loopbench-ROLE-POOL-...), for each kind
 * of server, including those with extra pools (origin executors, echo executor group, the proxy's backend group
 * under individual-group), on every transport. Each server is closed while connections are open and in use.
 */
class ServerLifecycleTest {

    /** A kind of server: its role, how to start it on a transport given a backend address, what to send it. */
    record Kind(String name, String role, Function<Transport, LoopbackServer> start, boolean http) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> kinds() {
        List<Kind> kinds = new ArrayList<>();
        kinds.add(new Kind("origin", "origin",
                t -> OriginServer.start(Rig.options(t, Allocator.POOLED), OriginConfig.of(100)), true));
        for (WorkStrategy s : new WorkStrategy[] {WorkStrategy.PIPELINE_EXECUTOR, WorkStrategy.OFFLOAD_EXECUTOR,
                WorkStrategy.TIMER}) {
            kinds.add(new Kind("origin " + s.cliName(), "origin",
                    t -> OriginServer.start(Rig.options(t, Allocator.POOLED), OriginConfig.of(100).withWork(1, s)),
                    true));
        }
        for (EchoExecutor e : EchoExecutor.values()) {
            kinds.add(new Kind("echo executor=" + e.cliName(), "echo",
                    t -> EchoServer.start(Rig.options(t, Allocator.POOLED),
                            new EchoConfig(RecvAllocator.ADAPTIVE, e, 2)), false));
        }
        List<Arguments> all = new ArrayList<>();
        for (Transport t : Transport.values()) {
            for (Kind k : kinds) {
                all.add(Arguments.of(k, t));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("kinds")
    void closeFreesPortAndThreads(Kind kind, Transport transport) throws Exception {
        LoopbackServer server = kind.start().apply(transport);
        int port = server.port();
        Conn idle = null;
        Conn busy = null;
        try {
            idle = RawHttp.open(port);
            busy = RawHttp.open(port);
            exercise(busy, kind.http());
            exercise(idle, kind.http());
            assertFalse(Rig.liveThreads("loopbench-" + kind.role() + "-").isEmpty(), "the server runs threads");
        } finally {
            server.close();
        }
        Rig.assertNoThreads(kind.role());
        Rig.assertPortFree(port);
        assertTrue(idle.closedByPeer(), "an open connection is closed by the shutdown");
        assertTrue(busy.closedByPeer(), "an open connection is closed by the shutdown");
        idle.close();
        busy.close();
    }

    /** One exchange: a GET of a 100-byte body, or 5,000 bytes echoed. */
    static void exercise(Conn c, boolean http) throws Exception {
        if (http) {
            assertArrayEquals(ResponseBody.bytes(100), c.exchange(RawHttp.get("/")).body());
        } else {
            byte[] b = RawHttp.uniqueBody(1, 5000);
            c.send(b);
            assertArrayEquals(b, RawHttp.readExactly(c.in(), b.length));
        }
    }

    static Stream<Arguments> proxies() {
        return Rig.combinations(Layer.values(), ThreadModel.values(), Transport.values());
    }

    @ParameterizedTest(name = "L{0} {1} {2}")
    @MethodSource("proxies")
    void proxyCloseFreesPortAndThreadsAndClosesBothSides(Layer layer, ThreadModel model, Transport transport)
            throws Exception {
        List<CompletableFuture<Void>> backendSawEof = new CopyOnWriteArrayList<>();
        try (TestBackend backend = TestBackend.start((socket, index) -> {
            CompletableFuture<Void> eof = new CompletableFuture<>();
            backendSawEof.add(eof);
            OutputStream out = socket.getOutputStream();
            while (RawHttp.readRequest(socket.getInputStream()) != null) {
                out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"));
                out.write(ResponseBody.bytes(100));
                out.flush();
            }
            eof.complete(null);
        })) {
            LoopbackServer proxy = ProxyServer.start(Rig.options(transport, Allocator.ADAPTIVE),
                    ProxyConfig.of(layer, backend.address(), model));
            int port = proxy.port();
            Conn c;
            Conn idle;
            try {
                idle = RawHttp.open(port);
                c = RawHttp.open(port);
                assertArrayEquals(ResponseBody.bytes(100), c.exchange(RawHttp.get("/")).body());
                boolean ownGroup = !Rig.liveThreads("loopbench-proxy-backend-io-").isEmpty();
                assertEquals(model == ThreadModel.INDIVIDUAL_GROUP, ownGroup,
                        "a backend group of its own exactly under individual-group");
                // L4 connects to the backend when a client connects, the idle client's too, but that client may sit
                // on another event loop whose connect is still in flight: wait (bounded) until the backend has
                // every connection, so that the shutdown below is what must close them.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (backendSawEof.size() < (layer == Layer.L4 ? 2 : 1) && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
            } finally {
                proxy.close();
            }
            Rig.assertNoThreads("proxy");
            Rig.assertPortFree(port);
            assertTrue(c.closedByPeer(), "the client connection is closed by the shutdown");
            assertTrue(idle.closedByPeer(), "an idle client connection is closed by the shutdown");
            c.close();
            idle.close();
            assertEquals(layer == Layer.L4 ? 2 : 1, backendSawEof.size(), "backend connections");
            for (CompletableFuture<Void> eof : backendSawEof) {
                RawHttp.await(eof, 10); // every backend connection was closed too
            }
            backend.assertNoErrors();
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aServerCanListenAgainOnTheSamePortAfterClose(Transport transport) throws Exception {
        LoopbackServer first = OriginServer.start(Rig.options(transport, Allocator.ADAPTIVE), OriginConfig.of(10));
        InetSocketAddress at = first.address();
        try (Conn c = RawHttp.open(first.port())) {
            c.exchange(RawHttp.get("/"));
        } finally {
            first.close();
        }
        ServerOptions same = new ServerOptions(at, transport, Allocator.ADAPTIVE, loopbench.knobs.BufferType.DIRECT, 1);
        try (LoopbackServer second = OriginServer.start(same, OriginConfig.of(10));
             Conn c = RawHttp.open(at.getPort())) {
            assertEquals(at.getPort(), second.port());
            assertArrayEquals(ResponseBody.bytes(10), c.exchange(RawHttp.get("/")).body());
        }
    }

    @Test
    void portTakenFailsWithTheAddressAndLeavesNoThreads() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            ServerOptions at = new ServerOptions(new InetSocketAddress("127.0.0.1", taken.getLocalPort()),
                    Transport.NIO, Allocator.ADAPTIVE, loopbench.knobs.BufferType.DIRECT, 1);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> EchoServer.start(at, EchoConfig.defaults()));
            assertTrue(e.getMessage().contains("127.0.0.1:" + taken.getLocalPort()), e.getMessage());
        }
        Rig.assertNoThreads("echo");
    }
}
