package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOutboundBuffer;

/**
 * An L7 client connection's hold on a backend connection ({@link BackendPool}). Per client, the connection opened for
 * its first request serves every later one until either side closes. Per loop, a request takes an idle connection
 * from its loop's {@link KeepAlivePool} (or opens one) and gives it back as soon as the request has been sent whole
 * and its response read whole, before the response has necessarily reached the client. Also how requests are written
 * to it (flushed once per batch) and whether it is read (stream mode: not while the client cannot take more).
 *
 * <p>Touched only on the client channel's event loop.
 */
final class BackendLink {
    private final L7FrontendHandler owner;
    private final ProxyConfig config;
    private final BackendConnector connector;
    private final boolean streaming;
    /** The loop's pool of idle connections ({@link BackendPool#PER_LOOP}), or null (one per client). */
    private final KeepAlivePool pool;

    /** The connection requests go out on, or null until the next request opens (or, pooled, takes) one. */
    private Channel channel;
    /** The last handler of {@link #channel}'s pipeline, which knows who owns it. */
    private L7BackendConnection connection;
    /** {@link #channel} served an earlier request: the backend may be closing it just as a request goes out. */
    private boolean servedBefore;
    /** Stream mode: {@link #channel} is not read while the client channel is not writable. */
    private boolean readPaused;
    /** Times reading was paused: a pause between two looks of the backend timeout restarts its wait. */
    private long pauses;
    private boolean flushPending;

    BackendLink(L7FrontendHandler owner, ProxyConfig config, BackendConnector connector, KeepAlivePool pool) {
        this.owner = owner;
        this.config = config;
        this.connector = connector;
        this.streaming = config.l7Mode() == L7Mode.STREAM;
        this.pool = pool;
    }

    /**
     * Whether a request can go out at once, on a connection that served before: the one kept, or (pooled) the loop's
     * most recently returned idle one that is still open. If not, the caller {@linkplain #connect connects}.
     */
    boolean ready() {
        if (channel == null && pool != null) {
            takePooled();
        }
        if (channel != null && channel.isActive()) {
            servedBefore = true;
            return true;
        }
        return false;
    }

    private void takePooled() {
        L7BackendConnection c;
        while ((c = pool.poll()) != null) {
            c.owner(owner); // before the check: a close from now on reaches the owner (see L7BackendConnection)
            if (c.channel().isActive()) {
                channel = c.channel();
                connection = c;
                readPaused = false;
                return;
            }
        }
    }

    /** Opens a new connection on behalf of {@code client}; it replaces the current one, if any. */
    ChannelFuture connect(Channel client) {
        L7BackendConnection c = new L7BackendConnection(owner, streaming, pool);
        ChannelFuture connect = connector.connect(client, new L7BackendInitializer(config, c), true);
        channel = connect.channel();
        connection = c;
        servedBefore = false;
        readPaused = false;
        return connect;
    }

    /** Whether {@code ch} is the current connection (events of one dropped or given back are not this link's). */
    boolean is(Channel ch) {
        return ch == channel;
    }

    /**
     * Bytes written to the current connection that it has not taken yet (from any thread): a change means the
     * backend is taking the request.
     */
    long pendingWriteBytes() {
        Channel ch = channel;
        ChannelOutboundBuffer out = ch == null ? null : ch.unsafe().outboundBuffer();
        return out == null ? 0 : out.totalPendingWriteBytes();
    }

    /** The current connection (its identity tells one from the next), or null. */
    Object connection() {
        return connection;
    }

    /** Whether there is a current connection (open, connecting, or closed and not dropped yet). */
    boolean present() {
        return channel != null;
    }

    /** Whether there is a current connection and it is open. */
    boolean open() {
        return channel != null && channel.isActive();
    }

    boolean servedBefore() {
        return servedBefore;
    }

    boolean pooled() {
        return pool != null;
    }

    /** The current connection is open and cannot take more now: what is read from the client would pile up. */
    boolean full() {
        Channel b = channel;
        // A closed backend is not writable either, but it holds nothing back: its close is handled on its own.
        return b != null && !b.isWritable() && b.isActive();
    }

    /** Writes {@code msg} to the current connection (a failed write closes it: the owner hears of it). */
    void write(Object msg) {
        // A failed write fires exceptionCaught in the backend pipeline (void promise): backendFailed, no listener.
        channel.write(msg, channel.voidPromise());
        flushPending = true;
    }

    void flush() {
        if (flushPending) {
            flushPending = false;
            if (channel != null) {
                channel.flush();
            }
        }
    }

    /** Pooled: the request has gone out whole and its response has been read whole: the connection goes back. */
    void giveBack() {
        Channel ch = channel;
        L7BackendConnection c = connection;
        flush(); // what this request still had unflushed goes out first
        channel = null;
        connection = null;
        if (readPaused) {
            readPaused = false;
            ch.config().setAutoRead(true); // idle in the pool it must still see the backend's close
        }
        pool.offer(c);
    }

    /** Closes the current connection, if any: it is out of step, failed or holds a request that will not complete. */
    void drop() {
        Channel ch = channel;
        channel = null;
        connection = null;
        readPaused = false;
        flushPending = false;
        if (ch != null) {
            ch.close();
        }
    }

    void pauseReading() {
        if (!readPaused && channel != null) {
            readPaused = true;
            pauses++;
            channel.config().setAutoRead(false);
        }
    }

    void resumeReading() {
        if (readPaused) {
            readPaused = false;
            if (channel != null) {
                channel.config().setAutoRead(true);
            }
        }
    }

    /** Reading is paused by the proxy (the client is slow): the backend's silence meanwhile is not its own. */
    boolean readPaused() {
        return readPaused;
    }

    /**
     * Progress of the current connection: its read batches (a backend making progress is read) plus the times the
     * proxy paused reading it (that wait was the proxy's, not the backend's). Compared only for one connection
     * ({@link #connection()}).
     */
    long progress() {
        L7BackendConnection c = connection;
        return pauses + (c == null ? 0 : c.reads());
    }
}
