package loopbench.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;

import java.util.List;

/**
 * Netty's HttpObjectAggregator, without its CompositeByteBuf for a message whose body comes as one piece: a request
 * without a body (every GET: the decoder sends the head, then an empty last piece) or a response whose body was read
 * in one go (the head, then one last piece holding all of it). Such a message becomes a FullHttpMessage around that
 * piece's own buffer and the head's own headers, with the framing the aggregator would give it (no chunked
 * Transfer-Encoding, a Content-Length, the last piece's trailers). Everything else (a body in several pieces, a head
 * that asks for 100-continue, announces more than the limit or failed to decode) goes through the aggregator as
 * before, which gets the head when its second piece shows it is needed.
 *
 * <p>It saves, per message, the composite, its component array, a component and their reference counter: about an
 * eighth of what the L7 path allocates per 1 KiB GET (PipelineCostBenchmark -prof gc).
 */
class ProxyAggregator extends HttpObjectAggregator {
    /** A head waiting for its next piece to show whether the body comes in one piece; not reference-counted. */
    private HttpMessage held;
    /** The aggregator has a message's head and is gathering its body. */
    private boolean aggregating;

    ProxyAggregator(int maxContentLength) {
        super(maxContentLength);
    }

    ProxyAggregator(int maxContentLength, boolean closeOnExpectationFailed) {
        super(maxContentLength, closeOnExpectationFailed);
    }

    /** The aggregator takes content only while it aggregates; a held head's next piece is this class's. */
    @Override
    public boolean acceptInboundMessage(Object msg) throws Exception {
        return held != null && msg instanceof HttpContent || super.acceptInboundMessage(msg);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out) throws Exception {
        HttpMessage head = held;
        if (head != null) {
            held = null;
            if (msg instanceof LastHttpContent && ((LastHttpContent) msg).decoderResult().isSuccess()
                    && ((LastHttpContent) msg).content().readableBytes() <= maxContentLength()) {
                out.add(whole(head, (LastHttpContent) msg));
                return;
            }
            super.decode(ctx, head, out); // the body comes in pieces: aggregate as usual from the head on
            super.decode(ctx, msg, out);
            return;
        }
        if (msg instanceof HttpMessage && maybeOnePiece((HttpMessage) msg)) {
            held = (HttpMessage) msg;
            return;
        }
        super.decode(ctx, msg, out);
    }

    /**
     * Whether a message's head has arrived whole and its body has not yet (the proxy's client timeouts tell a slow head
     * from a slow body by it).
     */
    boolean bodyPending() {
        return held != null || aggregating && !isHandlingOversizedMessage();
    }

    @Override
    protected FullHttpMessage beginAggregation(HttpMessage start, ByteBuf content) throws Exception {
        aggregating = true;
        return super.beginAggregation(start, content);
    }

    @Override
    protected void finishAggregation(FullHttpMessage aggregated) throws Exception {
        aggregating = false;
        super.finishAggregation(aggregated);
    }

    /** Heads the aggregator would treat specially are its own from the start. */
    private boolean maybeOnePiece(HttpMessage head) {
        if (!head.decoderResult().isSuccess() || HttpUtil.is100ContinueExpected(head)) {
            return false;
        }
        try {
            return HttpUtil.getContentLength(head, -1L) <= maxContentLength();
        } catch (NumberFormatException e) {
            return false; // the aggregator's own rules decide
        }
    }

    /** What the aggregator would make of {@code head} and its only piece, around that piece's buffer. */
    private static FullHttpMessage whole(HttpMessage head, LastHttpContent last) {
        ByteBuf content = last.content().retain(); // the decoder releases last (and its reference) after decode
        if (head.headers().contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            HttpUtil.setTransferEncodingChunked(head, false);
        }
        FullHttpMessage whole;
        if (head instanceof HttpRequest) {
            HttpRequest r = (HttpRequest) head;
            whole = new DefaultFullHttpRequest(r.protocolVersion(), r.method(), r.uri(), content, r.headers(),
                    last.trailingHeaders());
        } else {
            HttpResponse r = (HttpResponse) head;
            whole = new DefaultFullHttpResponse(r.protocolVersion(), r.status(), content, r.headers(),
                    last.trailingHeaders());
        }
        if (!HttpUtil.isContentLengthSet(whole)) {
            int length = content.readableBytes();
            if (length == 0) {
                whole.headers().set(HttpHeaderNames.CONTENT_LENGTH, HttpHeaderValues.ZERO);
            } else {
                whole.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, length);
            }
        }
        return whole;
    }

    /** As the aggregator does while a message is incomplete: read on even with AUTO_READ off. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        if (held != null && !ctx.channel().config().isAutoRead()) {
            ctx.read();
        }
        super.channelReadComplete(ctx);
    }
}
