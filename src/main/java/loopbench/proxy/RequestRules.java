package loopbench.proxy;

import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;

import java.util.List;

/**
 * What the L7 proxy refuses to forward (answered, then the connection closes: its stream is not trusted), and which
 * requests it may send twice. The codecs' framing rules ({@link HttpCodecs}) come first; these are the rest:
 * <ul>
 *   <li>a request the decoder could not read: 400, 414 (request line too long) or 431 (header fields too large);</li>
 *   <li>{@code CONNECT}: 501. A reverse proxy tunnels nothing, for any target, so the method is not implemented
 *       (RFC 9110 15.6.2); 405 would claim it exists for other targets and owe an Allow header naming the methods
 *       the backend takes, which the proxy cannot know;</li>
 *   <li>more than one Host header: 400 (RFC 9112 3.2; the Host headers are taken off on the way, see
 *       {@link #refusal});</li>
 *   <li>a transfer coding other than exactly chunked (stream mode; aggregated requests carry none): 400, since any
 *       other coding would reach the backend undeclared once Transfer-Encoding, a hop-by-hop header, is rewritten;</li>
 *   <li>a Transfer-Encoding that names chunked more than once, in either mode: 400 (RFC 9112 7: chunked is applied
 *       once). Netty 4.2's decoder refuses it itself; 4.1's reads the body as chunked, so that the aggregator would
 *       forward a request another reader could frame differently ({@link #chunkedMoreThanOnce}, checked on the head
 *       before aggregation by {@link RequestAggregator});</li>
 *   <li>a body announced larger than --max-content-length (stream mode; the aggregator checks its own): 413.</li>
 * </ul>
 */
final class RequestRules {
    private RequestRules() {
    }

    static final String CHUNKED_MORE_THAN_ONCE = "Transfer-Encoding names chunked more than once";

    /** Why a request is refused, for the proxy's log (the client only sees the status). */
    record Refusal(HttpResponseStatus status, String reason) {
    }

    /** The refusal of {@code request}, or null if it may go to the backend (without its Host headers). */
    static Refusal refusal(HttpRequest request, boolean streaming, int maxContentLength) {
        if (request.decoderResult().isFailure()) {
            Throwable cause = request.decoderResult().cause();
            return new Refusal(statusForMalformed(cause), "malformed request: " + cause.getMessage());
        }
        if (HttpMethod.CONNECT.equals(request.method())) {
            return new Refusal(HttpResponseStatus.NOT_IMPLEMENTED, "CONNECT (a reverse proxy tunnels nothing)");
        }
        HttpHeaders h = request.headers();
        int hosts = takeHosts(h);
        if (hosts > 1) {
            return new Refusal(HttpResponseStatus.BAD_REQUEST, hosts + " Host headers");
        }
        if (chunkedMoreThanOnce(h)) {
            return new Refusal(HttpResponseStatus.BAD_REQUEST, CHUNKED_MORE_THAN_ONCE);
        }
        if (h.contains(HttpHeaderNames.TRANSFER_ENCODING) && !plainChunked(request, streaming)) {
            return new Refusal(HttpResponseStatus.BAD_REQUEST, "unsupported transfer coding "
                    + h.getAll(HttpHeaderNames.TRANSFER_ENCODING));
        }
        if (streaming && HttpUtil.getContentLength(request, -1L) > maxContentLength) {
            return bodyTooLarge(maxContentLength);
        }
        return null;
    }

    static Refusal bodyTooLarge(int maxContentLength) {
        return new Refusal(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
                "request body exceeds " + maxContentLength + " bytes");
    }

    /** A body piece the decoder could not read. */
    static Refusal malformedBody(Throwable cause) {
        return new Refusal(statusForMalformed(cause), "malformed request body: " + cause.getMessage());
    }

    /**
     * Removes the request's Host headers and says how many there were. The proxy sends its own Host to the backend
     * ({@link ProxyHeaders#forBackend}), so they go anyway; counting them this way makes no list of their values.
     */
    private static int takeHosts(HttpHeaders h) {
        int before = h.size();
        h.remove(HttpHeaderNames.HOST);
        return before - h.size();
    }

    /**
     * Whether the Transfer-Encoding fields, together, name chunked more than once ({@code chunked, chunked}, or two
     * fields). A request without the header costs one lookup and allocates nothing.
     */
    static boolean chunkedMoreThanOnce(HttpHeaders h) {
        if (!h.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            return false;
        }
        int chunked = 0;
        for (String field : h.getAll(HttpHeaderNames.TRANSFER_ENCODING)) {
            for (String coding : field.split(",")) {
                if (HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(coding.trim())) {
                    chunked++;
                }
            }
        }
        return chunked > 1;
    }

    /** Aggregated requests have no Transfer-Encoding left; streamed ones may say exactly chunked. */
    private static boolean plainChunked(HttpRequest request, boolean streaming) {
        if (!streaming) {
            return false;
        }
        List<String> codings = request.headers().getAll(HttpHeaderNames.TRANSFER_ENCODING);
        return codings.size() == 1 && HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(codings.get(0).trim());
    }

    /** Idempotent (RFC 9110 9.2.2) and without a body: safe to send again on a new connection. */
    static boolean mayRetry(HttpRequest request) {
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
        return HttpUtil.getContentLength(request, 0L) == 0
                && !request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING);
    }

    static HttpResponseStatus statusForMalformed(Throwable cause) {
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
