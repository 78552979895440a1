package loopbench.proxy;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;

/**
 * {@link BackendPool#PER_LOOP}: the idle keep-alive backend connections of one client-side event loop, shared by the
 * client connections of that loop, as each nginx worker keeps its own upstream {@code keepalive} cache. A pool is
 * touched only from its own loop (no lock): a client connection takes a connection for a request and gives it back
 * once that request has been sent whole and its response read whole; the most recently returned is taken first (the
 * warmest), and a returned connection beyond {@link #MAX_IDLE} is closed, which bounds what idle connections hold.
 *
 * <p>What each {@linkplain loopbench.knobs.ThreadModel thread model} means with a pool (the pool always belongs to
 * the client's loop; the thread model still decides where its connections' I/O runs):
 * <ul>
 *   <li>reuse-server-thread: the pooled connections run on the pool's own loop, so a client only ever gets a backend
 *       connection of its own thread: no hand-off at all, nginx's model (a worker's client and upstream connections
 *       share its one event loop);</li>
 *   <li>reuse-server-group: a new connection registers on whichever loop of the server's group comes next, so a
 *       pooled connection may run on another loop than the clients that take it: the hand-off of the per-client case,
 *       with fewer connections;</li>
 *   <li>individual-group: the pooled connections run on the backend group's loops: every response crosses threads,
 *       as without a pool.</li>
 * </ul>
 * A connection that closes while idle (the backend's keep-alive timeout, a restart) leaves the pool by itself; one
 * that closes just as a request is sent on it is retried once on a new connection when that is safe (see
 * L7FrontendHandler), otherwise answered 502.
 */
final class KeepAlivePool {
    /**
     * Idle connections kept per loop (nginx's {@code keepalive N}): above the suite's largest load (1,000 connections)
     * so that a benchmark never closes and reopens connections for want of room; a larger burst closes the excess.
     */
    static final int MAX_IDLE = 1024;

    private final EventLoop loop;
    private final ArrayDeque<L7BackendConnection> idle = new ArrayDeque<>();

    private KeepAlivePool(EventLoop loop) {
        this.loop = loop;
    }

    /** The most recently returned idle connection, or null; it may have closed since: the caller checks. */
    L7BackendConnection poll() {
        return idle.pollFirst();
    }

    /** Takes back a connection whose last exchange is complete (on this pool's loop); closes what it cannot keep. */
    void offer(L7BackendConnection connection) {
        connection.owner(null); // before the check: see L7BackendConnection
        if (!connection.channel().isActive() || idle.size() >= MAX_IDLE) {
            connection.channel().close();
            return;
        }
        idle.addFirst(connection);
    }

    /** From any thread: {@code connection} has closed; forget it if it is idle here. */
    void closed(L7BackendConnection connection) {
        if (loop.inEventLoop()) {
            idle.remove(connection);
            return;
        }
        try {
            loop.execute(() -> idle.remove(connection));
        } catch (RejectedExecutionException e) {
            // the loop is shutting down with the server, and its channels with it
        }
    }

    /** Idle connections (for tests). */
    int idle() {
        return idle.size();
    }

    /** One pool per event loop of one proxy: a pool's clients and its loop share a thread. */
    static final class PerLoop {
        private final FastThreadLocal<KeepAlivePool> pools = new FastThreadLocal<>();

        /** The pool of {@code loop}, which must be the calling thread's. */
        KeepAlivePool of(EventLoop loop) {
            KeepAlivePool pool = pools.get();
            if (pool == null) {
                pool = new KeepAlivePool(loop);
                pools.set(pool);
            }
            return pool;
        }
    }
}
