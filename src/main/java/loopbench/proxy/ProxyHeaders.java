package loopbench.proxy;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

/** The header rewriting an L7 proxy owes both sides (RFC 9110 section 7.6). */
final class ProxyHeaders {
    /** Header names as AsciiStrings: their hash is computed once, and they are written to the wire without a copy. */
    private static final AsciiString X_FORWARDED_FOR = AsciiString.cached("x-forwarded-for");
    private static final AsciiString[] HOP_BY_HOP = {
            HttpHeaderNames.CONNECTION, HttpHeaderNames.KEEP_ALIVE, AsciiString.cached("proxy-connection"),
            HttpHeaderNames.PROXY_AUTHENTICATE, HttpHeaderNames.PROXY_AUTHORIZATION, HttpHeaderNames.TE,
            HttpHeaderNames.TRAILER, HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderNames.UPGRADE,
    };

    private ProxyHeaders() {
    }

    /**
     * Makes a client's request ready for the backend: HTTP/1.1 and keep-alive towards the backend, Host set to the
     * backend, the client's address appended to X-Forwarded-For. Its framing stays what it was: an aggregated request
     * has a Content-Length; a streamed one keeps its Content-Length, or {@code Transfer-Encoding: chunked} (the
     * decoder lets no other coding through, see {@link HttpCodecs}), which the encoder then re-chunks. The Host value
     * and the client's address are made once (per proxy, per connection: {@link #hostValue}, {@link #clientIp}).
     */
    static void forBackend(HttpRequest request, AsciiString backendHost, AsciiString clientIp) {
        HttpHeaders h = request.headers();
        boolean chunked = h.contains(HttpHeaderNames.TRANSFER_ENCODING);
        removeHopByHop(h);
        if (chunked) {
            h.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
        }
        h.remove(HttpHeaderNames.EXPECT); // the aggregator already answered any 100-continue
        request.setProtocolVersion(HttpVersion.HTTP_1_1);
        h.set(HttpHeaderNames.HOST, backendHost);
        String prior = h.get(X_FORWARDED_FOR);
        h.set(X_FORWARDED_FOR, prior == null || prior.isEmpty() ? clientIp : prior + ", " + clientIp);
    }

    /** The Host header value for {@code backend}. */
    static AsciiString hostValue(String backendHostPort) {
        return new AsciiString(backendHostPort);
    }

    /**
     * Makes a backend's response ready for the client, whose keep-alive wish decides Connection. Transfer-Encoding
     * goes (hop-by-hop); a streamed response without a Content-Length gets its framing back from the caller.
     */
    static void forClient(HttpResponse response, HttpVersion clientVersion, boolean clientKeepAlive) {
        removeHopByHop(response.headers());
        response.setProtocolVersion(HttpVersion.HTTP_1_1);
        setConnection(response, clientVersion, clientKeepAlive);
    }

    /** Connection: close when closing; Connection: keep-alive only where HTTP/1.0 needs it said. */
    static void setConnection(HttpMessage message, HttpVersion clientVersion, boolean keepAlive) {
        if (!keepAlive) {
            message.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (!clientVersion.isKeepAliveDefault()) {
            message.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
    }

    private static void removeHopByHop(HttpHeaders h) {
        // Headers named in Connection are hop-by-hop too (the common request has no Connection: no list made).
        if (h.contains(HttpHeaderNames.CONNECTION)) {
            List<String> named = h.getAll(HttpHeaderNames.CONNECTION);
            for (String value : named) {
                for (String token : value.split(",")) {
                    String name = token.trim();
                    if (!name.isEmpty()) {
                        h.remove(name);
                    }
                }
            }
        }
        for (AsciiString name : HOP_BY_HOP) {
            h.remove(name);
        }
    }

    /** The client's address as X-Forwarded-For names it. */
    static AsciiString clientIp(SocketAddress client) {
        if (client instanceof InetSocketAddress) {
            InetSocketAddress a = (InetSocketAddress) client;
            return new AsciiString(a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString());
        }
        return new AsciiString(String.valueOf(client));
    }
}
