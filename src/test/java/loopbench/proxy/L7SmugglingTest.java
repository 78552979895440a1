package loopbench.proxy;

import loopbench.knobs.ThreadModel;
import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.RawHttp.Response;
import loopbench.testing.RecordingBackend;
import loopbench.testing.Rig;
import loopbench.testing.StrictHttp;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Request smuggling (RFC 9112 sections 2.2, 5, 6, 7.1): a client must never frame a request that the backend reads
 * differently from the proxy. Every case below hides {@code GET /smuggled} inside a request {@code /a} whose framing
 * is ambiguous or malformed (both Content-Length and Transfer-Encoding, two Content-Lengths, an unknown or
 * obfuscated Transfer-Encoding, whitespace before a colon, obs-fold, bad chunk sizes, bare LF or CR line ends). The
 * proxy must either refuse it (400, then close the connection) or forward it with exactly one unambiguous framing.
 * The backend records the exact bytes it got, and a strict parser ({@link StrictHttp}) checks them: no ambiguous
 * framing, no {@code /smuggled}, and nothing of a refused request forwarded complete. In both L7 modes: a streamed
 * request goes out piece by piece, so a body that turns out malformed half-way must never be completed.
 */
class L7SmugglingTest {
    /** The request a client tries to hide inside another. */
    static final String HIDDEN = "GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n";
    static final String HEAD = "POST /a HTTP/1.1\r\nHost: x\r\n";

    enum Outcome {
        /** 400, Connection: close, and the connection closes; the backend never gets the whole request. */
        REFUSED,
        /** 200 from the backend for /a, which got exactly one strictly framed request /a. */
        FORWARDED
    }

    record Case(String name, String bytes, Outcome outcome, String expectedBody) {
        @Override
        public String toString() {
            return name;
        }
    }

    static String hex(int n) {
        return Integer.toHexString(n);
    }

