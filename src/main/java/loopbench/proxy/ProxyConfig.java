package loopbench.proxy;

import loopbench.knobs.ThreadModel;
import loopbench.server.LoopbackServer;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * What a proxy forwards to and how.
 *
 * @param layer            4 (bytes) or 7 (HTTP)
 * @param backend          where every connection is forwarded
 * @param threadModel      which event loop the backend connections run on
 * @param maxContentLength L7 only: the largest request or response body accepted (bytes)
 * @param l7Mode           L7 only: aggregate whole messages, or stream their pieces
 */
public record ProxyConfig(Layer layer, InetSocketAddress backend, ThreadModel threadModel, int maxContentLength,
                          L7Mode l7Mode) {

    /** 8 MiB: large enough for the test bodies (up to 1 MiB), small enough to bound memory per connection. */
    public static final int DEFAULT_MAX_CONTENT_LENGTH = 8 * 1024 * 1024;

    public ProxyConfig {
        if (maxContentLength < 0) {
            throw new IllegalArgumentException("max content length must be >= 0, was " + maxContentLength);
        }
        Objects.requireNonNull(l7Mode, "l7Mode");
    }

    /** The defaults for everything not given: L7 aggregates. */
    public ProxyConfig(Layer layer, InetSocketAddress backend, ThreadModel threadModel, int maxContentLength) {
        this(layer, backend, threadModel, maxContentLength, L7Mode.AGGREGATE);
    }

    public static ProxyConfig of(Layer layer, InetSocketAddress backend, ThreadModel threadModel) {
        return new ProxyConfig(layer, backend, threadModel, DEFAULT_MAX_CONTENT_LENGTH);
    }

    public ProxyConfig withL7Mode(L7Mode mode) {
        return new ProxyConfig(layer, backend, threadModel, maxContentLength, mode);
    }

    public ProxyConfig withMaxContentLength(int bytes) {
        return new ProxyConfig(layer, backend, threadModel, bytes, l7Mode);
    }

    /** The value of the Host header sent to the backend. */
    public String backendHostHeader() {
        return LoopbackServer.hostPort(backend);
    }
}
