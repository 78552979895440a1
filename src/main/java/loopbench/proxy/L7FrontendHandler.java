package loopbench.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;

/**
 * The client side of the L7 proxy. Requests arrive aggregated ({@link FullHttpRequest}); they are handled
 * one at a time, in order, over one keep-alive backend connection per client connection. The client channel
 * reads on its own (AUTO_READ) while requests come one at a time, so the common case costs no epoll_ctl per
 * request; once a pipelined request arrives while another is in progress, AUTO_READ goes off and the
 * {@link ReadGate} also holds back the reads the decoder and aggregator ask for, until the queue has
 * drained. Memory per connection stays bounded by what one read brings plus one aggregated request
 * (at most the content limit) and one response.
 *
 * <p>All state is touched only on the client channel's event loop; what happens on the backend channel
 * (which, depending on the thread model, may run on another thread) is handed over with
 * {@link EventLoop#execute}. That hand-over is exactly the cost the thread models differ by.
 *
 * <p>Errors: backend refused, died or sent garbage: 502. Malformed request: 400 (414/431 for a too long
 * line or header), then close. Body over the limit: 413, then close. A client that half-closes after its
 * requests gets every response, then the connection closes.
 */
public final class L7FrontendHandler extends ChannelInboundHandlerAdapter {
    private final ProxyConfig config;
    private final BackendConnector connector;
    private final ReadGate gate;
    private final ArrayDeque<Object> pending = new ArrayDeque<>();

    private ChannelHandlerContext ctx;
    /** The keep-alive backend connection, or null until the next request opens one. */
    private Channel backend;
    /** A request waiting for {@link #backend} to finish connecting; owned (to release) by this handler. */
    private FullHttpRequest unsent;
    /** A request is being handled: from taking it off the queue until its response is written. */
    private boolean busy;
    /** The current request went to the backend and its response has not come back yet. */
    private boolean awaitingResponse;
    private HttpVersion clientVersion = HttpVersion.HTTP_1_1;
    private boolean clientKeepAlive;
    private boolean closed;
    /** AUTO_READ is on except while pipelined requests wait: no epoll_ctl churn per request. */
    private boolean readingPaused;
    /** The client shut its side down (half-close): answer what it sent, then close. */
    private boolean inputShutdown;

    L7FrontendHandler(ProxyConfig config, BackendConnector connector, ReadGate gate) {
        this.config = config;
        this.connector = connector;
        this.gate = gate;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closed || !(msg instanceof FullHttpRequest || msg instanceof OversizedRequest)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        pending.add(msg);
        if (busy) {
            pauseReading(); // pipelined: read no more until the queue has drained
        }
        handleNext();
    }

    /** Takes the next queued request, or, with none left, opens the gate and reads the client again. */
    private void handleNext() {
        if (busy || closed) {
            return;
        }
        Object next = pending.poll();
        if (next == null) {
            if (inputShutdown) {
                ctx.close(); // every request the client sent before its FIN has been answered
            } else {
                resumeReading();
            }
            return;
        }
        busy = true;
        if (next instanceof OversizedRequest) {
            clientKeepAlive = false;
            respondWithError(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                    "request body exceeds " + config.maxContentLength() + " bytes");
            return;
        }
        FullHttpRequest request = (FullHttpRequest) next;
        if (request.decoderResult().isFailure()) {
            Throwable cause = request.decoderResult().cause();
            request.release();
            clientKeepAlive = false; // the decoder discards everything after a bad request
            respondWithError(statusForMalformed(cause), "malformed request: " + cause.getMessage());
            return;
        }
        clientVersion = request.protocolVersion();
        clientKeepAlive = HttpUtil.isKeepAlive(request);
        ProxyHeaders.forBackend(request, config.backendHostHeader(), ctx.channel().remoteAddress());
        if (backend != null && backend.isActive()) {
            sendToBackend(request);
        } else {
            connectThenSend(request);
        }
    }

    private void connectThenSend(FullHttpRequest request) {
        unsent = request;
        ChannelFuture connect = connector.connect(ctx.channel(), new L7BackendInitializer(config, this), true);
        Channel ch = connect.channel();
        backend = ch;
        connect.addListener((ChannelFutureListener) f -> onClientLoop(() -> backendConnected(f), null));
    }

