package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;

/**
 * The pipeline of every client connection of the proxy, at either layer. Used as is by the proxy server,
 * the tests and the in-process benchmarks; only the {@link BackendConnector} differs.
 */
public final class ProxyInitializer extends ChannelInitializer<Channel> {
    private final ProxyConfig config;
    private final BackendConnector connector;
    /** {@link BackendPool#PER_LOOP}: one pool of idle backend connections per event loop of this proxy. */
    private final KeepAlivePool.PerLoop pools;
    /** A user's handler ({@code --handler}), or null. */
    private final UserHandler userHandler;

    public ProxyInitializer(ProxyConfig config, BackendConnector connector) {
        this(config, connector, null);
    }

    /** With a user's handler in every L7 pipeline, before the proxy's frontend ({@link UserHandler}); L7 only. */
    public ProxyInitializer(ProxyConfig config, BackendConnector connector, UserHandler userHandler) {
        if (userHandler != null && config.layer() != Layer.L7) {
            throw new IllegalArgumentException("a handler (" + userHandler + ") needs layer 7: an L4 relay has no "
                    + "HTTP messages to hand it; valid with layer 4: " + UserHandler.NONE);
        }
        this.config = config;
        this.connector = connector;
        this.pools = config.backendPool() == BackendPool.PER_LOOP ? new KeepAlivePool.PerLoop() : null;
        this.userHandler = userHandler;
    }

    @Override
    protected void initChannel(Channel ch) {
        ChannelPipeline p = ch.pipeline();
        switch (config.layer()) {
            case L4:
                ch.config().setAutoRead(false); // read only when what was read before has gone out
                // A client's FIN goes on to the backend and the backend's answer still comes back (L4FrontendHandler).
                ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
                p.addLast("l4-frontend", new L4FrontendHandler(connector, config));
                break;
            case L7:
                // A client that half-closes after its requests still gets its responses (L7FrontendHandler).
                ch.config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true);
                ReadGate gate = new ReadGate();
                p.addLast("read-gate", gate);
                p.addLast("http-server-codec", HttpCodecs.server());
                RequestAggregator aggregator = null;
                if (config.l7Mode() == L7Mode.AGGREGATE) {
                    aggregator = new RequestAggregator(config.maxContentLength());
                    p.addLast("http-aggregator", aggregator);
                }
                if (userHandler != null) {
                    p.addLast(userHandler.pipelineName(), userHandler.newHandler());
                }
                p.addLast("l7-frontend", new L7FrontendHandler(config, connector, gate, aggregator, pools));
                break;
            default:
                throw new AssertionError(config.layer());
        }
    }
}
