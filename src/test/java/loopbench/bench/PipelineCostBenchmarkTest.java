package loopbench.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * PipelineCostBenchmark's op really makes the whole exchange on every side of the comparison: the client
 * gets the complete response, byte for byte what the origin sends when asked directly, through the L4
 * path and through the L7 path; and the byte counters say what each leg carried (C000-8).
 */
class PipelineCostBenchmarkTest {
    private static final Blackhole BH = TestBlackhole.INSTANCE;

    private static PipelineCostBenchmark benchmark(String layer, String method, int bodySize) {
        return benchmark(layer, "aggregate", method, bodySize);
    }

    private static PipelineCostBenchmark benchmark(String layer, String l7Mode, String method, int bodySize) {
        PipelineCostBenchmark b = new PipelineCostBenchmark();
        b.layer = layer;
        b.l7Mode = l7Mode;
        b.method = method;
        b.bodySize = bodySize;
        b.setUp();
        return b;
    }

    /** The complete bytes the client receives for one request. */
    private static byte[] responseBytes(PipelineCostBenchmark b) {
        ByteBuf sink = Unpooled.buffer();
        try {
            b.path.exchange(b.request.retainedDuplicate(), sink);
            return ByteBufUtil.getBytes(sink);
        } finally {
            sink.release();
        }
    }

    @ParameterizedTest
    @CsvSource({
            "GET,0", "GET,1024", "GET,65536",
            "POST,0", "POST,1024", "POST,65536"})
    void everyLayerDeliversTheOriginsCompleteResponse(String method, int bodySize) {
        PipelineCostBenchmark direct = benchmark("direct", method, bodySize);
        PipelineCostBenchmark l4 = benchmark("4", method, bodySize);
        PipelineCostBenchmark l7 = benchmark("7", method, bodySize);
        PipelineCostBenchmark l7Stream = benchmark("7", "stream", method, bodySize);
        try {
            byte[] fromOrigin = responseBytes(direct);
            PipelineCostBenchmark.checkResponse(Unpooled.wrappedBuffer(fromOrigin),
                    PipelineCostBenchmark.expectedBody(method, bodySize));
            FullHttpResponse decoded = PipelineCostBenchmark.decodeResponse(Unpooled.wrappedBuffer(fromOrigin));
            try {
                assertEquals(bodySize, decoded.headers().getInt(HttpHeaderNames.CONTENT_LENGTH));
            } finally {
                decoded.release();
            }

            // L4 relays the origin's bytes untouched.
            assertArrayEquals(fromOrigin, responseBytes(l4), "L4 response");
            // L7 decodes, aggregates, rewrites hop-by-hop headers (there are none here) and re-encodes: the
            // client still gets the origin's response byte for byte.
            assertArrayEquals(fromOrigin, responseBytes(l7), () -> "L7 response:\n"
                    + new String(responseBytes(l7), StandardCharsets.ISO_8859_1) + "\nvs origin's:\n"
                    + new String(fromOrigin, StandardCharsets.ISO_8859_1));
            // Streaming keeps the origin's Content-Length framing: the same bytes again.
            assertArrayEquals(fromOrigin, responseBytes(l7Stream), "L7 stream response");

            // Again through the benchmark op itself, several times on the same keep-alive connection.
            for (PipelineCostBenchmark b : new PipelineCostBenchmark[] {direct, l4, l7, l7Stream}) {
                PipelineCostBenchmark.Traffic traffic = new PipelineCostBenchmark.Traffic();
                traffic.reset();
                for (int i = 0; i < 3; i++) {
                    BH.consume(b.exchange(traffic));
                }
                assertEquals(3, traffic.requests);
                assertEquals(3L * b.request.readableBytes(), traffic.clientBytesIn, b.layer + " bytes in");
                assertEquals(3L * fromOrigin.length, traffic.clientBytesOut, b.layer + " bytes out");
                assertEquals(1, b.path.backendConnections().size() + ("direct".equals(b.layer) ? 1 : 0),
                        b.layer + ": one keep-alive backend connection");
                switch (b.layer) {
                    case "direct":
                        assertEquals(0, traffic.backendBytesOut);
                        assertEquals(0, traffic.backendBytesIn);
                        break;
                    case "4":
                        assertEquals(traffic.clientBytesIn, traffic.backendBytesOut,
                                "L4 forwards exactly what it gets");
                        assertEquals(traffic.clientBytesOut, traffic.backendBytesIn);
                        break;
                    case "7":
                        assertTrue(traffic.backendBytesOut > traffic.clientBytesIn,
                                "L7 sends its backend more than it received (C000-8): " + traffic.backendBytesOut
                                        + " vs " + traffic.clientBytesIn);
                        assertEquals(traffic.clientBytesOut, traffic.backendBytesIn, "same response bytes both legs");
                        break;
                    default:
                        throw new AssertionError(b.layer);
                }
            }
        } finally {
            direct.tearDown();
            l4.tearDown();
            l7.tearDown();
            l7Stream.tearDown();
        }
    }

    /** What the L7 proxy adds to a request: the difference C000-8 is about, spelled out. */
    @Test
    void theL7ProxyAddsHeaders() {
        PipelineCostBenchmark l7 = benchmark("7", "GET", 0);
        ByteBuf received = Unpooled.buffer();
        try {
            // Copy what the origin's channel reads, in front of the origin's own pipeline.
            l7.path.backendConnections().get(0).server().pipeline().addFirst(new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    received.writeBytes(((ByteBuf) msg).duplicate());
                    ctx.fireChannelRead(msg);
                }
            });
            l7.path.exchange(l7.request.retainedDuplicate(), null);
            String clientRequest = l7.request.toString(StandardCharsets.US_ASCII);
            assertEquals("GET / HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n\r\n", clientRequest);
            // Host is rewritten to the backend's (same length); the aggregator adds content-length: 0 and the
            // proxy adds X-Forwarded-For.
            assertEquals("GET / HTTP/1.1\r\ncontent-length: 0\r\nhost: 127.0.0.1:8080\r\n"
                    + "x-forwarded-for: 127.0.0.1\r\n\r\n", received.toString(StandardCharsets.US_ASCII));
            assertEquals(received.readableBytes(), l7.path.lastBackendBytesOut());
            assertEquals(clientRequest.length(), l7.path.lastClientBytesIn());
        } finally {
            received.release();
            l7.tearDown();
        }
    }
}
