package loopbench.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import loopbench.proxy.Exchange.Request;
import loopbench.proxy.Exchange.Response;
import loopbench.proxy.RequestRules.Refusal;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;

/**
 * The client side of the L7 proxy, in both {@linkplain L7Mode modes}. A request is a head ({@link HttpRequest})
 * followed by body pieces up to a {@link LastHttpContent}; with the aggregator ({@link L7Mode#AGGREGATE}) both
 * come as one {@code FullHttpRequest}, and responses as one {@code FullHttpResponse}, so the same code serves
 * both modes. Requests are handled one at a time, in order, each as an {@link Exchange} whose phases say where its
 * request and its response stand; what arrives while one is in progress waits in {@link #pending}.
 *
 * <p>Around it: the backend connection it uses ({@link BackendLink}: kept per client or taken from the loop's pool,
 * retried once when safe), whether the client is read ({@link ReadGate}), which rules refuse a request
 * ({@link RequestRules}) and the timeouts ({@link L7Timeouts}, one {@link Watchdog} per connection).
 *
 * <p>Reading the client: AUTO_READ stays on while nothing waits. It goes off while a pipelined request waits for the
 * exchange in progress, while a body waits for the backend connection, and while the backend channel is not writable
 * (a streamed body goes no faster than the backend takes it). In stream mode, the backend is read only while the
 * client channel is writable. Memory per connection is bounded by one read, the write buffers' high water marks and,
 * when aggregating, one message of at most --max-content-length.
 *
 * <p>Writes to the backend are flushed once per client read batch ({@code channelReadComplete}), and streamed
 * response pieces once per backend read batch; a whole response is flushed when written, without a promise: the
 * response is done when it is queued and the client channel is (again) writable.
 *
 * <p>All state is touched only on the client channel's event loop; what happens on the backend channel
 * (which, depending on the thread model, may run on another thread) is handed over with
 * {@link EventLoop#execute}. That hand-over is exactly the cost the thread models differ by.
 *
 * <p>A request that went out on a connection that had served before, and met that connection's close before any of
 * the response came back (the backend's keep-alive timeout racing the request), is sent once more on a new connection
 * if that is safe ({@link RequestRules#mayRetry}); otherwise 502.
 *
 * <p>Errors, each a short fixed text with the details in the proxy's log ({@link ProxyLog}): backend refused, died,
 * sent garbage or timed out before the response started: 502 or 504 (afterwards the client connection closes: the
 * response cannot be completed). A refused request ({@link RequestRules}), a body over --max-content-length (413) or a
 * client too slow with its head or body (408): answered, then the connection closes. A streamed request that fails
 * half-way is never completed towards the backend: that connection is closed. A client that half-closes after its
 * requests gets every response, then the connection closes.
 */
public final class L7FrontendHandler extends ChannelInboundHandlerAdapter {

    /** The client connection's lifecycle: OPEN --&gt; INPUT_SHUT_DOWN --&gt; CLOSED, or OPEN --&gt; CLOSED. */
    enum Client {
        /** Reading requests and answering them. */
        OPEN,
        /** The client shut its output down (half-close): what it sent is answered, then the connection closes. */
        INPUT_SHUT_DOWN,
        /** The channel is inactive: nothing more is read, answered or relayed. */
        CLOSED;

        /** The next phase; a step back or in place is a bug. */
        Client to(Client next) {
            if (next.ordinal() <= ordinal()) {
                throw new IllegalStateException("client connection " + this + " -> " + next);
            }
            return next;
        }
    }

    private final ProxyConfig config;
    /** The Host header sent to the backend, made once. */
    private final AsciiString backendHost;
    private final BackendConnector connector;
    private final ReadGate gate;
    /** Aggregate mode: the client's aggregator, which knows whether a request's head has arrived and not its body. */
    private final RequestAggregator aggregator;
    private final boolean streaming;
    /** The loop's pool of idle backend connections ({@link BackendPool#PER_LOOP}), or null (one per client). */
    private final KeepAlivePool.PerLoop pools;
    /** Requests (or their pieces) read and not handled yet, in order. */
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    /** One listener for the last write of a response that closes or of an error answer: none allocated per request. */
    private final ChannelFutureListener responseWritten = this::responseWritten;

