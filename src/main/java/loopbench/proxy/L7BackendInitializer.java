package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.util.ReferenceCountUtil;

/**
 * The backend side of the L7 proxy: HttpClientCodec and an aggregator (same limit as the client side),
 * then every complete response, failure or close goes back to the {@link L7FrontendHandler} it serves.
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
        ch.pipeline().addLast("http-aggregator", new HttpObjectAggregator(config.maxContentLength()));
        ch.pipeline().addLast("l7-backend", new Handler());
    }

    private final class Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof FullHttpResponse) {
                frontend.backendResponded(ctx.channel(), (FullHttpResponse) msg);
            } else {
                ReferenceCountUtil.release(msg);
            }
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
    }
}
