package loopbench.testing;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.origin.OriginConfig;
import loopbench.origin.OriginServer;
import loopbench.proxy.Layer;
import loopbench.proxy.ProxyConfig;
import loopbench.proxy.ProxyServer;
import loopbench.server.LoopbackServer;
import loopbench.server.ServerOptions;
import org.junit.jupiter.params.provider.Arguments;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Starting the servers under test, and checking that a closed one left no thread and no port behind. */
public final class Rig {
    private Rig() {
    }

    /** 127.0.0.1:0 with the given transport and allocator (direct buffers), two io threads. */
    public static ServerOptions options(Transport transport, Allocator allocator) {
        return ServerOptions.loopbackDefaults().withTransport(transport).withAllocator(allocator, BufferType.DIRECT)
                .withIoThreads(2);
    }

    public static ServerOptions options() {
        return options(Transport.NIO, Allocator.ADAPTIVE);
    }

    /** An origin on NIO whose GET body is {@code bodySize} bytes. */
    public static LoopbackServer origin(int bodySize) {
        return OriginServer.start(options(), OriginConfig.of(bodySize));
    }

    public static LoopbackServer proxy(Layer layer, ThreadModel model, InetSocketAddress backend) {
        return ProxyServer.start(options(), ProxyConfig.of(layer, backend, model));
    }

    /** Every combination of the given knob values, one JUnit argument set each (first dimension varies slowest). */
    public static Stream<Arguments> combinations(Object[]... dimensions) {
        Stream<List<Object>> all = Stream.of(List.of());
        for (Object[] values : dimensions) {
            all = all.flatMap(prefix -> Arrays.stream(values).map(v -> {
                List<Object> next = new ArrayList<>(prefix);
                next.add(v);
                return next;
            }));
        }
        return all.map(List::toArray).map(Arguments::of);
    }

    public static InetSocketAddress loopback(int port) {
        return new InetSocketAddress("127.0.0.1", port);
    }

    /** Live threads whose name starts with {@code prefix}. */
    public static List<Thread> liveThreads(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
                .collect(Collectors.toList());
    }

    /** No live thread is named loopbench-ROLE-... (every pool of a server of that role has exited). */
    public static void assertNoThreads(String role) {
        List<Thread> left = liveThreads("loopbench-" + role + "-");
        assertTrue(left.isEmpty(), () -> "threads of '" + role + "' still alive after close: "
                + left.stream().map(Rig::whereItIs).collect(Collectors.joining("; ")));
    }

    /** "name STATE at frame <- frame <- ..." (its top 8 frames): what a thread that did not exit was doing. */
    private static String whereItIs(Thread t) {
        return t.getName() + " " + t.getState() + " at " + Arrays.stream(t.getStackTrace()).limit(8)
                .map(StackTraceElement::toString).collect(Collectors.joining(" <- "));
    }

    /** Nothing listens on the port any more, and a new listening socket can bind it again. */
    public static void assertPortFree(int port) throws IOException {
        assertThrows(ConnectException.class, () -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            }
        }, "something still accepts on port " + port);
        try (ServerSocket s = new ServerSocket()) {
            // Like any server restarting on its port (and like LoopbackServer itself): SO_REUSEADDR, so that
            // connections in TIME_WAIT from the old server do not count, only a socket still bound would.
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            assertEquals(port, s.getLocalPort());
        }
    }
}
