package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.HttpObjectAggregator;

/**
 * The backend side of the L7 proxy: HttpClientCodec (and, in {@link L7Mode#AGGREGATE}, an aggregator with the
 * client side's limit), then every response (whole or in pieces), failure or close goes back to the
 * {@link L7FrontendHandler} it serves.
 */
final class L7BackendInitializer extends ChannelInitializer<Channel> {
    private final ProxyConfig config;
    private final L7FrontendHandler frontend;

    L7BackendInitializer(ProxyConfig config, L7FrontendHandler frontend) {
        this.config = config;
        this.frontend = frontend;
    }

    @Override
    protected void initChannel(Channel ch) {
        ch.pipeline().addLast("http-client-codec", HttpCodecs.client());
        if (config.l7Mode() == L7Mode.AGGREGATE) {
            ch.pipeline().addLast("http-aggregator", new HttpObjectAggregator(config.maxContentLength()));
            ch.pipeline().addLast("l7-backend", new Handler());
        } else {
            ch.pipeline().addLast("l7-backend", new StreamingHandler());
        }
    }

    private class Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            frontend.backendRead(ctx.channel(), msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            frontend.backendFailed(ctx.channel(), null);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            frontend.backendFailed(ctx.channel(), cause);
            ctx.close();
        }

        /** A large request (or a streamed body) filled the write buffer, or it drained: read the client on or not. */
        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            frontend.backendWritabilityChanged(ctx.channel());
        }
    }

    /** Stream mode: also flush the response pieces relayed, once per read batch. */
    private final class StreamingHandler extends Handler {
        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            frontend.backendReadComplete(ctx.channel());
        }
    }
}
