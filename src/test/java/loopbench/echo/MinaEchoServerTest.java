package loopbench.echo;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.RecvAllocator;
import loopbench.knobs.Transport;
import loopbench.server.ServerOptions;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.Rig;
import loopbench.testing.Stall;
import org.apache.mina.core.buffer.IoBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The echo server on Apache Mina: every byte comes back for the C003 article's message sizes (and 1 B and 1 MiB), with
 * and without the ExecutorFilter, with Mina's own read-buffer sizing and with a fixed size, heap and direct buffers, on
 * one connection and on several at once; a client that does not read stalls the sender instead of filling the
 * server's memory; Mina's own sizing really moves the read buffer (halving) or leaves it alone (fixed:N); close()
 * closes every connection and frees the port and every thread.
 */
class MinaEchoServerTest {
    static final int[] SIZES = {1, 1024, 5 * 1024, 10 * 1024, 50 * 1024, 100 * 1024, 1024 * 1024};
    /** Prefixes of the threads a Mina echo server runs: its pools, and Mina's names for them while they run. */
    static final String[] THREAD_PREFIXES = {"loopbench-echo-", "NioProcessor-", "NioSocketAcceptor-"};

    static ServerOptions options(BufferType buffers) {
        return Rig.options().withAllocator(MinaEchoServer.DEFAULT_ALLOCATOR, buffers);
    }

    static MinaEchoServer start(String recv, EchoExecutor executor) {
        return MinaEchoServer.start(options(MinaEchoServer.DEFAULT_BUFFERS),
                new EchoConfig(RecvAllocator.parse(recv), executor, 2));
    }

    static Stream<Arguments> configs() {
        return Rig.combinations(new String[] {"halving", "fixed:2048"}, EchoExecutor.values(), BufferType.values());
    }

    @Tag("jdk25") // Mina on JDK 25 too
    @ParameterizedTest(name = "{0} executor={1} buffers={2}")
    @MethodSource("configs")
    void roundTripsAreIntact(String recv, EchoExecutor executor, BufferType buffers) throws Exception {
        EchoConfig config = new EchoConfig(RecvAllocator.parse(recv), executor, 2);
        try (MinaEchoServer echo = MinaEchoServer.start(options(buffers), config)) {
            assertEquals(buffers == BufferType.DIRECT, IoBuffer.isUseDirectBuffer(), "Mina's buffer type");
            EchoRoundTrips.check(echo.port(), SIZES, 2, 6);
        }
        assertNoMinaThreads();
        assertFalse(IoBuffer.isUseDirectBuffer(), "Mina's default (heap) is back once no Mina server runs");
    }

    /**
     * A client that sends 64 MiB and reads nothing: the server stops reading once its writes back are pending, so the
     * client's writes stall after what the socket buffers hold (see BackpressureTest for the bound), well short of
     * everything; a server that kept reading would queue it all in memory. Then every byte comes back in order.
     */
    @ParameterizedTest
    @EnumSource(EchoExecutor.class)
    void aClientThatDoesNotReadStallsTheSender(EchoExecutor executor) throws Exception {
        int total = 64 * 1024 * 1024;
        long bound = 32L * 1024 * 1024;
        byte[] data = RawHttp.uniqueBody(1, total);
        try (MinaEchoServer echo = start("halving", executor);
             Conn c = RawHttp.open(echo.port())) {
            AtomicLong written = new AtomicLong();
            CompletableFuture<Void> sent = c.sendInBackground(data, written);
            long stalledAt = Stall.await(written::get, sent);
            System.err.println("backpressure mina echo executor=" + executor.cliName() + ": sender stalled after "
                    + stalledAt + " bytes");
            assertFalse(sent.isDone(), "the client wrote all " + total + " bytes although it read nothing");
            assertTrue(stalledAt <= bound, "the server accepted " + stalledAt + " bytes while the client read nothing");
            assertArrayEquals(data, RawHttp.readExactly(c.in(), total), "the echo after the stall");
            RawHttp.await(sent, 30);
        }
        assertNoMinaThreads();
    }

