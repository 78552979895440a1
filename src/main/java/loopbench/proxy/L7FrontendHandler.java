package loopbench.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
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
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/**
 * The client side of the L7 proxy, in both {@linkplain L7Mode modes}. A request is a head ({@link HttpRequest})
 * followed by body pieces up to a {@link LastHttpContent}; with the aggregator ({@link L7Mode#AGGREGATE}) both
 * come as one {@code FullHttpRequest}, and responses as one {@code FullHttpResponse}, so the same code serves
 * both modes. Requests are handled one at a time, in order (an exchange ends when the request has been read
 * whole and its response written, or queued while the client channel is writable), over a keep-alive backend
 * connection.
 *
 * <p>Reading the client: AUTO_READ stays on while nothing waits, so the common case costs no epoll_ctl per
 * request. It goes off, and the {@link ReadGate} also holds back the reads the decoder asks for, while a
 * pipelined request waits for the exchange in progress, while a body waits for the backend connection, and
 * while the backend channel is not writable (a streamed body goes no faster than the backend takes it). In
 * stream mode, the backend is read only while the client channel is writable. Memory per connection is
 * bounded by one read, the write buffers' high water marks and, when aggregating, one message of at most
 * --max-content-length.
 *
 * <p>Writes to the backend are flushed once per client read batch ({@code channelReadComplete}), and streamed
 * response pieces once per backend read batch; a whole response is flushed when written, without a promise: the
 * exchange ends when it is queued and the client channel is (again) writable.
 *
 * <p>All state is touched only on the client channel's event loop; what happens on the backend channel
 * (which, depending on the thread model, may run on another thread) is handed over with
 * {@link EventLoop#execute}. That hand-over is exactly the cost the thread models differ by.
 *
 * <p>Backend connections ({@link BackendPool}): per client, the connection opened for the first request serves
 * every later one until either side closes. Per loop, a request takes an idle connection from its loop's
 * {@link KeepAlivePool} (or opens one) and gives it back as soon as the request has been sent whole and the response
 * read whole, before the response has necessarily reached the client. A request that went out on a connection that
 * had served before, and met that connection's close before any of the response came back (the backend's keep-alive
 * timeout racing the request), is sent once more on a new connection if that is safe: an idempotent method (RFC 9110
 * 9.2.2) without a body (RFC 9112 9.3.1); otherwise 502.
 *
 * <p>Errors: backend refused, died or sent garbage before the response started: 502 (afterwards the client
 * connection closes: the response cannot be completed). Malformed request (including a bad body piece): 400,
 * 414 or 431, then close. Body over --max-content-length: 413, then close (a response body over it: 502). A
 * streamed request that fails half-way is never completed towards the backend: that connection is closed. A
 * client that half-closes after its requests gets every response, then the connection closes.
 */
public final class L7FrontendHandler extends ChannelInboundHandlerAdapter {
    private final ProxyConfig config;
    /** The Host header sent to the backend, made once. */
    private final AsciiString backendHost;
    private final BackendConnector connector;
    private final ReadGate gate;
    private final boolean streaming;
    /** Requests (or their pieces) read and not handled yet, in order. */
    private final ArrayDeque<Object> pending = new ArrayDeque<>();
    /** One listener for the last write of a response that closes or of an error answer: none allocated per request. */
    private final ChannelFutureListener responseWritten = this::responseWritten;

    /** The loop's pool of idle backend connections ({@link BackendPool#PER_LOOP}), or null (one per client). */
    private final KeepAlivePool.PerLoop pools;
    private KeepAlivePool pool;

    private ChannelHandlerContext ctx;
    /** The keep-alive backend connection, or null until the next request opens (or, pooled, takes) one. */
    private Channel backend;
    /** The last handler of {@link #backend}'s pipeline, which knows who owns it. */
    private L7BackendConnection backendConnection;
    /** A request head waiting for {@link #backend} to finish connecting; owned (to release) by this handler. */
    private HttpRequest unsent;
    private boolean draining;