    private void backendConnected(ChannelFuture f) {
        FullHttpRequest request = unsent;
        if (request == null) {
            return; // the client went away meanwhile; channelInactive released the request
        }
        unsent = null;
        if (f.isSuccess() && f.channel() == backend && backend.isActive()) {
            sendToBackend(request);
            return;
        }
        request.release();
        if (f.channel() == backend) {
            dropBackend();
        }
        String why = f.isSuccess() ? "closed right after connecting" : String.valueOf(f.cause().getMessage());
        respondWithError(HttpResponseStatus.BAD_GATEWAY,
                "cannot connect to backend " + config.backendHostHeader() + ": " + why);
    }

    private void sendToBackend(FullHttpRequest request) {
        awaitingResponse = true;
        Channel ch = backend;
        ch.writeAndFlush(request).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                backendFailed(ch, f.cause());
            }
        });
    }

    /** From the backend channel: a complete response. */
    void backendResponded(Channel from, FullHttpResponse response) {
        onClientLoop(() -> {
            if (from != backend || !awaitingResponse || closed) {
                response.release();
                if (from == backend && !closed) {
                    dropBackend(); // a response nobody asked for: the connection is out of step
                }
                return;
            }
            awaitingResponse = false;
            if (response.decoderResult().isFailure()) {
                String why = String.valueOf(response.decoderResult().cause().getMessage());
                response.release();
                dropBackend();
                respondWithError(HttpResponseStatus.BAD_GATEWAY, "malformed response from backend: " + why);
                return;
            }
            if (!HttpUtil.isKeepAlive(response)) {
                dropBackend();
            }
            ProxyHeaders.forClient(response, clientVersion, clientKeepAlive);
            writeResponse(response);
        }, response);
    }

    /** From the backend channel: it failed or closed ({@code cause} is null for a plain close). */
    void backendFailed(Channel from, Throwable cause) {
        onClientLoop(() -> {
            if (from != backend) {
                return;
            }
            dropBackend();
            if (awaitingResponse && !closed) {
                awaitingResponse = false;
                respondWithError(HttpResponseStatus.BAD_GATEWAY, cause == null
                        ? "backend closed the connection before responding"
                        : "backend failed: " + cause);
            }
        }, null);
    }

    private void dropBackend() {
        Channel ch = backend;
        backend = null;
        if (ch != null) {
            ch.close();
        }
    }

    private void respondWithError(HttpResponseStatus status, String message) {
        ByteBuf body = ByteBufUtil.writeUtf8(ctx.alloc(), status + ": " + message + "\n");
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        ProxyHeaders.setConnection(response, clientVersion, clientKeepAlive);
        writeResponse(response);
    }

    private void writeResponse(FullHttpResponse response) {
        boolean keepAlive = clientKeepAlive;
        ctx.writeAndFlush(response).addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess() || !keepAlive) {
                f.channel().close();
                return;
            }
            busy = false;
            handleNext();
        });
    }

    private void pauseReading() {
        if (!readingPaused) {
            readingPaused = true;
            gate.open(false);
            ctx.channel().config().setAutoRead(false);
        }
    }

    private void resumeReading() {
        if (readingPaused) {
            readingPaused = false;
            gate.open(true);
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** Runs {@code task} on the client channel's loop; releases {@code owned} if that loop is gone. */
    private void onClientLoop(Runnable task, Object owned) {
        EventLoop loop = ctx.channel().eventLoop();
        if (loop.inEventLoop()) {
            task.run();
            return;
        }
        try {
            loop.execute(task);
        } catch (RejectedExecutionException e) {
            ReferenceCountUtil.release(owned);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        Object msg;
        while ((msg = pending.poll()) != null) {
            ReferenceCountUtil.release(msg);
        }
        if (unsent != null) {
            unsent.release();
            unsent = null;
        }
        dropBackend();
        ctx.fireChannelInactive();
    }

    /**
     * A client may send its requests and shut its output down before reading the responses (half-close;
     * the channel has ALLOW_HALF_CLOSURE on): it still gets every response, then the connection closes.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            inputShutdown = true;
            handleNext(); // closes at once if nothing is queued or in progress
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private static HttpResponseStatus statusForMalformed(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return HttpResponseStatus.REQUEST_URI_TOO_LONG;
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        }
        if (cause instanceof TooLongFrameException) {
            return HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE;
        }
        return HttpResponseStatus.BAD_REQUEST;
    }
}
