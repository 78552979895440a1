package loopbench.proxy;

import loopbench.echo.EchoConfig;
import loopbench.echo.EchoServer;
import loopbench.knobs.Allocator;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.RawHttp.Request;
import loopbench.testing.RawHttp.Response;
import loopbench.testing.Rig;
import loopbench.testing.Stall;
import loopbench.testing.TestBackend;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fast sender and a slow receiver, on either side of the proxy, must not make it buffer without bound. Each test
 * stops one side from reading, lets the other send far more than any chain of socket buffers holds, waits until the
 * sender's progress stops (see {@link Stall}) and checks how far it got: bounded, well short of everything. Then the
 * reader resumes and every byte must arrive intact and in order. Nothing here measures time.
 *
 * <p>The bound: on this kind of Linux a loopback socket's send buffer grows to at most 4 MiB (tcp_wmem) and its
 * receive buffer, for a socket that is not being read, stays far below the 32 MiB tcp_rmem maximum; a proxied path
 * has four sockets per direction plus a proxy that holds one read (L4) or one aggregated message (L7).
 */
class BackpressureTest {
    /** What the sender tries to send; a proxy that buffered without bound would take it all. */
    static final int TOTAL = 64 * 1024 * 1024;
    /** How much may be in flight: four socket buffers each way plus what the proxy holds (seen: up to 12 MiB). */
    static final long BOUND = 32L * 1024 * 1024;
    /** The echo path has twice the sockets (client, proxy both sides, echo server; there and back; seen: 21 MiB). */
    static final int ECHO_TOTAL = 96 * 1024 * 1024;
    static final long ECHO_BOUND = 48L * 1024 * 1024;

    /** Every thread model per client; the pool (whose backpressure is the same code) on the default model only. */
    static Stream<Arguments> modesAndModels() {
        return Stream.concat(Rig.combinations(L7Mode.values(), new Object[] {BackendPool.PER_CLIENT},
                ThreadModel.values()),
                Rig.combinations(L7Mode.values(), new Object[] {BackendPool.PER_LOOP},
                        new Object[] {ThreadModel.REUSE_SERVER_THREAD}));
    }

    private static void report(String what, long stalledAt) {
        System.err.println("backpressure " + what + ": sender stalled after " + stalledAt + " bytes");
    }

    /** L4: every thread model copying; splicing on epoll with reuse-server-thread, where it runs. */
    static Stream<Arguments> l4Modes() {
        return Stream.concat(Rig.combinations(new Object[] {L4Mode.COPY}, ThreadModel.values()),
                Stream.of(Arguments.of(L4Mode.SPLICE, ThreadModel.REUSE_SERVER_THREAD)));
    }

    private static LoopbackServer l4Proxy(L4Mode mode, ThreadModel model, java.net.InetSocketAddress backend) {
        Transport transport = mode == L4Mode.SPLICE ? Transport.EPOLL : Transport.NIO;
        return ProxyServer.start(Rig.options(transport, Allocator.ADAPTIVE),
                ProxyConfig.of(Layer.L4, backend, model).withL4Mode(mode));
    }