    private ChannelHandlerContext ctx;
    private BackendLink backend;
    private Exchange exchange;
    private Watchdog watchdog;
    private boolean draining;
    /** The client's address for X-Forwarded-For, made at its first request. */
    private AsciiString clientIp;
    /** Read batches from the client so far (progress for the body timeout). */
    private long clientReads;
    /** The current read batch delivered a message (else its bytes are part of one still incomplete). */
    private boolean deliveredInBatch;
    private boolean clientFlushPending;
    /** Where the client connection stands; it moves only forward. */
    private Client client = Client.OPEN;

    L7FrontendHandler(ProxyConfig config, BackendConnector connector, ReadGate gate, RequestAggregator aggregator,
                      KeepAlivePool.PerLoop pools) {
        this.config = config;
        this.backendHost = ProxyHeaders.hostValue(config.backendHostHeader());
        this.connector = connector;
        this.gate = gate;
        this.aggregator = aggregator;
        this.streaming = config.l7Mode() == L7Mode.STREAM;
        this.pools = pools;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        // Added on the channel's loop: the pool of the calling thread is the channel's.
        KeepAlivePool pool = pools == null ? null : pools.of(ctx.channel().eventLoop());
        backend = new BackendLink(this, config, connector, pool);
        exchange = new Exchange();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        L7Timeouts timeouts = new L7Timeouts(this, config.timeouts());
        watchdog = Watchdog.start(ctx.channel().eventLoop(), timeouts, timeouts.shortestNanos());
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        deliveredInBatch = true;
        if (client == Client.CLOSED || !(msg instanceof HttpObject || msg instanceof OversizedRequest)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        pending.add(msg);
        drain();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        clientReads++;
        if (!deliveredInBatch && exchange.request() == Request.IDLE && exchange.awaitsHead()) {
            exchange.request(Request.READING_HEAD); // the first bytes of a head: the header timeout counts from now
        }
        deliveredInBatch = false;
        backend.flush(); // once per read batch, not per request or piece
        ctx.fireChannelReadComplete();
    }

    /** Handles what can be handled now, in order; then decides whether to read the client on. */
    private void drain() {
        if (draining) {
            return; // called back from inside the loop below, which goes on with the new state
        }
        draining = true;
        try {
            while (client != Client.CLOSED) {
                Object next = pending.peek();
                if (next == null) {
                    break;
                }
                if (exchange.awaitsHead()) {
                    pending.poll();
                    startExchange(next);
                } else if (exchange.takesBody()) {
                    pending.poll();
                    requestBody((HttpContent) next);
                } else {
                    break; // the next request waits for this exchange; a body waits for the backend connection
                }
            }
        } finally {
            draining = false;
        }
        if (client == Client.CLOSED) {
            return;
        }
        if (exchange.awaitsHead() && pending.isEmpty() && client != Client.OPEN) {
            ctx.close(); // every request the client sent before its FIN has been answered
            return;
        }
        updateReading();
    }

    private void startExchange(Object next) {
        if (!(next instanceof HttpRequest) && next != OversizedRequest.INSTANCE) {
            ReferenceCountUtil.release(next); // what is left of a request already answered
            return;
        }
        Exchange e = exchange;
        boolean whole = next == OversizedRequest.INSTANCE || next instanceof LastHttpContent;
        e.request(whole ? Request.READ : Request.BODY);
        if (next == OversizedRequest.INSTANCE) {
            refuse(RequestRules.bodyTooLarge(config.maxContentLength()));
            return;
        }
        HttpRequest request = (HttpRequest) next;
        Refusal refusal = RequestRules.refusal(request, streaming, config.maxContentLength());
        if (refusal != null) {
            ReferenceCountUtil.release(request);
            refuse(refusal); // after a malformed request the decoder discards everything: closing is all that is left
            return;
        }
        e.clientVersion = request.protocolVersion();
        e.clientKeepAlive = HttpUtil.isKeepAlive(request);
        e.headRequest = HttpMethod.HEAD.equals(request.method());
        if (streaming && HttpUtil.is100ContinueExpected(request)) {
            // Answered here, as the aggregator does; ProxyHeaders drops Expect towards the backend.
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                    Unpooled.EMPTY_BUFFER), ctx.voidPromise());
        }
        if (clientIp == null) {
            clientIp = ProxyHeaders.clientIp(ctx.channel().remoteAddress());
        }
        ProxyHeaders.forBackend(request, backendHost, clientIp);
        if (RequestRules.mayRetry(request)) {
            e.retryHead = request; // its head stays readable after the encoder has released its content
        }
        if (backend.ready()) {
            forwardHead(request);
        } else {
            connectThenSend(request);
        }
    }

    private void forwardHead(HttpRequest request) {
        exchange.response(Response.AWAITING);
        backend.write(request);
    }

    private void connectThenSend(HttpRequest request) {
        Exchange e = exchange;
        e.response(Response.CONNECTING);
        e.waitingHead = request;
        ChannelFuture connect = backend.connect(ctx.channel());
        connect.addListener((ChannelFutureListener) f -> onClientLoop(() -> backendConnected(e, f), null));
    }

    private void backendConnected(Exchange e, ChannelFuture f) {
        HttpRequest request = e.waitingHead;
        if (request == null) {
            return; // the client went away meanwhile; channelInactive released the request
        }
        e.waitingHead = null;
        if (f.isSuccess() && backend.is(f.channel()) && f.channel().isActive()) {
            forwardHead(request);
            drain(); // body pieces that waited for the connection
            backend.flush();
            return;
        }
        ReferenceCountUtil.release(request);
        if (backend.is(f.channel())) {
            backend.drop();
        }
        answerError(HttpResponseStatus.BAD_GATEWAY, f.isSuccess() ? "backend closed the connection right after"
                + " connecting" : "cannot connect to the backend", f.cause());
        drain();
        backend.flush();
    }

    /** A piece of the current request's body (stream mode; an aggregated request has none left). */
    private void requestBody(HttpContent content) {
        Exchange e = exchange;
        boolean last = content instanceof LastHttpContent;
        if (content.decoderResult().isFailure()) {
            Throwable cause = content.decoderResult().cause();
            content.release();
            e.request(Request.READ);
            // The backend may have part of this request: that connection must never see it completed.
            backend.drop();
            refuse(RequestRules.malformedBody(cause));
            return;
        }
        boolean discard = e.request() == Request.DISCARDING || !backend.present();
        if (last) {
            e.request(Request.READ); // before the write: a write that fails at once reports on the spot
        }
        if (discard) {
            content.release();
        } else {
            e.requestBodyBytes += content.content().readableBytes();
            if (e.requestBodyBytes > config.maxContentLength()) {
                content.release();
                if (!last) {
                    e.request(Request.READ);
                }
                backend.drop();
                refuse(RequestRules.bodyTooLarge(config.maxContentLength()));
                return;
            }
            backend.write(content);
            if (last && backend.pooled() && !e.awaitingBackend()) {
                backend.giveBack(); // the response was complete before the request (stream mode)
            }
        }
        if (last) {
            maybeFinishExchange();
        }
    }

    /** From the backend channel: a response, whole (aggregate mode) or a piece of it (stream mode). */
    void backendRead(Channel from, Object msg) {
        if (ctx.executor().inEventLoop()) {
            onBackendRead(from, msg); // reuse-server-thread: no task, no lambda
        } else {
            onClientLoop(() -> onBackendRead(from, msg), msg);
        }
    }

    private void onBackendRead(Channel from, Object msg) {
        if (!backend.is(from) || !exchange.awaitingBackend() || client == Client.CLOSED) {
            ReferenceCountUtil.release(msg);
            if (backend.is(from) && client != Client.CLOSED) {
                backend.drop(); // a response nobody asked for: the connection is out of step
            }
            return;
        }
        if (msg instanceof HttpResponse) {
            responseHead((HttpResponse) msg);
        } else if (msg instanceof HttpContent) {
            responseBody((HttpContent) msg);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    private void responseHead(HttpResponse response) {
        Exchange e = exchange;
        if (response.decoderResult().isFailure()) {
            Throwable cause = response.decoderResult().cause();
            ReferenceCountUtil.release(response);
            backend.drop();
            answerError(HttpResponseStatus.BAD_GATEWAY, "malformed response from the backend", cause);
            return;
        }
        if (streaming && response.status().codeClass() == HttpStatusClass.INFORMATIONAL
                && response.status().code() != HttpResponseStatus.SWITCHING_PROTOCOLS.code()) {
            ReferenceCountUtil.release(response); // an unasked-for 100 Continue and the like
            e.response(Response.INTERIM);
            return;
        }
        if (!HttpUtil.isKeepAlive(response)) {
            e.backendClosesAfterResponse = true;
        }
        boolean whole = response instanceof LastHttpContent;
        if (streaming && !whole) {
            long length = HttpUtil.getContentLength(response, -1L);
            if (length > config.maxContentLength()) {
                ReferenceCountUtil.release(response);
                backend.drop();
                answerError(HttpResponseStatus.BAD_GATEWAY, "response body of " + length + " bytes exceeds "
                        + config.maxContentLength(), null);
                return;
            }
            ProxyHeaders.forClient(response, e.clientVersion, e.clientKeepAlive);
            if (length < 0 && mayHaveBody(response)) {
                // Chunked, or ended by the backend's close: chunked to an HTTP/1.1 client; an HTTP/1.0 client
                // reads it until the close.
                if (e.clientVersion.isKeepAliveDefault()) {
                    HttpUtil.setTransferEncodingChunked(response, true);
                } else {
                    e.clientKeepAlive = false;
                    ProxyHeaders.setConnection(response, e.clientVersion, false);
                }
            }
        } else {
            ProxyHeaders.forClient(response, e.clientVersion, e.clientKeepAlive);
        }
        if (whole) {
            finishResponse(response);
        } else {
            e.response(Response.RELAYING);
            ctx.write(response, ctx.voidPromise());
            clientFlushPending = true;
        }
    }

    private boolean mayHaveBody(HttpResponse response) {
        int code = response.status().code();
        return !exchange.headRequest && code >= 200 && code != 204 && code != 304;
    }

    private void responseBody(HttpContent content) {
        Exchange e = exchange;
        boolean last = content instanceof LastHttpContent;
        if (e.response() == Response.INTERIM) {
            content.release();
            if (last) {
                e.response(Response.AWAITING);
            }
            return;
        }
        if (content.decoderResult().isFailure()) {
            content.release();
            backend.drop();
            ctx.close(); // the response started and cannot be completed
            return;
        }
        e.responseBodyBytes += content.content().readableBytes();
        if (e.responseBodyBytes > config.maxContentLength()) {
            content.release();
            backend.drop();
            ctx.close();
            return;
        }
        if (last) {
            finishResponse(content);
        } else {
            ctx.write(content, ctx.voidPromise());
            clientFlushPending = true;
            if (!ctx.channel().isWritable()) {
                backend.pauseReading(); // the client takes no more for now: stop reading the backend
            }
        }
    }

    private void finishResponse(Object last) {
        Exchange e = exchange;
        e.response(Response.WRITING); // first: a failure the backend reports from here on is not this response's
        if (e.backendClosesAfterResponse) {
            backend.drop();
        } else if (backend.pooled() && e.requestRead()) {
            backend.giveBack(); // before the response is written: another client may use the connection meanwhile
        }
        clientFlushPending = false;
        if (!e.clientKeepAlive) {
            ctx.writeAndFlush(last).addListener(responseWritten); // closes once written
            return;
        }
        // No promise (a failed write fires exceptionCaught, which closes): the response is done once it is queued
        // and the client channel still takes more, so at most the write buffer's high water mark plus one response
        // wait per connection, without a promise, a PromiseCombiner and a listener call per response.
        ctx.writeAndFlush(last, ctx.voidPromise());
        if (ctx.channel().isWritable()) {
            responseSent();
        } else {
            e.response(Response.QUEUED); // channelWritabilityChanged ends it
        }
    }

    /** From the backend channel (stream mode): the end of a read batch. */
    void backendReadComplete(Channel from) {
        if (ctx.executor().inEventLoop()) {
            flushClient();
        } else {
            onClientLoop(this::flushClient, null);
        }
    }

    private void flushClient() {
        if (clientFlushPending && client != Client.CLOSED) {
            clientFlushPending = false;
            ctx.flush();
        }
    }

    /** From the backend channel: its writability changed (a streamed body may go on, or must wait). */
    void backendWritabilityChanged(Channel from) {
        onClientLoop(() -> {
            if (backend.is(from) && client != Client.CLOSED) {
                updateReading();
            }
        }, null);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            backend.resumeReading();
            if (exchange.response() == Response.QUEUED) {
                responseSent();
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** From the backend channel: it failed or closed ({@code cause} is null for a plain close). */
    void backendFailed(Channel from, Throwable cause) {
        onClientLoop(() -> {
            if (!backend.is(from)) {
                return;
            }
            boolean servedBefore = backend.servedBefore();
            backend.drop();
            if (client == Client.CLOSED) {
                return;
            }
            Exchange e = exchange;
            if (!e.awaitingBackend()) {
                updateReading(); // reading may have been held for this backend's writability
            } else if (e.responseStarted()) {
                ctx.close(); // the response was cut off
            } else if (servedBefore && e.mayRetry()) {
                retry();
            } else {
                answerError(HttpResponseStatus.BAD_GATEWAY, cause == null
                        ? "backend closed the connection before responding" : "backend failed", cause);
                drain();
                backend.flush();
            }
        }, null);
    }

    /**
     * The request went out on a kept connection that the backend closed before answering: most likely it had closed
     * it as idle while the request was on its way. Sent again, once, on a new connection.
     */
    private void retry() {
        Exchange e = exchange;
        e.retried = true;
        HttpRequest head = e.retryHead;
        connectThenSend(new DefaultFullHttpRequest(head.protocolVersion(), head.method(), head.uri(),
                Unpooled.EMPTY_BUFFER, head.headers(), EmptyHttpHeaders.INSTANCE));
    }

    /** The watchdog: the connection has waited too long under {@code wait}. */
    void timedOut(L7Timeouts.Wait wait, long limitNanos) {
        if (client == Client.CLOSED) {
            return;
        }
        String what = wait.timeout + " (" + limitNanos / 1_000_000 + " ms)";
        switch (wait) {
            case KEEP_ALIVE:
                ProxyLog.event(ctx.channel(), config.backend(), what + ": closing the idle connection", null);
                ctx.close();
                break;
            case HEAD:
            case BODY:
                if (exchange.request() == Request.BODY) {
                    backend.drop(); // it has part of this request, which will never be completed
                }
                refuse(new Refusal(HttpResponseStatus.REQUEST_TIMEOUT, what));
                break;
            case BACKEND:
                backend.drop();
                if (exchange.responseStarted()) {
                    ProxyLog.event(ctx.channel(), config.backend(), what + " with the response under way: closing",
                            null);
                    ctx.close();
                } else {
                    answerError(HttpResponseStatus.GATEWAY_TIMEOUT, what, null);
                    drain();
                    backend.flush();
                }
                break;
            default:
                throw new AssertionError(wait);
        }
    }

    /** Answers the current request with an error, then closes the connection (its stream is not trusted). */
    private void refuse(Refusal refusal) {
        exchange.clientKeepAlive = false;
        if (exchange.responseStarted()) {
            ProxyLog.event(ctx.channel(), config.backend(), refusal.status() + " too late to answer, closing: "
                    + refusal.reason(), null);
            ctx.close();
            return;
        }
        answerError(refusal.status(), refusal.reason(), null);
    }

    /** Answers the current request with {@code status}'s fixed text; {@code why} and {@code cause} go to the log. */
    private void answerError(HttpResponseStatus status, String why, Throwable cause) {
        ProxyLog.event(ctx.channel(), config.backend(), status + ": " + why, cause);
        Exchange e = exchange;
        e.response(Response.WRITING);
        if (e.request() == Request.BODY) {
            e.request(Request.DISCARDING); // answered: whatever else of this request arrives goes nowhere
        }
        ByteBuf body = ByteBufUtil.writeAscii(ctx.alloc(), status + "\n");
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        ProxyHeaders.setConnection(response, e.clientVersion, e.clientKeepAlive);
        clientFlushPending = false;
        ctx.writeAndFlush(response).addListener(responseWritten);
    }

    private void responseWritten(ChannelFuture f) {
        if (!f.isSuccess() || !exchange.clientKeepAlive) {
            f.channel().close();
            return;
        }
        responseSent();
    }

    /** The exchange's response has gone to the client channel (written, or queued while the channel takes more). */
    private void responseSent() {
        if (client == Client.CLOSED) {
            return;
        }
        exchange.response(Response.DONE);
        maybeFinishExchange();
    }

    private void maybeFinishExchange() {
        if (exchange.done()) {
            exchange.next();
            drain();
            backend.flush(); // a pipelined request taken here has no client read batch to be flushed with
        }
    }

    /** Reads the client on while nothing waits and the backend takes what is sent; else pauses. */
    private void updateReading() {
        if (client != Client.OPEN) {
            return; // nothing more to read; asking epoll to read a shut-down input fails (ENOENT) and closes
        }
        if (pending.isEmpty() && !backend.full()) {
            gate.release(ctx.channel());
        } else {
            gate.hold(ctx.channel());
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
        client = client.to(Client.CLOSED);
        if (watchdog != null) {
            watchdog.stop();
        }
        Object msg;
        while ((msg = pending.poll()) != null) {
            ReferenceCountUtil.release(msg);
        }
        Exchange e = exchange;
        if (e.waitingHead != null) {
            ReferenceCountUtil.release(e.waitingHead);
            e.waitingHead = null;
        }
        if (backend.pooled() && backend.open() && !e.awaitingBackend() && e.requestRead()) {
            backend.giveBack(); // its exchange with the backend is complete (a client that closes after its response)
        } else {
            backend.drop();
        }
        ctx.fireChannelInactive();
    }

    /**
     * A client may send its requests and shut its output down before reading the responses (half-close;
     * the channel has ALLOW_HALF_CLOSURE on): it still gets every response, then the connection closes.
     */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent && client == Client.OPEN) {
            client = client.to(Client.INPUT_SHUT_DOWN);
            drain(); // closes at once if nothing is queued or in progress
            backend.flush();
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ProxyLog.event(ctx.channel(), config.backend(), "client connection failed, closing", cause);
        ctx.close();
    }

    // For the timeouts (L7Timeouts), on this loop.

    Exchange exchange() {
        return exchange;
    }

    BackendLink backend() {
        return backend;
    }

    /** Read batches from the client, plus the times the proxy held reading (that wait was its own). */
    long clientProgress() {
        return clientReads + gate.holds();
    }

    /** The client is being read, or has ended its side: either way its silence is its own, not the proxy's doing. */
    boolean clientRead() {
        return gate.isOpen() || client != Client.OPEN; // a client that shut its output down will send nothing more
    }

    /** Bytes written to the client that it has not taken yet. */
    long clientPendingWriteBytes() {
        ChannelOutboundBuffer out = ctx.channel().unsafe().outboundBuffer();
        return out == null ? 0 : out.totalPendingWriteBytes();
    }

    boolean aggregatorHasBody() {
        return aggregator != null && aggregator.bodyPending();
    }
}
