package loopbench.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * {@link ProxyAggregator} gives what HttpObjectAggregator gives (framing, headers, trailers, bytes), without a
 * composite buffer when the body comes in one piece, and hands everything else to the aggregator. Buffers are
 * checked for leaks by the paranoid leak detector (LeakCheckExtension).
 */
class ProxyAggregatorTest {

    private static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    private static EmbeddedChannel requests() {
        return new EmbeddedChannel(new HttpRequestDecoder(), new ProxyAggregator(1024));
    }

    /** A client codec that has sent one GET, so that it decodes the response to it. */
    private static EmbeddedChannel responses() {
        EmbeddedChannel ch = new EmbeddedChannel(new HttpClientCodec(), new ProxyAggregator(1024));
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
        ReferenceCountUtil.release(ch.readOutbound());
        return ch;
    }

    @Test
    void aGetBecomesOneFullRequestWithoutAComposite() {
        EmbeddedChannel ch = requests();
        ch.writeInbound(ascii("GET /a HTTP/1.1\r\nHost: x\r\nX-A: 1\r\n\r\n"));
        FullHttpRequest r = ch.readInbound();
        try {
            assertEquals("/a", r.uri());
            assertEquals("1", r.headers().get("X-A"));
            assertEquals("0", r.headers().get("Content-Length"), "the aggregator's framing: a Content-Length");
            assertEquals(0, r.content().readableBytes());
            assertFalse(r.content() instanceof CompositeByteBuf);
        } finally {
            r.release();
        }
        assertNull(ch.readInbound());
        assertFalse(ch.finish());
    }

    @Test
    void aResponseReadInOneGoKeepsItsBufferAndItsBytes() {
        EmbeddedChannel ch = responses();
        ch.writeInbound(ascii("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"));
        FullHttpResponse r = ch.readInbound();
        try {
            assertEquals(200, r.status().code());
            assertEquals("hello", r.content().toString(StandardCharsets.ISO_8859_1));
            assertFalse(r.content() instanceof CompositeByteBuf);
            assertEquals(1, r.refCnt());
        } finally {
            r.release();
        }
        assertFalse(ch.finish());
    }

    @Test
    void aBodyInPiecesIsAggregatedAsBefore() {
        EmbeddedChannel ch = responses();
        ch.writeInbound(ascii("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello"));
        assertNull(ch.readInbound(), "incomplete: nothing yet");
        ch.writeInbound(ascii("world"));
        FullHttpResponse r = ch.readInbound();
        try {
            assertEquals("helloworld", r.content().toString(StandardCharsets.ISO_8859_1));
            assertEquals("10", r.headers().get("Content-Length"));
        } finally {
            r.release();
        }
        assertFalse(ch.finish());
    }

    @Test
    void chunkedFramingBecomesAContentLengthAndTrailersAreKept() {
        EmbeddedChannel ch = responses();
        ch.writeInbound(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer: t\r\n\r\n"));
        FullHttpResponse empty = ch.readInbound();
        try {
            assertFalse(empty.headers().contains("Transfer-Encoding"));
            assertEquals("0", empty.headers().get("Content-Length"));
            assertEquals("t", empty.trailingHeaders().get("X-Trailer"));
        } finally {
            empty.release();
        }
        ch.writeOutbound(new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
        ReferenceCountUtil.release(ch.readOutbound());
        ch.writeInbound(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"));
        FullHttpResponse two = ch.readInbound();
        try {
            assertEquals("abcde", two.content().toString(StandardCharsets.ISO_8859_1));
            assertEquals("5", two.headers().get("Content-Length"));
            assertFalse(two.headers().contains("Transfer-Encoding"));
        } finally {
            two.release();
        }
        assertFalse(ch.finish());
    }

    @Test
    void expectContinueAndOversizedHeadsAreTheAggregatorsOwn() {
        EmbeddedChannel ch = requests();
        ch.writeInbound(ascii("POST /e HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"));
        HttpResponse cont = ch.readOutbound();
        assertEquals(100, cont.status().code(), "the aggregator answers 100 Continue");
        ReferenceCountUtil.release(cont);
        ch.writeInbound(ascii("ok"));
        FullHttpRequest r = ch.readInbound();
        try {
            assertEquals("ok", r.content().toString(StandardCharsets.ISO_8859_1));
        } finally {
            r.release();
        }
        EmbeddedChannel small = new EmbeddedChannel(new HttpRequestDecoder(), new RequestAggregator(4));
        small.writeInbound(ascii("POST /big HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"));
        assertInstanceOf(OversizedRequest.class, small.readInbound());
        small.finishAndReleaseAll();
        // No Content-Length, one chunk over the limit: the one piece is too big, the aggregator refuses it.
        EmbeddedChannel chunked = new EmbeddedChannel(new HttpRequestDecoder(), new RequestAggregator(4));
        chunked.writeInbound(ascii("POST /big HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: "
                + "chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"));
        assertInstanceOf(OversizedRequest.class, chunked.readInbound());
        chunked.finishAndReleaseAll();
        assertFalse(ch.finish());
    }
}
