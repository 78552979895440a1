package loopbench.load;

import java.nio.charset.StandardCharsets;

/**
 * The one request an HTTP load run sends, encoded once: the request line, Host, with a connection per request
 * {@code Connection: close}, and for POST a Content-Length and a body. As wrk does, the generator writes the same
 * bytes for every request, so that
 * encoding costs nothing per request and the target sees identical requests.
 */
final class HttpRequests {
    private HttpRequests() {
    }

    static byte[] encode(LoadSpec spec) {
        Target t = spec.target();
        StringBuilder head = new StringBuilder(128)
                .append(spec.method()).append(' ').append(t.path()).append(" HTTP/1.1\r\n")
                .append("Host: ").append(t.hostHeader()).append("\r\n");
        if (spec.connectionClose()) {
            head.append("Connection: close\r\n");
        }
        if (spec.method().equals("POST")) {
            head.append("Content-Type: application/octet-stream\r\n")
                    .append("Content-Length: ").append(spec.bodySize()).append("\r\n");
        }
        head.append("\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.US_ASCII);
        if (!spec.method().equals("POST")) {
            return h;
        }
        byte[] all = new byte[h.length + spec.bodySize()];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(Payload.bytes(spec.bodySize()), 0, all, h.length, spec.bodySize());
        return all;
    }
}
