package loopbench.proxy;

import loopbench.knobs.ThreadModel;
import loopbench.server.LoopbackServer;

import java.net.InetSocketAddress;

/**
 * What a proxy forwards to and how.
 *
 * @param layer            4 (bytes) or 7 (HTTP)
 * @param backend          where every connection is forwarded
 * @param threadModel      which event loop the backend connections run on
 * @param maxContentLength L7 only: the largest request or response body the aggregators accept (bytes)
 */
public record ProxyConfig(Layer layer, InetSocketAddress backend, ThreadModel threadModel, int maxContentLength) {

    /** 8 MiB: large enough for the test bodies (up to 1 MiB), small enough to bound memory per connection. */
    public static final int DEFAULT_MAX_CONTENT_LENGTH = 8 * 1024 * 1024;

    public ProxyConfig {
        if (maxContentLength < 0) {
            throw new IllegalArgumentException("max content length must be >= 0, was " + maxContentLength);
        }
    }

    public static ProxyConfig of(Layer layer, InetSocketAddress backend, ThreadModel threadModel) {
        return new ProxyConfig(layer, backend, threadModel, DEFAULT_MAX_CONTENT_LENGTH);
    }

    /** The value of the Host header sent to the backend. */
    public String backendHostHeader() {
        return LoopbackServer.hostPort(backend);
    }
}
