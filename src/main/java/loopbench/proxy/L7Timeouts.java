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
        /** More of the backend's response, between two reads, once the request was sent: 504, or a close. */
        RESPONSE("backend timeout"),
        /** Nothing the proxy times: it holds the wait itself (backpressure), connects, or writes to the client. */
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
    private Exchange seenExchange;
    private Wait seenWait;
    private long seenProgress;

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
    static Wait waitOf(Exchange e, boolean clientRead, boolean aggregatorHasBody, boolean backendReadPaused) {
        switch (e.request()) {
            case IDLE:
                if (e.response() != Exchange.Response.NONE) {
                    return Wait.NONE;
                }
                // A new connection waits for its first head from its start on (nginx does the same).
                return e.first ? Wait.HEAD : Wait.KEEP_ALIVE;
            case READING_HEAD:
                if (e.response() != Exchange.Response.NONE) {
                    return Wait.NONE;
                }
                return aggregatorHasBody ? Wait.BODY : Wait.HEAD;
            case BODY:
            case DISCARDING:
                return clientRead && e.response() != Exchange.Response.CONNECTING ? Wait.BODY : Wait.NONE;
            default:
                return e.awaitingBackend() && !backendReadPaused ? Wait.RESPONSE : Wait.NONE;
        }
    }

    @Override
    public boolean progressed() {
        Exchange e = frontend.exchange();
        wait = waitOf(e, frontend.clientRead(), frontend.aggregatorHasBody(), frontend.backend().readPaused());
        long progress;
        switch (wait) {
            case BODY:
                progress = frontend.clientReads();
                break;
            case RESPONSE:
                progress = frontend.backend().reads();
                break;
            default:
                progress = 0; // only a new exchange or another wait counts
        }
        boolean moved = e != seenExchange || wait != seenWait || progress != seenProgress;
        seenExchange = e;
        seenWait = wait;
        seenProgress = progress;
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
            case RESPONSE:
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