    /**
     * halving is Mina's own sizing at work: from 2048 bytes, 5 KiB messages make NioProcessor double the session's read
     * buffer (a read that fills it), and 1-byte messages make it halve it, every second small read, down to Mina's
     * minimum of 64.
     */
    @ParameterizedTest
    @EnumSource(EchoExecutor.class)
    void halvingIsMinasOwnSizing(EchoExecutor executor) throws Exception {
        try (MinaEchoServer echo = start("halving", executor);
             Conn c = RawHttp.open(echo.port())) {
            assertEquals(MinaEchoServer.INITIAL_READ_BUFFER_SIZE, readBufferSize(echo), "before any read");
            List<Integer> afterEach = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                EchoRoundTrips.roundTrip(c, RawHttp.uniqueBody(i, 5 * 1024));
                afterEach.add(readBufferSize(echo));
            }
            int grown = afterEach.stream().mapToInt(Integer::intValue).max().orElseThrow();
            assertTrue(grown > MinaEchoServer.INITIAL_READ_BUFFER_SIZE,
                    "5 KiB messages grew the read buffer: " + afterEach);
            for (int i = 0; i < 24; i++) {
                EchoRoundTrips.roundTrip(c, new byte[] {(byte) i});
            }
            assertEquals(MinaEchoServer.MIN_READ_BUFFER_SIZE, readBufferSize(echo),
                    "1-byte messages shrank the read buffer to Mina's minimum, after 5 KiB messages left it at "
                            + afterEach);
        }
    }

    /** fixed:N: min = max = N, so Mina's sizing cannot move the read buffer, whatever the message sizes. */
    @ParameterizedTest
    @EnumSource(EchoExecutor.class)
    void fixedKeepsTheReadBufferAtItsSize(EchoExecutor executor) throws Exception {
        try (MinaEchoServer echo = MinaEchoServer.start(options(MinaEchoServer.DEFAULT_BUFFERS),
                new EchoConfig(RecvAllocator.fixed(3000), executor, 2));
             Conn c = RawHttp.open(echo.port())) {
            List<Integer> seen = new ArrayList<>();
            seen.add(readBufferSize(echo));
            for (int size : new int[] {5 * 1024, 5 * 1024, 100 * 1024, 1, 1, 1, 1, 5 * 1024, 1, 1}) {
                EchoRoundTrips.roundTrip(c, RawHttp.uniqueBody(size, size));
                seen.add(readBufferSize(echo));
            }
            assertTrue(seen.stream().allMatch(s -> s == 3000), "read buffer sizes under fixed:3000: " + seen);
        }
    }

    /** The read-buffer size of the server's one connection, once the server has accepted it. */
    private static int readBufferSize(MinaEchoServer echo) throws InterruptedException {
        for (int i = 0; i < 500 && echo.readBufferSizes().isEmpty(); i++) {
            Thread.sleep(10);
        }
        List<Integer> sizes = echo.readBufferSizes();
        assertEquals(1, sizes.size(), "one open connection: " + sizes);
        return sizes.get(0);
    }

    @ParameterizedTest
    @EnumSource(EchoExecutor.class)
    void closeClosesConnectionsAndFreesPortAndThreads(EchoExecutor executor) throws Exception {
        MinaEchoServer echo = start("halving", executor);
        int port = echo.port();
        Conn idle = null;
        Conn busy = null;
        List<Thread> threads;
        try {
            idle = RawHttp.open(port);
            busy = RawHttp.open(port);
            EchoRoundTrips.roundTrip(idle, RawHttp.uniqueBody(1, 10));
            EchoRoundTrips.roundTrip(busy, RawHttp.uniqueBody(2, 5000));
            threads = minaThreads();
            assertTrue(threads.stream().anyMatch(t -> t.getName().startsWith("NioSocketAcceptor-")),
                    "an acceptor: " + threads);
            assertTrue(threads.stream().anyMatch(t -> t.getName().startsWith("NioProcessor-")),
                    "I/O processors: " + threads);
            assertEquals(executor == EchoExecutor.GROUP,
                    threads.stream().anyMatch(t -> t.getName().startsWith("loopbench-echo-mina-executor-")),
                    "ExecutorFilter threads exactly with executor group: " + threads);
            busy.sendInBackground(RawHttp.uniqueBody(3, 1024 * 1024), null); // still in flight when close() starts
        } finally {
            echo.close();
        }
        for (Thread t : threads) {
            assertFalse(t.isAlive(), "thread " + t.getName() + " outlived the server");
        }
        assertNoMinaThreads();
        Rig.assertPortFree(port);
        assertTrue(idle.closedByPeer(), "an idle connection is closed by the shutdown");
        busy.close();
        idle.close();
        echo.close(); // idempotent
    }

    @Test
    void portTakenFailsWithTheAddressAndLeavesNoThreads() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            ServerOptions at = new ServerOptions(new InetSocketAddress("127.0.0.1", taken.getLocalPort()),
                    Transport.NIO, MinaEchoServer.DEFAULT_ALLOCATOR, BufferType.HEAP, 1);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> MinaEchoServer.start(at, new EchoConfig(RecvAllocator.HALVING, EchoExecutor.GROUP, 1)));
            assertTrue(e.getMessage().contains("cannot listen on 127.0.0.1:" + taken.getLocalPort())
                    && e.getMessage().contains("in use"), e.getMessage());
        }
        assertNoMinaThreads();
        // Nothing of the failed server is left holding Mina's JVM-wide buffer type.
        MinaEchoServer.start(options(BufferType.DIRECT),
                new EchoConfig(RecvAllocator.HALVING, EchoExecutor.NONE, 1)).close();
    }

    /** Mina's buffer type is JVM-wide: a second server that disagrees is refused, one that agrees runs. */
    @Test
    void minaServersOfOneJvmShareTheBufferType() {
        EchoConfig config = new EchoConfig(RecvAllocator.HALVING, EchoExecutor.NONE, 1);
        try (MinaEchoServer heap = MinaEchoServer.start(options(BufferType.HEAP), config);
             MinaEchoServer alsoHeap = MinaEchoServer.start(options(BufferType.HEAP), config)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> MinaEchoServer.start(options(BufferType.DIRECT), config));
            assertTrue(e.getMessage().contains("--buffers heap") && e.getMessage().contains("--buffers direct"),
                    e.getMessage());
            assertFalse(IoBuffer.isUseDirectBuffer());
            assertTrue(heap.port() != alsoHeap.port());
        }
        assertNoMinaThreads();
    }

    @Test
    void nettyOnlyKnobsAreRefusedNamingTheValidValues() {
        EchoConfig halving = new EchoConfig(RecvAllocator.HALVING, EchoExecutor.NONE, 1);
        ServerOptions ok = options(BufferType.HEAP);
        assertThrowsNaming(() -> MinaEchoServer.checkSupported(ok.withTransport(Transport.EPOLL), halving),
                "'epoll'", "valid values for --server mina: nio");
        assertThrowsNaming(() -> MinaEchoServer.checkSupported(
                        ok.withAllocator(Allocator.POOLED, BufferType.HEAP), halving),
                "'pooled'", "valid values for --server mina: unpooled");
        assertThrowsNaming(() -> MinaEchoServer.checkSupported(ok,
                new EchoConfig(RecvAllocator.ADAPTIVE, EchoExecutor.NONE, 1)),
                "'adaptive'", "valid values for --server mina: halving", "fixed:BYTES");
        MinaEchoServer.checkSupported(ok, halving);
        MinaEchoServer.checkSupported(ok.withAllocator(MinaEchoServer.DEFAULT_ALLOCATOR, BufferType.DIRECT),
                new EchoConfig(RecvAllocator.fixed(2048), EchoExecutor.GROUP, 1));
        assertThrows(IllegalArgumentException.class,
                () -> MinaEchoServer.start(ok.withTransport(Transport.EPOLL), halving));
        assertEquals(EchoFramework.MINA, EchoFramework.parse("mina"));
        assertEquals(RecvAllocator.HALVING, EchoFramework.MINA.defaultRecvAllocator());
        assertEquals(RecvAllocator.ADAPTIVE, EchoFramework.NETTY.defaultRecvAllocator());
        assertThrowsNaming(() -> EchoFramework.parse("grizzly"), "'grizzly'", "netty, mina");
    }

    private static void assertThrowsNaming(org.junit.jupiter.api.function.Executable call, String... mentions) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call);
        for (String m : mentions) {
            assertTrue(e.getMessage().contains(m), () -> "should mention " + m + ": " + e.getMessage());
        }
    }

    static List<Thread> minaThreads() {
        return Stream.of(THREAD_PREFIXES).flatMap(p -> Rig.liveThreads(p).stream()).collect(Collectors.toList());
    }

    static void assertNoMinaThreads() {
        List<Thread> left = minaThreads();
        assertTrue(left.isEmpty(), () -> "Mina echo threads alive after close: "
                + left.stream().map(t -> t.getName() + " " + t.getState()).collect(Collectors.toList()));
        Rig.assertNoThreads("echo");
    }
}
