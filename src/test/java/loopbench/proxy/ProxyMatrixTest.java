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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Bytes arrive intact through the proxy for every layer x thread model x transport x allocator (54 configs): each
 * config's proxy is started once and sees request and response bodies of 0 B, 1 B, 64 KiB and 1 MiB one after another
 * on a keep-alive connection, the same mixed with GET and HEAD in one pipelined write, and 128 connections open at
 * once, each with its own body. The backend is one origin (POST echoes the body, GET answers ResponseBody.bytes).
 * L4 forwards these HTTP bytes without understanding them, so the same oracle checks both layers. L7 in stream mode,
 * and L7 with a backend pool per event loop (both modes), run the same checks for every thread model and transport;
 * L4 splicing (epoll, reuse-server-thread) for every allocator.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProxyMatrixTest {
    static final int[] SIZES = {0, 1, 64 * 1024, 1024 * 1024};
    static final int GET_BODY = 64 * 1024;
    static final int CONCURRENT = 128;

    private LoopbackServer origin;
    /** One origin per GET body size, for the GET check below. */
    private final Map<Integer, LoopbackServer> originsBySize = new HashMap<>();
    private ExecutorService clients;

    @BeforeAll
    void startOrigin() {
        origin = Rig.origin(GET_BODY);
        for (int size : SIZES) {
            originsBySize.put(size, Rig.origin(size));
        }
        clients = Executors.newFixedThreadPool(16);
    }

    @AfterAll
    void stop() throws InterruptedException {
        clients.shutdownNow();
        clients.awaitTermination(10, TimeUnit.SECONDS);
        originsBySize.values().forEach(LoopbackServer::close);
        if (origin != null) {
            origin.close();
        }
    }

    static Stream<Arguments> configs() {
        return Rig.combinations(Layer.values(), ThreadModel.values(), Transport.values(), Allocator.values());
    }

    @ParameterizedTest(name = "L{0} {1} {2} {3}")
    @MethodSource("configs")
    void bytesArriveIntact(Layer layer, ThreadModel model, Transport transport, Allocator allocator) throws Exception {
        try (LoopbackServer proxy = ProxyServer.start(Rig.options(transport, allocator),
                ProxyConfig.of(layer, origin.address(), model))) {
            sequential(proxy.port());
            pipelined(proxy.port());
            concurrent(proxy.port());
        }
        Rig.assertNoThreads("proxy");
    }

    /** Stream mode (L7 without aggregators): every thread model x transport, one allocator. */
    static Stream<Arguments> streamConfigs() {
        return Rig.combinations(ThreadModel.values(), Transport.values());
    }

    @ParameterizedTest(name = "L7 stream {0} {1}")
    @MethodSource("streamConfigs")
    void bytesArriveIntactWhenStreaming(ThreadModel model, Transport transport) throws Exception {
        try (LoopbackServer proxy = ProxyServer.start(Rig.options(transport, Allocator.ADAPTIVE),
                ProxyConfig.of(Layer.L7, origin.address(), model).withL7Mode(L7Mode.STREAM))) {
            sequential(proxy.port());
            pipelined(proxy.port());
            concurrent(proxy.port());
        }
        Rig.assertNoThreads("proxy");
    }

    /** L4 splicing socket to socket (epoll, reuse-server-thread only), every allocator: the bytes a copy would move. */
    @ParameterizedTest(name = "L4 splice {0}")
    @EnumSource(Allocator.class)
    void bytesArriveIntactWhenSplicing(Allocator allocator) throws Exception {
        try (LoopbackServer proxy = ProxyServer.start(Rig.options(Transport.EPOLL, allocator),
                ProxyConfig.of(Layer.L4, origin.address(), ThreadModel.REUSE_SERVER_THREAD)
                        .withL4Mode(L4Mode.SPLICE))) {
            sequential(proxy.port());
            pipelined(proxy.port());
            concurrent(proxy.port());
        }
        Rig.assertNoThreads("proxy");
    }

    /** A keep-alive pool per event loop, shared by the client connections: every L7 mode x thread model x transport. */
    static Stream<Arguments> pooledConfigs() {
        return Rig.combinations(L7Mode.values(), ThreadModel.values(), Transport.values());
    }

    @ParameterizedTest(name = "L7 {0} per-loop {1} {2}")
    @MethodSource("pooledConfigs")
    void bytesArriveIntactThroughAPerLoopPool(L7Mode mode, ThreadModel model, Transport transport) throws Exception {
        try (LoopbackServer proxy = ProxyServer.start(Rig.options(transport, Allocator.ADAPTIVE),
                ProxyConfig.of(Layer.L7, origin.address(), model).withL7Mode(mode)
                        .withBackendPool(BackendPool.PER_LOOP))) {
            sequential(proxy.port());
            pipelined(proxy.port());
            concurrent(proxy.port());
        }
        Rig.assertNoThreads("proxy");
    }

    static Stream<Arguments> layersAndModels() {
        return Rig.combinations(Layer.values(), ThreadModel.values());
    }

    /** GET response bodies of every size (the origin's --body-size), sequential, after HEAD, and pipelined. */
    @Tag("jdk25") // a proxy smoke test on JDK 25 too
    @ParameterizedTest(name = "L{0} {1}")
    @MethodSource("layersAndModels")
    void getBodiesOfEverySizeArriveIntact(Layer layer, ThreadModel model) throws Exception {
        for (int size : SIZES) {
            byte[] expected = ResponseBody.bytes(size);
            try (LoopbackServer proxy = Rig.proxy(layer, model, originsBySize.get(size).address());
                 Conn c = RawHttp.open(proxy.port())) {
                for (int i = 0; i < 2; i++) {
                    Response r = c.exchange(RawHttp.get("/" + i));
                    assertEquals(String.valueOf(size), r.header("Content-Length"), r::toString);
                    assertArrayEquals(expected, r.body(), "GET " + size + " B");
                }
                c.send(RawHttp.concat(RawHttp.get("/a"), RawHttp.head("/b"), RawHttp.get("/c"), RawHttp.get("/d")));
                assertArrayEquals(expected, c.read().body());
                assertEquals(String.valueOf(size), c.readToHead().header("Content-Length"));
                assertArrayEquals(expected, c.read().body());
                assertArrayEquals(expected, c.read().body());
            }
        }
    }

    /** One keep-alive connection, one request at a time: POST echo of every size, then GET. */
    private void sequential(int port) throws Exception {
        try (Conn c = RawHttp.open(port)) {
            for (int size : SIZES) {
                byte[] body = ResponseBody.bytes(size);
                Response r = c.exchange(RawHttp.post("/echo", body));
                assertEquals(200, r.status(), () -> "POST " + size + ": " + r);
                assertEquals(String.valueOf(size), r.header("Content-Length"));
                assertArrayEquals(body, r.body(), "POST " + size + " B echo");
            }
            Response get = c.exchange(RawHttp.get("/"));
            assertEquals(200, get.status());
            assertArrayEquals(ResponseBody.bytes(GET_BODY), get.body(), "GET body");
        }
    }

    /** Every size in one write, mixed with GET and HEAD, then the responses read in order. */
    private void pipelined(int port) throws Exception {
        List<byte[]> expected = new ArrayList<>();
        List<Boolean> heads = new ArrayList<>();
        ByteArrayOutputStream requests = new ByteArrayOutputStream();
        requests.writeBytes(RawHttp.get("/first"));
        expected.add(ResponseBody.bytes(GET_BODY));
        heads.add(false);
        for (int size : SIZES) {
            byte[] body = RawHttp.uniqueBody(size, size);
            requests.writeBytes(RawHttp.post("/echo/" + size, body));
            expected.add(body);
            heads.add(false);
            requests.writeBytes(RawHttp.head("/head"));
            expected.add(new byte[0]);
            heads.add(true);
        }
        requests.writeBytes(RawHttp.get("/last"));
        expected.add(ResponseBody.bytes(GET_BODY));
        heads.add(false);

        try (Conn c = RawHttp.open(port)) {
            CompletableFuture<Void> written = c.sendInBackground(requests.toByteArray(), null);
            for (int i = 0; i < expected.size(); i++) {
                Response r = heads.get(i) ? c.readToHead() : c.read();
                int n = i;
                assertEquals(200, r.status(), () -> "pipelined response " + n + ": " + r);
                if (heads.get(i)) {
                    assertEquals(String.valueOf(GET_BODY), r.header("Content-Length"), "HEAD Content-Length");
                }
                assertArrayEquals(expected.get(i), r.body(), "pipelined response " + i + " out of " + expected.size());
            }
            RawHttp.await(written, 30);
        }
    }

    /** CONCURRENT connections open at the same time, each POSTing its own body and then GETting, from 16 threads. */
    private void concurrent(int port) throws Exception {
        List<Conn> conns = new ArrayList<>();
        try {
            for (int i = 0; i < CONCURRENT; i++) {
                conns.add(RawHttp.open(port));
            }
            List<Future<?>> results = new ArrayList<>();
            for (int i = 0; i < CONCURRENT; i++) {
                Conn c = conns.get(i);
                int id = i;
                results.add(clients.submit(() -> {
                    byte[] body = RawHttp.uniqueBody(1000 + id, 100 + 37 * id);
                    Response r = c.exchange(RawHttp.post("/c/" + id, body));
                    assertEquals(200, r.status(), () -> "connection " + id + ": " + r);
                    assertArrayEquals(body, r.body(), "connection " + id + " got another body");
                    Response g = c.exchange(RawHttp.get("/c/" + id));
                    assertArrayEquals(ResponseBody.bytes(GET_BODY), g.body());
                    return null;
                }));
            }
            for (Future<?> f : results) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            conns.forEach(Conn::close);
        }
    }
}
