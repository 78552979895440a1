package loopbench.server;

import io.netty.channel.Channel;
import loopbench.echo.EchoConfig;
import loopbench.echo.EchoServer;
import loopbench.knobs.Allocator;
import loopbench.knobs.EpollMode;
import loopbench.knobs.EpollModes;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.line.NettyLine;
import loopbench.origin.OriginConfig;
import loopbench.origin.OriginServer;
import loopbench.proxy.Layer;
import loopbench.proxy.ProxyConfig;
import loopbench.proxy.ProxyServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.Rig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code --epoll-mode} really reaches the sockets: on Netty 4.1 every server (origin, echo, L4 and L7 proxy) has its
 * listening socket and each connection it accepts in the mode asked for, read back from the channels' own config,
 * and still serves; its ready line says so. Without the option each line keeps its default (4.1 edge, 4.2 level).
 * On 4.2 (level-triggered only) the option is refused, and on a transport other than epoll too.
 */
class EpollModeTest {
    private static final NettyLine LINE = NettyLine.current();

    record Kind(String name, Function<ServerOptions, LoopbackServer> start, boolean http) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> serversAndModes() {
        List<Kind> kinds = List.of(
                new Kind("origin", o -> OriginServer.start(o, OriginConfig.of(100)), true),
                new Kind("echo", o -> EchoServer.start(o, EchoConfig.defaults()), false),
                new Kind("proxy L4", o -> ProxyServer.start(o, ProxyConfig.of(Layer.L4, backend(),
                        ThreadModel.REUSE_SERVER_THREAD)), true),
                new Kind("proxy L7", o -> ProxyServer.start(o, ProxyConfig.of(Layer.L7, backend(),
                        ThreadModel.REUSE_SERVER_THREAD)), true));
        return Rig.combinations(kinds.toArray(), new Object[] {"edge,edge", "edge,level", "level,edge", "level,level"});
    }

    private static LoopbackServer backendOrigin;

    @BeforeAll
    static void startBackend() {
        backendOrigin = Rig.origin(100);
    }

    @AfterAll
    static void stopBackend() {
        backendOrigin.close();
    }

    /** The origin behind the proxies. */
    private static java.net.InetSocketAddress backend() {
        return backendOrigin.address();
    }

    private static void assumeLineChooses() {
        assumeTrue(LINE.epollModeRefusal() == null, () -> "this line cannot choose: " + LINE.epollModeRefusal());
        assumeTrue(Transport.EPOLL.isAvailable(), () -> "no epoll here: " + Transport.EPOLL.unavailabilityCause());
    }

    @ParameterizedTest(name = "{0} --epoll-mode {1}")
    @MethodSource("serversAndModes")
    void theModeReachesTheListeningSocketAndEveryAcceptedConnection(Kind kind, String modes) throws Exception {
        assumeLineChooses();
        EpollModes asked = EpollModes.parse(modes);
        try (LoopbackServer server = kind.start().apply(Rig.options(Transport.EPOLL, Allocator.POOLED)
                .withEpollModes(asked))) {
            try (Conn a = RawHttp.open(server.port()); Conn b = RawHttp.open(server.port())) {
                ServerLifecycleTest.exercise(a, kind.http());
                ServerLifecycleTest.exercise(b, kind.http());
                List<Channel> accepted = awaitAccepted(server, 2);
                assertEquals(asked.listening() == EpollMode.EDGE, LINE.edgeTriggered(server.serverChannel()),
                        "listening socket");
                for (Channel ch : accepted) {
                    assertEquals(asked.accepted() == EpollMode.EDGE, LINE.edgeTriggered(ch), "accepted " + ch);
                }
                assertTrue(server.stack().endsWith("transport=epoll epoll-mode=" + modes), server.stack());
            }
        }
    }

    @Test
    void withoutTheOptionEachLineKeepsItsDefault() throws Exception {
        assumeTrue(Transport.EPOLL.isAvailable(), () -> "no epoll here: " + Transport.EPOLL.unavailabilityCause());
        boolean edgeByDefault = "4.1".equals(LINE.name()); // 4.1: edge-triggered; 4.2: level, the only mode it has
        try (LoopbackServer server = OriginServer.start(Rig.options(Transport.EPOLL, Allocator.POOLED),
                OriginConfig.of(100));
             Conn c = RawHttp.open(server.port())) {
            ServerLifecycleTest.exercise(c, true);
            assertEquals(edgeByDefault, LINE.edgeTriggered(server.serverChannel()));
            assertEquals(edgeByDefault, LINE.edgeTriggered(awaitAccepted(server, 1).get(0)));
            String mode = edgeByDefault ? "edge,edge" : "level,level";
            assertTrue(server.stack().endsWith("transport=epoll epoll-mode=" + mode), server.stack());
        }
    }

    @Test
    void aLevelOnlyLineRefusesTheOption() {
        assumeTrue(LINE.epollModeRefusal() != null, "this line can choose (Netty 4.1)");
        for (String modes : new String[] {"edge", "level", "edge,level"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Rig.options(Transport.EPOLL, Allocator.POOLED).withEpollModes(EpollModes.parse(modes)));
            assertTrue(e.getMessage().contains("level-triggered only") && e.getMessage().contains("4.2"),
                    e.getMessage());
        }
    }

    @Test
    void theOptionNeedsEpoll() {
        assumeTrue(LINE.epollModeRefusal() == null, "this line refuses the option whatever the transport");
        for (Transport t : new Transport[] {Transport.NIO, Transport.IO_URING}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Rig.options(t, Allocator.POOLED).withEpollModes(EpollModes.parse("edge")));
            assertEquals("--epoll-mode edge,edge needs --transport epoll (the transport is " + t.cliName() + ")",
                    e.getMessage());
        }
    }

    @Test
    void badModesNameTheValidOnes() {
        for (String bad : new String[] {"sideways", "edge,", "edge,level,edge", "EDGE"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> EpollModes.parse(bad));
            assertTrue(e.getMessage().contains("edge, level"), e.getMessage());
        }
        assertEquals(new EpollModes(EpollMode.LEVEL, EpollMode.LEVEL), EpollModes.parse("level"));
        assertEquals(new EpollModes(EpollMode.EDGE, EpollMode.LEVEL), EpollModes.parse("edge,level"));
    }

    /** The server's accepted connections once there are {@code n} (an exchange on each has completed already). */
    private static List<Channel> awaitAccepted(LoopbackServer server, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<Channel> accepted = server.acceptedChannels();
        while (accepted.size() < n && System.nanoTime() < deadline) {
            Thread.sleep(5);
            accepted = server.acceptedChannels();
        }
        assertEquals(n, accepted.size(), "accepted connections");
        return accepted;
    }
}
