package loopbench.proxy;

import java.time.Duration;
import java.util.Objects;

/**
 * How long the proxy waits for each side before it gives up, with nginx's defaults and names. {@link Duration#ZERO}
 * turns a timeout off. Checked by one {@link Watchdog} per client connection, so a timeout fires at its limit or up to
 * a tenth of the shortest limit later, never earlier.
 *
 * @param clientHeader   L7: a request head must arrive whole within this (nginx {@code client_header_timeout}),
 *                       counted from its first byte, or from the connection's start for its first request: 408, close
 * @param clientBody     L7: at most this between two reads of a request body (nginx {@code client_body_timeout}):
 *                       408 (or, if the response has started, a close)
 * @param keepAlive      L7: a connection whose last response has gone out is closed after this
 *                       ({@code keepalive_timeout}) unless a request begins
 * @param backendConnect connecting to the backend (nginx {@code proxy_connect_timeout}): 502 at L7, close at L4
 * @param backend        L7: once a request's head has gone to the backend, at most this between two steps of the
 *                       backend: taking more of the request or sending more of the response (nginx's
 *                       {@code proxy_send_timeout} and {@code proxy_read_timeout}): 504 if nothing of the response
 *                       went to the client yet, else both connections close
 * @param idle           L4: both connections close after this without a byte either way (nginx stream
 *                       {@code proxy_timeout})
 */
public record ProxyTimeouts(Duration clientHeader, Duration clientBody, Duration keepAlive, Duration backendConnect,
                            Duration backend, Duration idle) {

    /** nginx's defaults: 60 s for the client's head and body, 75 s keep-alive, 60 s for the backend, L4 10 min. */
    public static final ProxyTimeouts DEFAULTS = new ProxyTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(60),
            Duration.ofSeconds(75), Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofMinutes(10));

    /** Every timeout off: a connection waits as long as its peers do. */
    public static final ProxyTimeouts NONE = new ProxyTimeouts(Duration.ZERO, Duration.ZERO, Duration.ZERO,
            Duration.ZERO, Duration.ZERO, Duration.ZERO);

    public ProxyTimeouts {
        check("client header timeout", clientHeader);
        check("client body timeout", clientBody);
        check("keep-alive timeout", keepAlive);
        check("backend connect timeout", backendConnect);
        check("backend timeout", backend);
        check("idle timeout", idle);
        if (backendConnect.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("backend connect timeout must be at most " + Integer.MAX_VALUE
                    + " ms (Netty's CONNECT_TIMEOUT_MILLIS is an int), was " + backendConnect.toMillis() + " ms");
        }
    }

    private static void check(String what, Duration d) {
        Objects.requireNonNull(d, what);
        if (d.isNegative()) {
            throw new IllegalArgumentException(what + " must be >= 0 (0 turns it off), was " + d);
        }
    }

    public ProxyTimeouts withClientHeader(Duration d) {
        return new ProxyTimeouts(d, clientBody, keepAlive, backendConnect, backend, idle);
    }

    public ProxyTimeouts withClientBody(Duration d) {
        return new ProxyTimeouts(clientHeader, d, keepAlive, backendConnect, backend, idle);
    }

    public ProxyTimeouts withKeepAlive(Duration d) {
        return new ProxyTimeouts(clientHeader, clientBody, d, backendConnect, backend, idle);
    }

    public ProxyTimeouts withBackendConnect(Duration d) {
        return new ProxyTimeouts(clientHeader, clientBody, keepAlive, d, backend, idle);
    }

    public ProxyTimeouts withBackend(Duration d) {
        return new ProxyTimeouts(clientHeader, clientBody, keepAlive, backendConnect, d, idle);
    }

    public ProxyTimeouts withIdle(Duration d) {
        return new ProxyTimeouts(clientHeader, clientBody, keepAlive, backendConnect, backend, d);
    }

    /** Netty's CONNECT_TIMEOUT_MILLIS, where 0 is no timeout too (a timeout under 1 ms is 1 ms). */
    int backendConnectMillis() {
        return backendConnect.isZero() ? 0 : (int) Math.max(1, backendConnect.toMillis());
    }
}
