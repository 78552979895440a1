package loopbench.origin;

import loopbench.knobs.Allocator;
import loopbench.knobs.Transport;
import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.RawHttp.Response;
import loopbench.testing.Rig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The origin: GET answers ResponseBody.bytes(--body-size) with Content-Length, HEAD the same headers without a body,
 * POST and PUT echo the request body; keep-alive, pipelining in order, HTTP/1.0 and Connection: close; 400 for a
 * malformed request. One origin per body size (0 B, 1 B, 64 KiB, 1 MiB), started once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OriginServerTest {
    static final int[] SIZES = {0, 1, 64 * 1024, 1024 * 1024};

    private final Map<Integer, LoopbackServer> origins = new HashMap<>();

    @BeforeAll
    void start() {
        for (int size : SIZES) {
            origins.put(size, Rig.origin(size));
        }
    }

    @AfterAll
    void stop() {
        origins.values().forEach(LoopbackServer::close);
    }

    private int port(int size) {
        return origins.get(size).port();
    }

    @Test
    void responseBodyIsDeterministicAndNotPeriodic() {
        assertArrayEquals(ResponseBody.bytes(1000), ResponseBody.bytes(1000));
        byte[] b = ResponseBody.bytes(4096);
        // A shifted copy differs, so a dropped or repeated byte would be noticed.
        byte[] shifted = new byte[4095];
        System.arraycopy(b, 1, shifted, 0, 4095);
        assertFalse(java.util.Arrays.equals(java.util.Arrays.copyOf(b, 4095), shifted));
        for (byte x : b) {
            assertTrue(x >= '!' && x <= '~', "printable");
        }
    }

    @ParameterizedTest(name = "body {0} B")
    @ValueSource(ints = {0, 1, 64 * 1024, 1024 * 1024})
    void getAnswersTheFixedBodyWithContentLength(int size) throws Exception {
        try (Conn c = RawHttp.open(port(size))) {
            for (int i = 0; i < 3; i++) { // keep-alive: the same connection, again and again
                Response r = c.exchange(RawHttp.get("/any/path?i=" + i));
                assertEquals(200, r.status(), r::toString);
                assertEquals(String.valueOf(size), r.header("Content-Length"));
                assertArrayEquals(ResponseBody.bytes(size), r.body());
            }
            c.send(RawHttp.head("/"));
            Response head = c.readToHead();
            assertEquals(200, head.status());
            assertEquals(String.valueOf(size), head.header("Content-Length"));
            c.send(RawHttp.get("/")); // HEAD sent no body: the next response starts right away
            assertArrayEquals(ResponseBody.bytes(size), c.read().body());
        }
    }

    @ParameterizedTest(name = "request body {0} B")
    @ValueSource(ints = {0, 1, 64 * 1024, 1024 * 1024})
    void postAndPutEchoTheRequestBody(int size) throws Exception {
        try (Conn c = RawHttp.open(port(1))) {
            for (String method : new String[] {"POST", "PUT"}) {
                byte[] body = RawHttp.uniqueBody(size + method.length(), size);
                Response r = c.exchange(RawHttp.request(method, "/echo", body));
                assertEquals(200, r.status(), r::toString);
                assertEquals(String.valueOf(size), r.header("Content-Length"));
                assertArrayEquals(body, r.body(), method + " " + size);
            }
            // Chunked request bodies are echoed too (the aggregator joins them), framed with Content-Length.
            byte[] part = RawHttp.uniqueBody(9, Math.max(1, size / 2));
            Response r = c.exchange(RawHttp.concat(
                    RawHttp.ascii("POST /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"),
                    RawHttp.ascii(Integer.toHexString(part.length) + "\r\n"), part, RawHttp.ascii("\r\n"),
                    RawHttp.ascii(Integer.toHexString(part.length) + "\r\n"), part, RawHttp.ascii("\r\n0\r\n\r\n")));
            assertEquals(String.valueOf(2 * part.length), r.header("Content-Length"));
            assertArrayEquals(RawHttp.concat(part, part), r.body());
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        int size = 64 * 1024;
        ByteArrayOutputStream requests = new ByteArrayOutputStream();
        List<byte[]> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            if (i % 3 == 0) {
                requests.writeBytes(RawHttp.get("/" + i));
                expected.add(ResponseBody.bytes(size));
            } else {
                byte[] body = RawHttp.uniqueBody(i, 100 * i);
                requests.writeBytes(RawHttp.post("/" + i, body));
                expected.add(body);
            }
        }
        try (Conn c = RawHttp.open(port(size))) {
            var sent = c.sendInBackground(requests.toByteArray(), null);
            for (int i = 0; i < expected.size(); i++) {
                Response r = c.read();
                assertEquals(200, r.status());
                assertArrayEquals(expected.get(i), r.body(), "response " + i);
            }
            RawHttp.await(sent, 30);
        }
    }

    @Test
    void connectionCloseAndHttp10() throws Exception {
        try (Conn c = RawHttp.open(port(1))) {
            Response r = c.exchange(RawHttp.request("GET", "/", null, "Connection: close"));
            assertArrayEquals(ResponseBody.bytes(1), r.body());
            assertTrue(r.headers().hasToken("Connection", "close"));
            assertTrue(c.closedByPeer());
        }
        try (Conn c = RawHttp.open(port(1))) {
            c.send(RawHttp.ascii("GET / HTTP/1.0\r\n\r\n"));
            assertArrayEquals(ResponseBody.bytes(1), c.read().body());
            assertTrue(c.closedByPeer(), "HTTP/1.0 without keep-alive");
        }
        try (Conn c = RawHttp.open(port(1))) {
            for (int i = 0; i < 2; i++) {
                c.send(RawHttp.ascii("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n"));
                Response r = c.read();
                assertTrue(r.headers().hasToken("Connection", "keep-alive"), r::toString);
                assertArrayEquals(ResponseBody.bytes(1), r.body());
            }
        }
    }

    /**
     * C004-1's load: webbench sends HTTP/1.0 without keep-alive, the generator's connection-close mode HTTP/1.1 with
     * Connection: close. The origin answers both with the same status, headers and body and closes both connections
     * itself, first, after the response: for the server the two loads differ only in a few request bytes.
     */
    @Test
    void webbenchsHttp10AndTheGeneratorsConnectionCloseGetTheSameAnswerAndClose() throws Exception {
        Response[] answers = new Response[2];
        String[] requests = {"GET / HTTP/1.0\r\nUser-Agent: WebBench 1.5\r\nHost: 127.0.0.1\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"};
        for (int i = 0; i < 2; i++) {
            try (Conn c = RawHttp.open(port(1024 * 1024))) {
                c.send(RawHttp.ascii(requests[i]));
                answers[i] = c.read();
                assertTrue(c.closedByPeer(), requests[i]);
            }
        }
        assertEquals(answers[0].version() + " " + answers[0].status() + " " + answers[0].headers(),
                answers[1].version() + " " + answers[1].status() + " " + answers[1].headers());
        assertArrayEquals(answers[0].body(), answers[1].body());
    }

    @Test
    void malformedRequestGets400AndClose() throws Exception {
        try (Conn c = RawHttp.open(port(1))) {
            c.send(RawHttp.ascii("NOT HTTP AT ALL\r\n\r\n"));
            Response r = c.read();
            assertEquals(400, r.status(), r::toString);
            assertTrue(c.closedByPeer());
        }
        try (Conn c = RawHttp.open(port(1))) { // and it still serves
            assertEquals(200, c.exchange(RawHttp.get("/")).status());
        }
    }

    static Stream<Arguments> transportsAndAllocators() {
        List<Arguments> all = new ArrayList<>();
        for (Transport t : Transport.values()) {
            for (Allocator a : Allocator.values()) {
                all.add(Arguments.of(t, a));
            }
        }
        return all.stream();
    }

    @Tag("jdk25") // also on JDK 25, where Netty runs without Unsafe unless allowed
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("transportsAndAllocators")
    void servesOnEveryTransportAndAllocator(Transport transport, Allocator allocator) throws Exception {
        try (LoopbackServer origin = OriginServer.start(Rig.options(transport, allocator), OriginConfig.of(65536));
             Conn c = RawHttp.open(origin.port())) {
            assertArrayEquals(ResponseBody.bytes(65536), c.exchange(RawHttp.get("/")).body());
            byte[] body = RawHttp.uniqueBody(3, 300_000);
            assertArrayEquals(body, c.exchange(RawHttp.post("/", body)).body());
        }
    }

    @Test
    void configValidation() {
        assertThrows(IllegalArgumentException.class, () -> OriginConfig.of(-1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OriginConfig.of(1).withWork(5, WorkStrategy.NONE));
        assertTrue(e.getMessage().contains("--work-strategy"), e.getMessage());
        assertNotEquals(WorkStrategy.NONE, WorkStrategy.parse("timer"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> WorkStrategy.parse("nope"));
        assertTrue(bad.getMessage().contains("'nope'")
                && bad.getMessage().contains("block-event-loop, pipeline-executor"),
                bad.getMessage());
    }
}
