package loopbench.proxy;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import loopbench.proxy.Exchange.Request;
import loopbench.proxy.Exchange.Response;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The L7 exchange's state machine: the paths the proxy takes are legal, every other step throws, and the questions
 * the handler asks of an exchange answer from its phases alone.
 */
class ExchangeTest {

    /** Every step the proxy takes, from each phase; everything else must throw. */
    static final List<Set<Request>> REQUEST_STEPS = List.of(
            EnumSet.of(Request.READING_HEAD, Request.BODY, Request.READ), // IDLE
            EnumSet.of(Request.BODY, Request.READ), // READING_HEAD
            EnumSet.of(Request.DISCARDING, Request.READ), // BODY
            EnumSet.of(Request.READ), // DISCARDING
            EnumSet.noneOf(Request.class)); // READ
    static final List<Set<Response>> RESPONSE_STEPS = List.of(
            EnumSet.of(Response.CONNECTING, Response.AWAITING, Response.WRITING), // NONE
            EnumSet.of(Response.AWAITING, Response.WRITING), // CONNECTING
            EnumSet.of(Response.CONNECTING, Response.INTERIM, Response.RELAYING, Response.WRITING), // AWAITING
            EnumSet.of(Response.AWAITING, Response.WRITING), // INTERIM
            EnumSet.of(Response.WRITING), // RELAYING
            EnumSet.of(Response.QUEUED, Response.DONE), // WRITING
            EnumSet.of(Response.DONE), // QUEUED
            EnumSet.noneOf(Response.class)); // DONE

    @Test
    void theCommonPathsAreLegal() {
        // A GET, aggregated: head and body in one, sent at once, answered whole, written.
        Exchange get = new Exchange();
        get.request(Request.READ);
        get.response(Response.AWAITING);
        assertTrue(get.awaitingBackend());
        get.response(Response.WRITING);
        get.response(Response.DONE);
        assertTrue(get.done());

        // A streamed POST on a new connection, whose response is relayed in pieces into a full client channel.
        Exchange post = later();
        post.request(Request.READING_HEAD);
        post.request(Request.BODY);
        post.response(Response.CONNECTING);
        assertFalse(post.takesBody(), "a body waits while its head waits for the connection");
        post.response(Response.AWAITING);
        assertTrue(post.takesBody());
        post.response(Response.INTERIM);
        post.response(Response.AWAITING);
        post.request(Request.READ);
        post.response(Response.RELAYING);
        assertTrue(post.responseStarted());
        post.response(Response.WRITING);
        post.response(Response.QUEUED);
        assertFalse(post.done());
        post.response(Response.DONE);
        assertTrue(post.done());

        // An error answer while the body still comes: the rest of the body is discarded.
        Exchange refused = later();
        refused.request(Request.BODY);
        refused.response(Response.WRITING);
        refused.request(Request.DISCARDING);
        refused.response(Response.DONE);
        assertFalse(refused.done());
        refused.request(Request.READ);
        assertTrue(refused.done());
    }

