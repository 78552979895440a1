package loopbench.origin;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.LongAdder;

/**
 * The origin's request handler. GET and HEAD answer the fixed body; POST and PUT echo the request body.
 * Requests on one connection are worked on one at a time and answered in order (HTTP/1.1 pipelining),
 * whatever thread the work runs on; while one is in progress the channel stops reading, so a pipelining
 * client cannot queue work without bound.
 */
final class OriginHandler extends ChannelInboundHandlerAdapter {
    private final ByteBuf body;
    private final Work work;
    /** Responses written, for the origin's summary when it stops. */
    private final LongAdder answered;
    private final ArrayDeque<FullHttpRequest> pending = new ArrayDeque<>();
    /** The request being worked on; released by channelInactive if the connection dies first. */
    private FullHttpRequest inFlight;
    private boolean busy;
    private boolean draining;
    private boolean closed;

    OriginHandler(ByteBuf body, Work work, LongAdder answered) {
        this.body = body;
        this.work = work;
        this.answered = answered;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof FullHttpRequest) || closed) {
            ReferenceCountUtil.release(msg);
            return;
        }
        pending.add((FullHttpRequest) msg);
        if (busy || pending.size() > 1) {
            ctx.channel().config().setAutoRead(false);
        }
        drain(ctx);
    }

    /** Starts work on queued requests; a loop, not recursion, when work completes synchronously. */
    private void drain(ChannelHandlerContext ctx) {
        if (draining) {
            return;
        }
        draining = true;
        try {
            FullHttpRequest request;
            while (!busy && !closed && (request = pending.poll()) != null) {
                busy = true;
                FullHttpRequest r = request;
                if (r.decoderResult().isFailure()) {
                    r.release();
                    respond(ctx, HttpVersion.HTTP_1_1, false, error(HttpResponseStatus.BAD_REQUEST));
                } else {
                    inFlight = r;
                    work.perform(ctx, () -> respond(ctx, r));
                }
            }
        } finally {
            draining = false;
        }
        // After clearing the flag: a transport may deliver the next request inside setAutoRead (the Local
        // transport reads inline), and that channelRead must be able to drain it.
        if (!busy && pending.isEmpty() && !closed && ctx.channel().isWritable()) {
            ctx.channel().config().setAutoRead(true);
        }
    }

    private void respond(ChannelHandlerContext ctx, FullHttpRequest request) {
        if (request != inFlight) {
            return; // the connection closed while the work was in progress; channelInactive released it
        }
        inFlight = null;
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        HttpVersion version = request.protocolVersion();
        FullHttpResponse response;
        HttpMethod method = request.method();
        if (method.equals(HttpMethod.POST) || method.equals(HttpMethod.PUT)) {
            response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK,
                    request.content().retain());
        } else if (method.equals(HttpMethod.HEAD)) {
            response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, Unpooled.EMPTY_BUFFER);
        } else {
            response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, body.duplicate());
        }
        int length = method.equals(HttpMethod.HEAD) ? body.readableBytes() : response.content().readableBytes();
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_OCTET_STREAM)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, length);
        request.release();
        respond(ctx, version, keepAlive, response);
    }

    private void respond(ChannelHandlerContext ctx, HttpVersion version, boolean keepAlive, FullHttpResponse response) {
        answered.increment();
        if (!keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            closed = true;
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        } else {
            if (!version.isKeepAliveDefault()) {
                response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            }
            ctx.writeAndFlush(response, ctx.voidPromise());
        }
        busy = false;
        drain(ctx);
    }

    private static FullHttpResponse error(HttpResponseStatus status) {
        FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER);
        r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
        return r;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // Stop reading requests while the client does not read its responses.
        boolean writable = ctx.channel().isWritable();
        if (!writable) {
            ctx.channel().config().setAutoRead(false);
        } else if (!busy && pending.isEmpty()) {
            ctx.channel().config().setAutoRead(true);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        FullHttpRequest r;
        while ((r = pending.poll()) != null) {
            r.release();
        }
        if (inFlight != null) {
            inFlight.release();
            inFlight = null;
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
