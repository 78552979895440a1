package loopbench.proxy;

/**
 * Which of the L7 proxy's {@link ProxyTimeouts} a client connection is waiting under, and what counts as progress in
 * it, for its {@link Watchdog}. Derived each tick from the current {@link Exchange}'s phases; nothing on the request
 * path sets it.
 */
final class L7Timeouts implements Watchdog.Watched {

    /** What the connection waits for, and what happens when that takes too long. */
    enum Wait {
        /** A request head (on a new connection counted from its start, else from the head's first byte): 408. */
        HEAD("client header timeout"),
        /** The next request on a kept-alive connection, before any byte of it: a silent close. */
        KEEP_ALIVE("keep-alive timeout"),
        /** More of a request body, between two reads: 408 (or a close once the response has started). */
        BODY("client body timeout"),
        /**
         * The backend, once the request's head went to it: taking the rest of the request, or answering; between two
         * of its reads or two drains of what waits to be written to it (nginx's proxy_send_timeout and
         * proxy_read_timeout in one). 504, or a close once the response has started.
         */
        BACKEND("backend timeout"),
        /**
         * Nothing the proxy times: it connects, or a response waits for the client to read it (there is no send
         * timeout).
         */
        NONE("no timeout");

        /** As the option that sets it names it, for the log. */
        final String timeout;

        Wait(String timeout) {
            this.timeout = timeout;
        }
    }

    private final L7FrontendHandler frontend;
    private final long headNanos;
    private final long bodyNanos;
    private final long keepAliveNanos;
    private final long backendNanos;

    private Wait wait = Wait.NONE;
    private long seenExchange = -1;
    private Wait seenWait;
    private Object seenBackend;
    private long seenCount;
    private long seenPending;

    L7Timeouts(L7FrontendHandler frontend, ProxyTimeouts timeouts) {
        this.frontend = frontend;
        this.headNanos = timeouts.clientHeader().toNanos();
        this.bodyNanos = timeouts.clientBody().toNanos();
        this.keepAliveNanos = timeouts.keepAlive().toNanos();
        this.backendNanos = timeouts.backend().toNanos();
    }

    /** The shortest of the L7 timeouts that are on, 0 if none is. */
    long shortestNanos() {
        return Watchdog.shortest(headNanos, bodyNanos, keepAliveNanos, backendNanos);
    }

    /** The wait the connection is in now. */
    private Wait waitOf(Exchange e, BackendLink backend) {
        switch (e.request()) {
            case IDLE:
                if (e.response() != Exchange.Response.NONE) {
                    return Wait.NONE; // answered (a 408): closing
                }
                if (e.first()) {
                    return Wait.HEAD; // a new connection waits for its first head from its start on, as in nginx
                }
                // Kept alive from the moment the last response has gone out, not merely been queued.
                return frontend.clientPendingWriteBytes() > 0 ? Wait.NONE : Wait.KEEP_ALIVE;
            case READING_HEAD:
                if (e.response() != Exchange.Response.NONE) {
                    return Wait.NONE; // answered (a 408): closing
                }
                return frontend.aggregatorHasBody() ? Wait.BODY : Wait.HEAD;
            case BODY:
            case DISCARDING:
                if (e.response() == Exchange.Response.CONNECTING) {
                    return Wait.NONE; // the connect timeout's
                }
                if (backend.full()) {
                    return Wait.BACKEND; // the client is held back because the backend takes no more
                }
                return frontend.clientRead() ? Wait.BODY : Wait.NONE;
            default:
                // Not while the proxy stops reading the backend because the client does not read.
                return e.awaitingBackend() && !backend.readPaused() ? Wait.BACKEND : Wait.NONE;
        }
    }

    @Override
    public boolean progressed() {
        Exchange e = frontend.exchange();
        BackendLink backend = frontend.backend();
        wait = waitOf(e, backend);
        long count = 0;
        long pending = 0;
        if (wait == Wait.BODY) {
            count = frontend.clientProgress();
        } else if (wait == Wait.BACKEND) {
            count = backend.progress();
            pending = backend.pendingWriteBytes();
        }
        Object connection = backend.connection();
        boolean moved = e.serial() != seenExchange || wait != seenWait || connection != seenBackend
                || count != seenCount || pending != seenPending;
        seenExchange = e.serial();
        seenWait = wait;
        seenBackend = connection;
        seenCount = count;
        seenPending = pending;
        return moved;
    }

    @Override
    public long limitNanos() {
        switch (wait) {
            case HEAD:
                return headNanos;
            case KEEP_ALIVE:
                return keepAliveNanos;
            case BODY:
                return bodyNanos;
            case BACKEND:
                return backendNanos;
            default:
                return 0;
        }
    }

    @Override
    public void expired() {
        frontend.timedOut(wait, limitNanos());
    }
}