    // The exchange in progress: from taking a request head until its body is read and its response written.
    private boolean inExchange;
    /** Its last body piece has been taken (forwarded or dropped). */
    private boolean requestDone;
    /** Its response has been written whole. */
    private boolean responseDone;
    /** Some of its response (or an error answer) has gone to the client: a later failure can only close. */
    private boolean responseStarted;
    /** Its head went to the backend and the response has not been read whole. */
    private boolean awaitingResponse;
    /** The rest of its body goes nowhere: it was answered already, or the backend is gone. */
    private boolean discardBody;
    private boolean headRequest;
    /** The backend sent a 1xx (not asked for: Expect is answered here): skip it up to its end. */
    private boolean skippingInterim;
    private long requestBodyBytes;
    private long responseBodyBytes;
    private boolean backendClosesAfterResponse;
    /** Its request went out on a connection that had served before (which the backend may be closing meanwhile). */
    private boolean backendReused;
    /** The head of a request that may be sent again (idempotent, no body), or null. */
    private HttpRequest retryHead;
    private boolean retried;

    /** The client's address for X-Forwarded-For, made at its first request. */
    private AsciiString clientIp;
    private HttpVersion clientVersion = HttpVersion.HTTP_1_1;
    private boolean clientKeepAlive;
    private boolean closed;
    /** AUTO_READ is on except while something waits: no epoll_ctl churn per request. */
    private boolean readingPaused;
    /** Stream mode: the backend is not read while the client channel is not writable. */
    private boolean backendReadPaused;
    /** The exchange's response is queued; the exchange ends when the client channel is writable again. */
    private boolean awaitingClientWritable;
    private boolean backendFlushPending;
    private boolean clientFlushPending;
    /** The client shut its side down (half-close): answer what it sent, then close. */
    private boolean inputShutdown;

