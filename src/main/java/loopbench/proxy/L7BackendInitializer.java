package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;

/**
 * The backend side of the L7 proxy: HttpClientCodec (and, in {@link L7Mode#AGGREGATE}, a {@link ProxyAggregator} with
 * the client side's limit), then the {@link L7BackendConnection} that hands everything to the client side.
 */
final class L7BackendInitializer extends ChannelInitializer<Channel> {
    private final ProxyConfig config;
    private final L7BackendConnection connection;

    L7BackendInitializer(ProxyConfig config, L7BackendConnection connection) {
        this.config = config;
        this.connection = connection;
    }

    @Override
    protected void initChannel(Channel ch) {
        ch.pipeline().addLast("http-client-codec", HttpCodecs.client());
        if (config.l7Mode() == L7Mode.AGGREGATE) {
            ch.pipeline().addLast("http-aggregator", new ProxyAggregator(config.maxContentLength()));
        }
        ch.pipeline().addLast("l7-backend", connection);
    }
}
