package loopbench.proxy;

import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * The L7 proxy's HTTP/1.1 codecs, with every framing rule that guards against request smuggling pinned on
 * explicitly instead of taken from Netty's defaults, which system properties can loosen process-wide
 * ({@code io.netty.handler.codec.http.defaultStrictLineParsing}, {@code ...rfc9112TransferEncoding}):
 * <ul>
 *   <li>strict line parsing: every line ends in CRLF; a bare LF or CR is a 400 (RFC 9112 2.2);</li>
 *   <li>RFC 9112 Transfer-Encoding: a message with both Transfer-Encoding and Content-Length, a Transfer-Encoding
 *       in HTTP/1.0, or one whose final coding is not chunked is refused, not re-framed (RFC 9112 6.1, 6.3);</li>
 *   <li>no duplicate Content-Length, even with equal values; header names and values validated (whitespace
 *       before a colon is not a name, RFC 9112 5.1).</li>
 * </ul>
 * L7SmugglingTest fails with the lenient settings and passes with these.
 */
final class HttpCodecs {
    private HttpCodecs() {
    }

    static HttpDecoderConfig strictDecoderConfig() {
        return new HttpDecoderConfig()
                .setStrictLineParsing(true)
                .setUseRfc9112TransferEncoding(true)
                .setAllowDuplicateContentLengths(false)
                .setValidateHeaders(true);
    }

    /** Towards the client: decodes requests, encodes responses. */
    static HttpServerCodec server() {
        return new HttpServerCodec(strictDecoderConfig());
    }

    /** Towards the backend: encodes requests, decodes responses (same rules: a backend can smuggle too). */
    static HttpClientCodec client() {
        return new HttpClientCodec(strictDecoderConfig(), false, false);
    }
}