    L7FrontendHandler(ProxyConfig config, BackendConnector connector, ReadGate gate, KeepAlivePool.PerLoop pools) {
        this.config = config;
        this.backendHost = ProxyHeaders.hostValue(config.backendHostHeader());
        this.connector = connector;
        this.gate = gate;
        this.streaming = config.l7Mode() == L7Mode.STREAM;
        this.pools = pools;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (pools != null) {
            pool = pools.of(ctx.channel().eventLoop()); // added on the channel's loop: it is the calling thread
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (closed || !(msg instanceof HttpObject || msg instanceof OversizedRequest)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        pending.add(msg);
        drain();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        flushBackend(); // once per read batch, not per request or piece
        ctx.fireChannelReadComplete();
    }

    /** Handles what can be handled now, in order; then decides whether to read the client on. */
    private void drain() {
        if (draining) {
            return; // called back from inside the loop below, which goes on with the new state
        }
        draining = true;
        try {
            while (!closed) {
                Object next = pending.peek();
                if (next == null) {
                    break;
                }
                if (!inExchange) {
                    pending.poll();
                    startExchange(next);
                } else if (!requestDone && unsent == null) {
                    pending.poll();
                    requestBody((HttpContent) next);
                } else {
                    break; // the next request waits for this exchange; a body waits for the backend connection
                }
            }
        } finally {
            draining = false;
        }
        if (closed) {
            return;
        }
        if (!inExchange && pending.isEmpty() && inputShutdown) {
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
        inExchange = true;
        requestDone = next == OversizedRequest.INSTANCE || next instanceof LastHttpContent;
        responseDone = false;
        responseStarted = false;
        awaitingResponse = false;
        discardBody = false;
        skippingInterim = false;
        requestBodyBytes = 0;
        responseBodyBytes = 0;
        backendClosesAfterResponse = false;
        retryHead = null;
        retried = false;
        if (next == OversizedRequest.INSTANCE) {
            refuse(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                    "request body exceeds " + config.maxContentLength() + " bytes");
            return;
        }
        HttpRequest request = (HttpRequest) next;
        if (request.decoderResult().isFailure()) {
            Throwable cause = request.decoderResult().cause();
            ReferenceCountUtil.release(request);
            // the decoder discards everything after a bad request: close after answering
            refuse(statusForMalformed(cause), "malformed request: " + cause.getMessage());
            return;
        }
        clientVersion = request.protocolVersion();
        clientKeepAlive = HttpUtil.isKeepAlive(request);
        headRequest = HttpMethod.HEAD.equals(request.method());
        if (request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING) && !plainChunked(request)) {
            // The decoder made sure chunked is the final coding; any other coding (gzip, chunked) would reach the
            // backend undeclared once Transfer-Encoding, a hop-by-hop header, is rewritten.
            ReferenceCountUtil.release(request);
            refuse(HttpResponseStatus.BAD_REQUEST, "unsupported transfer coding "
                    + request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING));
            return;
        }
        if (streaming) {
            if (HttpUtil.getContentLength(request, -1L) > config.maxContentLength()) {
                ReferenceCountUtil.release(request);
                refuse(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                        "request body exceeds " + config.maxContentLength() + " bytes");
                return;
            }
            if (HttpUtil.is100ContinueExpected(request)) {
                // Answered here, as the aggregator does; ProxyHeaders drops Expect towards the backend.
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                        Unpooled.EMPTY_BUFFER), ctx.voidPromise());
            }
        }
        if (clientIp == null) {
            clientIp = ProxyHeaders.clientIp(ctx.channel().remoteAddress());
        }
        ProxyHeaders.forBackend(request, backendHost, clientIp);
        if (mayRetry(request)) {
            retryHead = request; // its head stays readable after the encoder has released its content
        }
        if (backend == null && pool != null) {
            takePooled();
        }
        if (backend != null && backend.isActive()) {
            backendReused = true;
            forwardHead(request);
        } else {
            connectThenSend(request);
        }
    }

    /** Idempotent (RFC 9110 9.2.2) and without a body: safe to send again on a new connection. */
    private static boolean mayRetry(HttpRequest request) {
        HttpMethod m = request.method();
        boolean idempotent = m == HttpMethod.GET || m == HttpMethod.HEAD || m == HttpMethod.OPTIONS
                || m == HttpMethod.TRACE || m == HttpMethod.PUT || m == HttpMethod.DELETE;
        if (!idempotent) {
            return false;
        }
        if (request instanceof FullHttpRequest) {
            return ((FullHttpRequest) request).content().readableBytes() == 0;
        }
        // Streamed: no body announced; a chunked body may still turn out empty, but is not retried.
        return HttpUtil.getContentLength(request, 0L) == 0 && !request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING);
    }

    /** Takes the loop's most recently returned idle connection that is still open, if there is one. */
    private void takePooled() {
        L7BackendConnection c;
        while ((c = pool.poll()) != null) {
            c.owner(this); // before the check: a close from now on reaches this handler (see L7BackendConnection)
            if (c.channel().isActive()) {
                backend = c.channel();
                backendConnection = c;
                backendReadPaused = false;
                return;
            }
        }
    }

    /** Pooled: the request has gone out whole and its response has been read whole: the connection goes back. */
    private void returnBackend() {
        Channel ch = backend;
        L7BackendConnection c = backendConnection;
        flushBackend(); // what this request still had unflushed goes out first
        backend = null;
        backendConnection = null;
        if (backendReadPaused) {
            backendReadPaused = false;
            ch.config().setAutoRead(true); // idle in the pool it must still see the backend's close
        }
        pool.offer(c);
    }

    /** Aggregated requests have no Transfer-Encoding left; streamed ones may say exactly chunked. */
    private boolean plainChunked(HttpRequest request) {
        if (!streaming) {
            return false;
        }
        List<String> codings = request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        return codings.size() == 1 && HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(codings.get(0).trim());
    }

    private void forwardHead(HttpRequest request) {
        awaitingResponse = true;
        writeToBackend(request);
    }

    private void writeToBackend(Object msg) {
        // A failed write fires exceptionCaught in the backend pipeline (void promise): backendFailed, no listener.
        backend.write(msg, backend.voidPromise());
        backendFlushPending = true;
    }

    private void flushBackend() {
        if (backendFlushPending) {
            backendFlushPending = false;
            if (backend != null) {
                backend.flush();
            }
        }
    }

    private void connectThenSend(HttpRequest request) {
        unsent = request;
        backendReused = false;
        L7BackendConnection c = new L7BackendConnection(this, streaming, pool);
        ChannelFuture connect = connector.connect(ctx.channel(), new L7BackendInitializer(config, c), true);
        backend = connect.channel();
        backendConnection = c;
        backendReadPaused = false;
        connect.addListener((ChannelFutureListener) f -> onClientLoop(() -> backendConnected(f), null));
    }

    private void backendConnected(ChannelFuture f) {
        HttpRequest request = unsent;
        if (request == null) {
            return; // the client went away meanwhile; channelInactive released the request
        }
        unsent = null;
        if (f.isSuccess() && f.channel() == backend && backend.isActive()) {
            forwardHead(request);
            drain(); // body pieces that waited for the connection
            flushBackend();
            return;
        }
        ReferenceCountUtil.release(request);
        if (f.channel() == backend) {
            dropBackend();
        }
        String why = f.isSuccess() ? "closed right after connecting" : String.valueOf(f.cause().getMessage());
        respondWithError(HttpResponseStatus.BAD_GATEWAY,
                "cannot connect to backend " + config.backendHostHeader() + ": " + why);
        drain();
        flushBackend();
    }

    /** A piece of the current request's body (stream mode; an aggregated request has none left). */
    private void requestBody(HttpContent content) {
        boolean last = content instanceof LastHttpContent;
        if (content.decoderResult().isFailure()) {
            Throwable cause = content.decoderResult().cause();
            content.release();
            requestDone = true;
            // The backend may have part of this request: that connection must never see it completed.
            abandonBackend();
            refuse(statusForMalformed(cause), "malformed request body: " + cause.getMessage());
            return;
        }
        if (last) {
            requestDone = true;
        }
        if (discardBody || backend == null) {
            content.release();
        } else {
            requestBodyBytes += content.content().readableBytes();
            if (requestBodyBytes > config.maxContentLength()) {
                content.release();
                requestDone = true;
                abandonBackend();
                refuse(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                        "request body exceeds " + config.maxContentLength() + " bytes");
                return;
            }
            writeToBackend(content);
            if (last && pool != null && !awaitingResponse) {
                returnBackend(); // the response was complete before the request (stream mode)
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
        if (from != backend || !awaitingResponse || closed) {
            ReferenceCountUtil.release(msg);
            if (from == backend && !closed) {
                dropBackend(); // a response nobody asked for: the connection is out of step
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
        if (response.decoderResult().isFailure()) {
            String why = String.valueOf(response.decoderResult().cause().getMessage());
            ReferenceCountUtil.release(response);
            awaitingResponse = false;
            dropBackend();
            respondWithError(HttpResponseStatus.BAD_GATEWAY, "malformed response from backend: " + why);
            return;
        }
        if (streaming && response.status().codeClass() == HttpStatusClass.INFORMATIONAL
                && response.status().code() != HttpResponseStatus.SWITCHING_PROTOCOLS.code()) {
            ReferenceCountUtil.release(response); // an unasked-for 100 Continue and the like
            skippingInterim = true;
            return;
        }
        if (!HttpUtil.isKeepAlive(response)) {
            backendClosesAfterResponse = true;
        }
        boolean whole = response instanceof LastHttpContent;
        if (streaming && !whole) {
            long length = HttpUtil.getContentLength(response, -1L);
            if (length > config.maxContentLength()) {
                ReferenceCountUtil.release(response);
                awaitingResponse = false;
                dropBackend();
                respondWithError(HttpResponseStatus.BAD_GATEWAY, "response body exceeds "
                        + config.maxContentLength() + " bytes");
                return;
            }
            ProxyHeaders.forClient(response, clientVersion, clientKeepAlive);
            if (length < 0 && mayHaveBody(response)) {
                // Chunked, or ended by the backend's close: chunked to an HTTP/1.1 client; an HTTP/1.0 client
                // reads it until the close.
                if (clientVersion.isKeepAliveDefault()) {
                    HttpUtil.setTransferEncodingChunked(response, true);
                } else {
                    clientKeepAlive = false;
                    ProxyHeaders.setConnection(response, clientVersion, false);
                }
            }
        } else {
            ProxyHeaders.forClient(response, clientVersion, clientKeepAlive);
        }
        responseStarted = true;
        if (whole) {
            finishResponse(response);
        } else {
            ctx.write(response, ctx.voidPromise());
            clientFlushPending = true;
        }
    }

    private boolean mayHaveBody(HttpResponse response) {
        int code = response.status().code();
        return !headRequest && code >= 200 && code != 204 && code != 304;
    }

    private void responseBody(HttpContent content) {
        boolean last = content instanceof LastHttpContent;
        if (skippingInterim) {
            content.release();
            skippingInterim = !last;
            return;
        }
        if (content.decoderResult().isFailure()) {
            content.release();
            awaitingResponse = false;
            dropBackend();
            ctx.close(); // the response started and cannot be completed
            return;
        }
        responseBodyBytes += content.content().readableBytes();
        if (responseBodyBytes > config.maxContentLength()) {
            content.release();
            awaitingResponse = false;
            dropBackend();
            ctx.close();
            return;
        }
        if (last) {
            finishResponse(content);
        } else {
            ctx.write(content, ctx.voidPromise());
            clientFlushPending = true;
            if (!ctx.channel().isWritable()) {
                pauseBackendReading(); // the client takes no more for now: stop reading the backend
            }
        }
    }

    private void finishResponse(Object last) {
        awaitingResponse = false;
        if (backendClosesAfterResponse) {
            dropBackend();
        } else if (pool != null && requestDone) {
            returnBackend(); // before the response is written: another client may use the connection meanwhile
        }
        clientFlushPending = false;
        if (!clientKeepAlive) {
            ctx.writeAndFlush(last).addListener(responseWritten); // closes once written
            return;
        }
        // No promise (a failed write fires exceptionCaught, which closes): the exchange ends once the response is
        // queued and the client channel still takes more, so at most the write buffer's high water mark plus one
        // response wait per connection, without a promise, a PromiseCombiner and a listener call per response.
        ctx.writeAndFlush(last, ctx.voidPromise());
        if (ctx.channel().isWritable()) {
            responseSent();
        } else {
            awaitingClientWritable = true; // channelWritabilityChanged ends the exchange
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
        if (clientFlushPending && !closed) {
            clientFlushPending = false;
            ctx.flush();
        }
    }

    /** From the backend channel: its writability changed (a streamed body may go on, or must wait). */
    void backendWritabilityChanged(Channel from) {
        onClientLoop(() -> {
            if (from == backend && !closed) {
                updateReading();
            }
        }, null);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            resumeBackendReading();
            if (awaitingClientWritable) {
                awaitingClientWritable = false;
                responseSent();
            }
        }
        ctx.fireChannelWritabilityChanged();
    }

    /** From the backend channel: it failed or closed ({@code cause} is null for a plain close). */
    void backendFailed(Channel from, Throwable cause) {
        onClientLoop(() -> {
            if (from != backend) {
                return;
            }
            dropBackend();
            if (!closed && !awaitingResponse) {
                updateReading(); // reading may have been held for this backend's writability
            }
            if (awaitingResponse && !closed) {
                awaitingResponse = false;
                if (responseStarted) {
                    ctx.close(); // the response was cut off
                } else if (backendReused && !retried && retryHead != null && requestDone && !skippingInterim) {
                    retry();
                } else {
                    respondWithError(HttpResponseStatus.BAD_GATEWAY, cause == null
                            ? "backend closed the connection before responding"
                            : "backend failed: " + cause);
                    drain();
                    flushBackend();
                }
            }
        }, null);
    }

    /**
     * The request went out on a kept connection that the backend closed before answering: most likely it had closed
     * it as idle while the request was on its way. Sent again, once, on a new connection.
     */
    private void retry() {
        retried = true;
        HttpRequest head = retryHead;
        connectThenSend(new DefaultFullHttpRequest(head.protocolVersion(), head.method(), head.uri(),
                Unpooled.EMPTY_BUFFER, head.headers(), EmptyHttpHeaders.INSTANCE));
    }

    private void dropBackend() {
        Channel ch = backend;
        backend = null;
        backendConnection = null;
        backendReadPaused = false;
        backendFlushPending = false;
        if (ch != null) {
            ch.close();
        }
    }

    /** The current request will not be completed towards the backend: close that connection, drop the rest. */
    private void abandonBackend() {
        awaitingResponse = false;
        dropBackend();
    }

    /** Answers the current request with an error, then closes the connection (its stream is not trusted). */
    private void refuse(HttpResponseStatus status, String message) {
        clientKeepAlive = false;
        if (responseStarted) {
            ctx.close();
            return;
        }
        respondWithError(status, message);
    }

    private void respondWithError(HttpResponseStatus status, String message) {
        responseStarted = true;
        if (!requestDone) {
            discardBody = true; // answered: whatever else of this request arrives goes nowhere
        }
        ByteBuf body = ByteBufUtil.writeUtf8(ctx.alloc(), status + ": " + message + "\n");
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.TEXT_PLAIN)
                .setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        ProxyHeaders.setConnection(response, clientVersion, clientKeepAlive);
        clientFlushPending = false;
        ctx.writeAndFlush(response).addListener(responseWritten);
    }

    private void responseWritten(ChannelFuture f) {
        if (!f.isSuccess() || !clientKeepAlive) {
            f.channel().close();
            return;
        }
        responseSent();
    }

    /** The exchange's response has gone to the client channel (written, or queued while the channel takes more). */
    private void responseSent() {
        if (closed) {
            return;
        }
        responseDone = true;
        maybeFinishExchange();
    }

    private void maybeFinishExchange() {
        if (inExchange && requestDone && responseDone) {
            inExchange = false;
            drain();
            flushBackend(); // a pipelined request taken here has no client read batch to be flushed with
        }
    }

    /** Reads the client on while nothing waits and the backend takes what is sent; else pauses. */
    private void updateReading() {
        if (inputShutdown) {
            return; // nothing more to read; asking epoll to read a shut-down input fails (ENOENT) and closes
        }
        Channel b = backend;
        // A closed backend is not writable either, but it holds nothing back: its close is handled on its own.
        if (pending.isEmpty() && (b == null || b.isWritable() || !b.isActive())) {
            resumeReading();
        } else {
            pauseReading();
        }
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

    private void pauseBackendReading() {
        if (!backendReadPaused && backend != null) {
            backendReadPaused = true;
            backend.config().setAutoRead(false);
        }
    }

    private void resumeBackendReading() {
        if (backendReadPaused) {
            backendReadPaused = false;
            if (backend != null) {
                backend.config().setAutoRead(true);
            }
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
            ReferenceCountUtil.release(unsent);
            unsent = null;
        }
        if (pool != null && backend != null && !awaitingResponse && requestDone && backend.isActive()) {
            returnBackend(); // its exchange with the backend is complete (a client that closes after its response)
        } else {
            dropBackend();
        }
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
            drain(); // closes at once if nothing is queued or in progress
            flushBackend();
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
