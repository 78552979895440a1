package loopbench.bench;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.util.ReferenceCountUtil;
import loopbench.origin.ResponseBody;
import loopbench.proxy.RequestAggregator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.infra.Blackhole;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * AggregatorBenchmark's op really aggregates the full request under both limits, for both encodings; and
 * the limit it is given is really in force (a body over 2,000 bytes is refused by the small one only).
 */
class AggregatorBenchmarkTest {
    private static final Blackhole BH = TestBlackhole.INSTANCE;


    @ParameterizedTest
    @CsvSource({
            "2000,fixed,128", "2000,fixed,1500", "2000,chunked,128", "2000,chunked,1500",
            "100000000,fixed,128", "100000000,fixed,1500", "100000000,chunked,128", "100000000,chunked,1500"})
    void bothLimitsProduceTheFullContent(int maxContentLength, String encoding, int bodySize) {
        AggregatorBenchmark b = AggregatorBenchmark.ready(maxContentLength, encoding, bodySize);
        try {
            for (int i = 0; i < 3; i++) {
                FullHttpRequest request = b.aggregateOne();
                try {
                    assertTrue(request.decoderResult().isSuccess());
                    assertEquals(HttpMethod.POST, request.method());
                    assertEquals(Unpooled.wrappedBuffer(ResponseBody.bytes(bodySize)), request.content(), "content");
                    assertEquals(bodySize, request.headers().getInt(HttpHeaderNames.CONTENT_LENGTH));
                    assertFalse(request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING));
                } finally {
                    request.release();
                }
                assertEquals(bodySize, b.aggregate(BH), "the benchmark op");
            }
            assertNull(b.channel.readInbound(), "one request in, one out");
            assertEquals(maxContentLength, b.channel.pipeline().get(RequestAggregator.class).maxContentLength());
        } finally {
            b.tearDown();
        }
    }

    /** The two sides differ in their limit and nothing else: over 2,000 bytes only the small one refuses. */
    @ParameterizedTest
    @ValueSource(strings = {"fixed", "chunked"})
    void theSmallLimitIsInForce(String encoding) {
        byte[] tooBig = AggregatorBenchmark.requestBytes(encoding, 3000);
        EmbeddedChannel small = new EmbeddedChannel(new HttpRequestDecoder(), new RequestAggregator(2000));
        EmbeddedChannel large = new EmbeddedChannel(new HttpRequestDecoder(), new RequestAggregator(100_000_000));
        try {
            small.writeInbound(Unpooled.wrappedBuffer(tooBig));
            Object refused = small.readInbound();
            try {
                assertFalse(refused instanceof FullHttpRequest, "2,000-byte limit lets a 3,000-byte body through");
                assertEquals("OversizedRequest", refused.getClass().getSimpleName());
            } finally {
                ReferenceCountUtil.release(refused);
            }
            large.writeInbound(Unpooled.wrappedBuffer(tooBig));
            FullHttpRequest request = assertInstanceOf(FullHttpRequest.class, large.readInbound());
            try {
                assertEquals(3000, request.content().readableBytes());
            } finally {
                request.release();
            }
        } finally {
            small.finishAndReleaseAll();
            large.finishAndReleaseAll();
        }
    }
}