    /** L4 in front of the echo server: the client sends and does not read; the echo comes back through the proxy. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("l4Modes")
    void l4ClientThatDoesNotReadStallsTheSender(L4Mode mode, ThreadModel model) throws Exception {
        byte[] data = RawHttp.uniqueBody(1, ECHO_TOTAL);
        try (LoopbackServer echo = EchoServer.start(Rig.options(), EchoConfig.defaults());
             LoopbackServer proxy = l4Proxy(mode, model, echo.address());
             Conn c = RawHttp.open(proxy.port())) {
            AtomicLong written = new AtomicLong();
            CompletableFuture<Void> sent = c.sendInBackground(data, written);
            long stalledAt = Stall.await(written::get, sent);
            report("L4 " + mode + " echo " + model, stalledAt);
            assertFalse(sent.isDone(), "the client wrote all " + ECHO_TOTAL + " bytes although nobody read");
            assertTrue(stalledAt <= ECHO_BOUND, "accepted " + stalledAt + " bytes while nobody read");
            assertArrayEquals(data, RawHttp.readExactly(c.in(), ECHO_TOTAL), "echo through the proxy after the stall");
            RawHttp.await(sent, 30);
        }
    }

    /** L4 to a backend that does not read: the client's writes stall; once the backend reads, all arrives. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("l4Modes")
    void l4BackendThatDoesNotReadStallsTheClient(L4Mode mode, ThreadModel model) throws Exception {
        byte[] data = RawHttp.uniqueBody(2, TOTAL);
        CountDownLatch startReading = new CountDownLatch(1);
        CompletableFuture<byte[]> received = new CompletableFuture<>();
        try (TestBackend backend = TestBackend.start((socket, index) -> {
                 startReading.await(60, TimeUnit.SECONDS);
                 received.complete(RawHttp.readExactly(socket.getInputStream(), TOTAL));
             });
             LoopbackServer proxy = l4Proxy(mode, model, backend.address());
             Conn c = RawHttp.open(proxy.port())) {
            AtomicLong written = new AtomicLong();
            CompletableFuture<Void> sent = c.sendInBackground(data, written);
            long stalledAt = Stall.await(written::get, sent);
            report("L4 " + mode + " slow backend " + model, stalledAt);
            assertFalse(sent.isDone(), "the client wrote all " + TOTAL + " bytes although the backend read nothing");
            assertTrue(stalledAt <= BOUND, "accepted " + stalledAt + " bytes while the backend read nothing");
            startReading.countDown();
            assertArrayEquals(data, RawHttp.await(received, 60));
            RawHttp.await(sent, 30);
            backend.assertNoErrors();
        }
    }

    /** L4 from a backend that sends to a client that does not read: the backend's writes stall. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("l4Modes")
    void l4ClientThatDoesNotReadStallsTheBackend(L4Mode mode, ThreadModel model) throws Exception {
        byte[] data = RawHttp.uniqueBody(3, TOTAL);
        AtomicLong written = new AtomicLong();
        CompletableFuture<Void> backendDone = new CompletableFuture<>();
        try (TestBackend backend = TestBackend.start((socket, index) -> {
                 OutputStream out = socket.getOutputStream();
                 for (int off = 0; off < TOTAL; off += 65536) {
                     out.write(data, off, 65536);
                     written.addAndGet(65536);
                 }
                 out.flush();
                 backendDone.complete(null);
                 socket.getInputStream().read(); // wait for the close
             });
             LoopbackServer proxy = l4Proxy(mode, model, backend.address());
             Conn c = RawHttp.open(proxy.port())) {
            long stalledAt = Stall.await(written::get, backendDone);
            report("L4 " + mode + " slow client " + model, stalledAt);
            assertFalse(backendDone.isDone(),
                    "the backend wrote all " + TOTAL + " bytes although the client read nothing");
            assertTrue(stalledAt <= BOUND, "the proxy accepted " + stalledAt + " bytes while the client read nothing");
            assertArrayEquals(data, RawHttp.readExactly(c.in(), TOTAL));
            RawHttp.await(backendDone, 30);
            backend.assertNoErrors();
        }
    }

    /**
     * L7, a client that pipelines many GETs for 1 MiB bodies and reads nothing: the proxy forwards a request only
     * when the previous response has gone out, so the backend serves a bounded number of them.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesAndModels")
    void l7ClientThatDoesNotReadLimitsWhatTheBackendServes(L7Mode mode, BackendPool pool,
            ThreadModel model) throws Exception {
        int requests = 64;
        int size = 1024 * 1024;
        AtomicLong served = new AtomicLong();
        try (TestBackend backend = TestBackend.start((socket, index) -> {
                 InputStream in = socket.getInputStream();
                 OutputStream out = socket.getOutputStream();
                 Request r;
                 while ((r = RawHttp.readRequest(in)) != null) {
                     served.incrementAndGet(); // before answering, so the count is final once the client has all
                     int id = Integer.parseInt(r.target().substring(1));
                     out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + size
                             + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                     out.write(RawHttp.uniqueBody(id, size));
                     out.flush();
                 }
             });
             LoopbackServer proxy = ProxyServer.start(Rig.options(),
                     ProxyConfig.of(Layer.L7, backend.address(), model).withL7Mode(mode).withBackendPool(pool));
             Conn c = RawHttp.open(proxy.port())) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int i = 0; i < requests; i++) {
                all.writeBytes(RawHttp.get("/" + i));
            }
            c.send(all.toByteArray()); // a few KiB: the kernel takes it all at once
            long stalledAt = Stall.await(served::get, null);
            report("L7 " + mode + " " + pool + " slow client " + model + " (responses of 1 MiB)", stalledAt * size);
            assertTrue(stalledAt < requests, "the backend served every request although the client read nothing");
            assertTrue(stalledAt * size <= BOUND,
                    "the backend served " + stalledAt + " responses of 1 MiB while the client read nothing");
            for (int i = 0; i < requests; i++) {
                Response r = c.read();
                assertEquals(200, r.status(), r::toString);
                assertArrayEquals(RawHttp.uniqueBody(i, size), r.body(), "response " + i);
            }
            assertEquals(requests, served.get());
            backend.assertNoErrors();
        }
    }

    /**
     * L7, a client pipelining POSTs of 1 MiB to a backend that does not read yet: the proxy stops reading the client
     * while a request is in progress, so the client's writes stall; once the backend serves, every body is echoed.
     */
    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("modesAndModels")
    void l7BackendThatDoesNotReadStallsTheClient(L7Mode mode, BackendPool pool, ThreadModel model) throws Exception {
        int size = 1024 * 1024;
        int requests = TOTAL / size;
        CountDownLatch startReading = new CountDownLatch(1);
        try (TestBackend backend = TestBackend.start((socket, index) -> {
                 startReading.await(60, TimeUnit.SECONDS);
                 InputStream in = socket.getInputStream();
                 OutputStream out = socket.getOutputStream();
                 Request r;
                 while ((r = RawHttp.readRequest(in)) != null) {
                     out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + r.body().length
                             + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                     out.write(r.body());
                     out.flush();
                 }
             });
             LoopbackServer proxy = ProxyServer.start(Rig.options(),
                     ProxyConfig.of(Layer.L7, backend.address(), model).withL7Mode(mode).withBackendPool(pool));
             Conn c = RawHttp.open(proxy.port())) {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int i = 0; i < requests; i++) {
                all.writeBytes(RawHttp.post("/" + i, RawHttp.uniqueBody(i, size)));
            }
            AtomicLong written = new AtomicLong();
            CompletableFuture<Void> sent = c.sendInBackground(all.toByteArray(), written);
            long stalledAt = Stall.await(written::get, sent);
            report("L7 " + mode + " " + pool + " slow backend " + model, stalledAt);
            assertFalse(sent.isDone(),
                    "the client wrote all " + requests + " requests although the backend read nothing");
            assertTrue(stalledAt <= BOUND, "accepted " + stalledAt + " bytes while the backend read nothing");
            startReading.countDown();
            for (int i = 0; i < requests; i++) {
                Response r = c.read();
                assertEquals(200, r.status(), r::toString);
                assertArrayEquals(RawHttp.uniqueBody(i, size), r.body(), "response " + i);
            }
            RawHttp.await(sent, 30);
            backend.assertNoErrors();
        }
    }
}
