package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/** The backend side of the L4 proxy: relays the backend's bytes to the client, one read at a time. */
public final class L4BackendHandler extends ChannelInboundHandlerAdapter {
    private final Channel inbound;

    public L4BackendHandler(Channel inbound) {
        this.inbound = inbound;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        ctx.read();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        inbound.writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                ctx.channel().read();
            } else {
                f.channel().close();
            }
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        Channels.closeOnFlush(inbound);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Channels.closeOnFlush(ctx.channel());
    }
}
