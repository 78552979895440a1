package loopbench.proxy;

import loopbench.knobs.Knob;

/**
 * What the L7 proxy does with message bodies (claims C000-2, C000-7).
 */
public enum L7Mode implements Knob {
    /**
     * HttpObjectAggregator on both sides: each request and response is whole in memory (at most
     * --max-content-length) before it is forwarded, and goes out with a Content-Length. The C000 article's design, and
     * close to what nginx does by default with proxy buffering.
     */
    AGGREGATE("aggregate"),
    /**
     * No aggregator: the head and every body piece are forwarded as they are decoded (as Zuul 2 and Spring Cloud
     * Gateway do), with the sender's framing (Content-Length, or chunked); a response without a length is sent
     * chunked to HTTP/1.1 clients. Memory per connection is bounded by the channels' write-buffer water marks: a
     * side that cannot take more stops the proxy reading the other.
     */
    STREAM("stream");

    private final String cliName;

    L7Mode(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static L7Mode parse(String value) {
        return Knob.parse(L7Mode.class, "l7 mode", value);
    }
}