    static List<Case> cases() {
        String chunkedHidden = "0\r\n\r\n" + HIDDEN; // a chunked reader stops at 0; the rest looks like a request
        String hiddenAsChunk = hex(HIDDEN.length()) + "\r\n" + HIDDEN + "\r\n0\r\n\r\n";
        return List.of(
                // Content-Length and Transfer-Encoding together (CL.TE and TE.CL).
                new Case("CL then TE", HEAD + "Content-Length: " + chunkedHidden.length()
                        + "\r\nTransfer-Encoding: chunked\r\n\r\n" + chunkedHidden, Outcome.REFUSED, null),
                new Case("TE then CL", HEAD + "Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n"
                        + hiddenAsChunk, Outcome.REFUSED, null),
                new Case("CL 0 and TE", HEAD + "Content-Length: 0\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + chunkedHidden, Outcome.REFUSED, null),
                // Two different Content-Lengths, as two fields and as a list.
                new Case("two Content-Length fields", HEAD + "Content-Length: 0\r\nContent-Length: " + HIDDEN.length()
                        + "\r\n\r\n" + HIDDEN, Outcome.REFUSED, null),
                new Case("Content-Length list", HEAD + "Content-Length: 0, " + HIDDEN.length() + "\r\n\r\n" + HIDDEN,
                        Outcome.REFUSED, null),
                new Case("Content-Length with a sign",
                        HEAD + "Content-Length: +" + HIDDEN.length() + "\r\n\r\n" + HIDDEN,
                        Outcome.REFUSED, null),
                // Unknown and obfuscated Transfer-Encodings.
                new Case("TE xchunked", HEAD + "Transfer-Encoding: xchunked\r\n\r\n" + HIDDEN, Outcome.REFUSED, null),
                new Case("TE chunked, identity", HEAD + "Transfer-Encoding: chunked, identity\r\n\r\n" + chunkedHidden,
                        Outcome.REFUSED, null),
                new Case("TE identity", HEAD + "Transfer-Encoding: identity\r\nContent-Length: " + HIDDEN.length()
                        + "\r\n\r\n" + HIDDEN, Outcome.REFUSED, null),
                new Case("TE chunked twice", HEAD + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + chunkedHidden, Outcome.REFUSED, null),
                new Case("TE chunked twice in one list", HEAD + "Transfer-Encoding: chunked, chunked\r\n\r\n"
                        + chunkedHidden, Outcome.REFUSED, null),
                new Case("TE in HTTP/1.0", "POST /a HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + chunkedHidden, Outcome.REFUSED, null),
                new Case("space before the colon", HEAD + "Transfer-Encoding : chunked\r\nContent-Length: "
                        + chunkedHidden.length() + "\r\n\r\n" + chunkedHidden, Outcome.REFUSED, null),
                new Case("tab before the colon", HEAD + "Transfer-Encoding\t: chunked\r\nContent-Length: "
                        + chunkedHidden.length() + "\r\n\r\n" + chunkedHidden, Outcome.REFUSED, null),
                new Case("TE with a vertical tab", HEAD + "Transfer-Encoding:\u000Bchunked\r\n\r\n" + chunkedHidden,
                        Outcome.REFUSED, null),
                new Case("folded TE beside CL", HEAD + "Content-Length: " + chunkedHidden.length()
                        + "\r\nTransfer-Encoding:\r\n chunked\r\n\r\n" + chunkedHidden, Outcome.REFUSED, null),
                new Case("folded CL", HEAD + "Content-Length: 0\r\n " + HIDDEN.length() + "\r\n\r\n" + HIDDEN,
                        Outcome.REFUSED, null),
                // obs-fold: RFC 9112 5.2 allows a 400 or replacing the fold by a space. Netty replaces it, and then
                // refuses a Transfer-Encoding value that starts with the space; a fold that changes no framing is
                // forwarded as one line, the backend never sees the fold.
                new Case("folded TE alone", HEAD + "Transfer-Encoding:\r\n chunked\r\n\r\n" + hiddenAsChunk,
                        Outcome.REFUSED, null),
                new Case("TE folded into another field", HEAD + "X-Note: a\r\n Transfer-Encoding: chunked\r\n"
                        + "Content-Length: " + HIDDEN.length() + "\r\n\r\n" + HIDDEN, Outcome.FORWARDED, "/a"),
                // Bad chunk sizes and chunk framing.
                new Case("negative chunk size",
                        HEAD + "Transfer-Encoding: chunked\r\n\r\n-1\r\n" + HIDDEN + "\r\n0\r\n\r\n",
                        Outcome.REFUSED, null),
                new Case("chunk size with a sign", HEAD + "Transfer-Encoding: chunked\r\n\r\n+" + hiddenAsChunk,
                        Outcome.REFUSED, null),
                new Case("chunk size 0x", HEAD + "Transfer-Encoding: chunked\r\n\r\n0x" + hiddenAsChunk,
                        Outcome.REFUSED, null),
                new Case("chunk size overflow", HEAD + "Transfer-Encoding: chunked\r\n\r\n1000000000000000"
                        + hiddenAsChunk, Outcome.REFUSED, null),
                new Case("chunk size with inner space", HEAD + "Transfer-Encoding: chunked\r\n\r\n2 5\r\n" + HIDDEN
                        + "\r\n0\r\n\r\n", Outcome.REFUSED, null),
                new Case("empty chunk size", HEAD + "Transfer-Encoding: chunked\r\n\r\n\r\n" + HIDDEN + "\r\n0\r\n\r\n",
                        Outcome.REFUSED, null),
                new Case("chunk data longer than its size", HEAD + "Transfer-Encoding: chunked\r\n\r\n1\r\nAB\r\n"
                        + chunkedHidden, Outcome.REFUSED, null),
                new Case("bare LF after chunk data",
                        HEAD + "Transfer-Encoding: chunked\r\n\r\n1\r\nA\n" + chunkedHidden,
                        Outcome.REFUSED, null),
                new Case("bare LF after chunk size", HEAD + "Transfer-Encoding: chunked\r\n\r\n"
                        + hex(HIDDEN.length()) + "\n" + HIDDEN + "\r\n0\r\n\r\n", Outcome.REFUSED, null),
                new Case("bare LF in chunk extension", HEAD + "Transfer-Encoding: chunked\r\n\r\n1;x=\nA\r\n"
                        + chunkedHidden, Outcome.REFUSED, null),
                // Bare LF and bare CR line ends in the head.
                new Case("bare LF line ends", "POST /a HTTP/1.1\nHost: x\nContent-Length: 0\n\n" + HIDDEN,
                        Outcome.REFUSED, null),
                new Case("bare LF before Content-Length", HEAD + "X-A: b\nContent-Length: " + HIDDEN.length()
                        + "\r\n\r\n" + HIDDEN, Outcome.REFUSED, null),
                new Case("bare CR before Content-Length", HEAD + "X-A: b\rContent-Length: " + HIDDEN.length()
                        + "\r\n\r\n" + HIDDEN, Outcome.REFUSED, null),
                // Control: a well-formed chunked request carrying the hidden request as plain data.
                new Case("well-formed chunked", HEAD + "Transfer-Encoding: chunked\r\n\r\n" + hiddenAsChunk,
                        Outcome.FORWARDED, "/a"),
                new Case("well-formed Content-Length",
                        HEAD + "Content-Length: " + HIDDEN.length() + "\r\n\r\n" + HIDDEN,
                        Outcome.FORWARDED, "/a"));
    }

    static Stream<Arguments> configs() {
        return Rig.combinations(L7Mode.values(), BackendPool.values(), cases().toArray());
    }

    private static LoopbackServer proxy(L7Mode mode, BackendPool pool, RecordingBackend backend) {
        return ProxyServer.start(Rig.options(),
                ProxyConfig.of(Layer.L7, backend.address(), ThreadModel.REUSE_SERVER_THREAD)
                .withL7Mode(mode).withBackendPool(pool));
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("configs")
    void ambiguousFramingIsRefusedOrForwardedUnambiguously(L7Mode mode, BackendPool pool, Case c) throws Exception {
        try (RecordingBackend backend = RecordingBackend.start(); LoopbackServer proxy = proxy(mode, pool, backend)) {
            try (Conn conn = RawHttp.open(proxy.port())) {
                conn.send(c.bytes().getBytes(StandardCharsets.ISO_8859_1));
                Response r = conn.read();
                switch (c.outcome()) {
                    case REFUSED:
                        assertEquals(400, r.status(), () -> c + ": " + r);
                        assertTrue(r.headers().hasToken("Connection", "close"), () -> c + ": " + r);
                        assertTrue(conn.closedByPeer(), c + ": the connection closes after the 400");
                        break;
                    case FORWARDED:
                        assertEquals(200, r.status(), () -> c + ": " + r);
                        assertEquals(c.expectedBody(), r.bodyText(), c::toString);
                        // The proxy goes on serving this connection, in step with it.
                        Response next = conn.exchange(RawHttp.get("/next"));
                        assertEquals("/next", next.bodyText(), c::toString);
                        break;
                    default:
                        throw new AssertionError(c.outcome());
                }
            }
            // A fresh connection is served as usual.
            try (Conn conn = RawHttp.open(proxy.port())) {
                assertEquals("/fresh", conn.exchange(RawHttp.get("/fresh")).bodyText());
            }
            List<StrictHttp.Request> seen = backend.requests(); // fails on any ambiguous framing
            List<String> targets = seen.stream().map(StrictHttp.Request::target).collect(Collectors.toList());
            assertFalse(targets.contains("/smuggled"), c + ": the backend got the hidden request: " + targets);
            long completeA = seen.stream().filter(s -> s.complete() && s.target().equals("/a")).count();
            assertEquals(c.outcome() == Outcome.FORWARDED ? 1 : 0, completeA,
                    c + ": complete /a at the backend: " + targets);
        }
    }

    /** The control case's body arrives byte for byte: the strict checks above do not pass by forwarding nothing. */
    @ParameterizedTest
    @EnumSource(L7Mode.class)
    void wellFormedChunkedBodyArrivesIntact(L7Mode mode) throws Exception {
        try (RecordingBackend backend = RecordingBackend.start();
             LoopbackServer proxy = proxy(mode, BackendPool.PER_CLIENT, backend);
             Conn conn = RawHttp.open(proxy.port())) {
            String body = "hello, " + HIDDEN;
            conn.send((HEAD + "Transfer-Encoding: chunked\r\n\r\n7\r\nhello, \r\n" + hex(HIDDEN.length()) + "\r\n"
                    + HIDDEN + "\r\n0\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            assertEquals("/a", conn.read().bodyText());
            List<StrictHttp.Request> seen = backend.requests();
            assertEquals(1, seen.size(), seen::toString);
            assertArrayEquals(body.getBytes(StandardCharsets.ISO_8859_1), seen.get(0).body());
        }
    }
}
