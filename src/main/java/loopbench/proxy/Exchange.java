package loopbench.proxy;

import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;

/**
 * One request on an L7 client connection and its response: where each stands, and what the request said that its
 * response needs. A client connection has one, which {@link #next} turns into the next request's once this one is done,
 * from the moment it waits for its head. {@link #next} sets every field as the constructor does (a test holds it to
 * that, field by field), so nothing of one request leaks into the next; the connection reuses the object because a
 * new one per request was 56 of the bytes a 1 KiB exchange allocates.
 *
 * <p>The request and the response each have a phase of their own, because in stream mode they overlap: a backend may
 * answer before the request's body has all arrived (the proxy forwards the rest, to keep that connection in step), or
 * the proxy may answer an error while the rest of a body still comes. Each phase moves only forward along the arrows
 * below (and between AWAITING and INTERIM); any other step is a bug and throws {@link IllegalStateException}.
 * <pre>
 * request:  IDLE --&gt; READING_HEAD --&gt; BODY --&gt; DISCARDING --&gt; READ
 *           (a head taken goes to BODY if more of its body follows, else to READ; a body goes to DISCARDING when
 *           the request is answered before it ends)
 * response: NONE --&gt; CONNECTING --&gt; AWAITING &lt;--&gt; INTERIM
 *           AWAITING --&gt; RELAYING --&gt; WRITING --&gt; QUEUED --&gt; DONE
 *           (a retry goes from AWAITING back to CONNECTING, once; an error answer goes to WRITING from any phase
 *           before RELAYING, a whole response from AWAITING; WRITING goes to DONE at once if nothing waits)
 * </pre>
 * The exchange is over when the request is READ and the response DONE.
 */
final class Exchange {

    /** How far the request has been read from the client. */
    enum Request {
        /** Nothing of it yet: a new connection, or a kept-alive one between two requests. */
        IDLE,
        /** Some bytes of it have been read, not its whole head yet (or, aggregating, not its whole body). */
        READING_HEAD,
        /** Its head was taken; more of its body is to come and goes to the backend. */
        BODY,
        /** More of its body is to come and goes nowhere: it was answered already, or refused. */
        DISCARDING,
        /** Read whole. */
        READ
    }

    /** How far its response has come. */
    enum Response {
        /** Nothing asked of a backend yet. */
        NONE,
        /** Its head waits for a backend connection ({@link #waitingHead}). */
        CONNECTING,
        /** Its head went to the backend; no response yet. */
        AWAITING,
        /** The backend sent an interim 1xx (not asked for: Expect is answered by the proxy), skipped up to its end. */
        INTERIM,
        /** The response's head went to the client; its body follows piece by piece (stream mode). */
        RELAYING,
        /**
         * The response (or an error answer) is being written whole: done once written (a response after which the
         * connection closes, an error answer), or at once if the client channel still takes more.
         */
        WRITING,
        /** Written whole into a client channel that is full: done when it drains. */
        QUEUED,
        /** The response has gone to the client. */
        DONE
    }

    /** Which request of its connection it is, from 0: the connection's watchdog tells one exchange from the next. */
    private long serial;
    private Request request = Request.IDLE;
    private Response response = Response.NONE;

    // What its response needs from the request: set when its head is taken.
    HttpVersion clientVersion = HttpVersion.HTTP_1_1;
    boolean clientKeepAlive;
    boolean headRequest;
    /** A head waiting for a backend connection (CONNECTING); owned here, released if the client leaves meanwhile. */
    HttpRequest waitingHead;
    /** The head of a request that may be sent once more on a new connection (idempotent, no body), or null. */
    HttpRequest retryHead;
    boolean retried;
    long requestBodyBytes;
    long responseBodyBytes;
    boolean backendClosesAfterResponse;

    /** The first exchange of a connection. */
    Exchange() {
    }

    /** This exchange, done, becomes the connection's next one: every field as a new one's, the serial one more. */
    void next() {
        if (!done()) {
            throw new IllegalStateException("next exchange while this one is not done: " + this);
        }
        serial++;
        request = Request.IDLE;
        response = Response.NONE;
        clientVersion = HttpVersion.HTTP_1_1;
        clientKeepAlive = false;
        headRequest = false;
        waitingHead = null;
        retryHead = null;
        retried = false;
        requestBodyBytes = 0;
        responseBodyBytes = 0;
        backendClosesAfterResponse = false;
    }

    long serial() {
        return serial;
    }

    /** No request came before it on this connection: waiting for its head is the client header timeout's. */
    boolean first() {
        return serial == 0;
    }

    Request request() {
        return request;
    }

    Response response() {
        return response;
    }

    /** Moves the request on; throws if {@code next} is not a step forward from where it is. */
    void request(Request next) {
        if (!follows(request, next)) {
            throw new IllegalStateException("request " + request + " -> " + next + " is not a step of an exchange");
        }
        request = next;
    }

    /** Moves the response on; throws if {@code next} is not a step forward from where it is. */
    void response(Response next) {
        if (!follows(response, next)) {
            throw new IllegalStateException("response " + response + " -> " + next + " is not a step of an exchange");
        }
        response = next;
    }

    private static boolean follows(Request from, Request to) {
        switch (from) {
            case IDLE:
                return to == Request.READING_HEAD || to == Request.BODY || to == Request.READ;
            case READING_HEAD:
                return to == Request.BODY || to == Request.READ;
            case BODY:
                return to == Request.DISCARDING || to == Request.READ;
            case DISCARDING:
                return to == Request.READ;
            default:
                return false;
        }
    }

    private static boolean follows(Response from, Response to) {
        switch (from) {
            case NONE:
                return to == Response.CONNECTING || to == Response.AWAITING || to == Response.WRITING;
            case CONNECTING:
            case INTERIM:
                return to == Response.AWAITING || to == Response.WRITING;
            case AWAITING:
                return to == Response.CONNECTING || to == Response.INTERIM || to == Response.RELAYING
                        || to == Response.WRITING;
            case RELAYING:
                return to == Response.WRITING;
            case WRITING:
                return to == Response.QUEUED || to == Response.DONE;
            case QUEUED:
                return to == Response.DONE;
            default:
                return false;
        }
    }

    /** Nothing has been taken or answered yet: the next request read starts here. */
    boolean awaitsHead() {
        return (request == Request.IDLE || request == Request.READING_HEAD) && response == Response.NONE;
    }

    /** More of the request's body is to come and can be handled now (not while its head waits for a connection). */
    boolean takesBody() {
        return (request == Request.BODY || request == Request.DISCARDING) && response != Response.CONNECTING;
    }

    boolean requestRead() {
        return request == Request.READ;
    }

    /** Its head went to the backend and the response has not been read whole. */
    boolean awaitingBackend() {
        return response == Response.AWAITING || response == Response.INTERIM || response == Response.RELAYING;
    }

    /** Some of its response (or an error answer) has gone to the client: a later failure can only close. */
    boolean responseStarted() {
        return response.compareTo(Response.RELAYING) >= 0;
    }

    boolean done() {
        return request == Request.READ && response == Response.DONE;
    }

    /** Its request went out on a kept connection and may be sent again on a new one, once. */
    boolean mayRetry() {
        return retryHead != null && !retried && request == Request.READ && response == Response.AWAITING;
    }

    @Override
    public String toString() {
        return "exchange[request " + request + ", response " + response + "]";
    }
}