    @Test
    void everyOtherRequestStepThrows() {
        for (Request from : Request.values()) {
            for (Request to : Request.values()) {
                Exchange e = exchangeAt(from, Response.NONE);
                if (REQUEST_STEPS.get(from.ordinal()).contains(to)) {
                    e.request(to);
                    assertEquals(to, e.request());
                } else {
                    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> e.request(to),
                            () -> "request " + from + " -> " + to);
                    assertTrue(thrown.getMessage().contains(from + " -> " + to), thrown::getMessage);
                    assertEquals(from, e.request(), "an illegal step changes nothing");
                }
            }
        }
    }

    @Test
    void everyOtherResponseStepThrows() {
        for (Response from : Response.values()) {
            for (Response to : Response.values()) {
                Exchange e = exchangeAt(Request.READ, from);
                if (RESPONSE_STEPS.get(from.ordinal()).contains(to)) {
                    e.response(to);
                    assertEquals(to, e.response());
                } else {
                    IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> e.response(to),
                            () -> "response " + from + " -> " + to);
                    assertTrue(thrown.getMessage().contains(from + " -> " + to), thrown::getMessage);
                    assertEquals(from, e.response(), "an illegal step changes nothing");
                }
            }
        }
    }

    @Test
    void aRetryIsOnceOnlyAndOnlyBeforeAnyOfTheResponse() {
        Exchange e = exchangeAt(Request.READ, Response.AWAITING);
        assertFalse(e.mayRetry(), "no head to send again");
        e.retryHead = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
        assertTrue(e.mayRetry());
        e.response(Response.INTERIM);
        assertFalse(e.mayRetry(), "an interim response came: the backend answered");
        e.response(Response.AWAITING);
        e.retried = true;
        assertFalse(e.mayRetry(), "once only");
    }

    @Test
    void aNewExchangeAwaitsItsHead() {
        Exchange e = new Exchange();
        assertTrue(e.awaitsHead());
        e.request(Request.READING_HEAD);
        assertTrue(e.awaitsHead());
        e.response(Response.WRITING); // a 408: nothing more is taken on this connection
        assertFalse(e.awaitsHead());
        assertFalse(e.takesBody());
    }

    @Test
    void nextSetsEveryFieldAsANewExchangeHasIt() throws ReflectiveOperationException {
        Exchange used = exchangeAt(Request.READ, Response.DONE);
        // Every field to a value a new exchange does not have: a field that next() forgets fails here.
        for (Field f : Exchange.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getName().equals("serial")
                    || f.getName().equals("request") || f.getName().equals("response")) {
                continue;
            }
            f.setAccessible(true);
            Class<?> t = f.getType();
            if (t == boolean.class) {
                f.setBoolean(used, !f.getBoolean(used));
            } else if (t == long.class) {
                f.setLong(used, 12_345);
            } else if (t == HttpVersion.class) {
                f.set(used, HttpVersion.HTTP_1_0);
            } else if (HttpRequest.class.isAssignableFrom(t)) {
                f.set(used, new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
            } else {
                throw new AssertionError("no differing value for " + f + ": add one to this test");
            }
        }
        long serial = used.serial();
        used.next();
        Exchange fresh = new Exchange();
        for (Field f : Exchange.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) || f.getName().equals("serial")) {
                continue;
            }
            f.setAccessible(true);
            assertEquals(f.get(fresh), f.get(used), "field " + f.getName() + " after next()");
        }
        assertEquals(serial + 1, used.serial());
        assertFalse(used.first());
        assertTrue(fresh.first());
    }

    @Test
    void nextOnlyOnceDone() {
        Exchange e = exchangeAt(Request.READ, Response.WRITING);
        assertThrows(IllegalStateException.class, e::next);
    }

    /** The client connection's lifecycle around the exchanges: forward only, half-close optional. */
    @Test
    void clientConnectionMovesOnlyForward() {
        L7FrontendHandler.Client open = L7FrontendHandler.Client.OPEN;
        L7FrontendHandler.Client halfClosed = open.to(L7FrontendHandler.Client.INPUT_SHUT_DOWN);
        assertEquals(L7FrontendHandler.Client.CLOSED, halfClosed.to(L7FrontendHandler.Client.CLOSED));
        assertEquals(L7FrontendHandler.Client.CLOSED, open.to(L7FrontendHandler.Client.CLOSED));
        for (L7FrontendHandler.Client from : L7FrontendHandler.Client.values()) {
            for (L7FrontendHandler.Client to : L7FrontendHandler.Client.values()) {
                if (to.ordinal() <= from.ordinal()) {
                    assertThrows(IllegalStateException.class, () -> from.to(to), from + " -> " + to);
                }
            }
        }
    }

    /** A connection's second exchange. */
    private static Exchange later() {
        Exchange e = exchangeAt(new Exchange(), Request.READ, Response.DONE);
        e.next();
        return e;
    }

    /** An exchange brought to the given phases along legal steps. */
    private static Exchange exchangeAt(Request request, Response response) {
        return exchangeAt(later(), request, response);
    }

    private static Exchange exchangeAt(Exchange e, Request request, Response response) {
        List<Request> requestPath = List.of(Request.IDLE, Request.READING_HEAD, Request.BODY, Request.DISCARDING,
                Request.READ);
        for (Request r : requestPath.subList(1, requestPath.indexOf(request) + 1)) {
            e.request(r);
        }
        List<Response> responsePath = List.of(Response.NONE, Response.CONNECTING, Response.AWAITING, Response.INTERIM);
        if (responsePath.contains(response)) {
            for (Response r : responsePath.subList(1, responsePath.indexOf(response) + 1)) {
                e.response(r);
            }
        } else {
            e.response(Response.AWAITING);
            List<Response> rest = List.of(Response.RELAYING, Response.WRITING, Response.QUEUED, Response.DONE);
            for (Response r : rest.subList(0, rest.indexOf(response) + 1)) {
                e.response(r);
            }
        }
        return e;
    }
}
