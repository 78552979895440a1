package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * The client side of the L4 proxy, after Netty's HexDumpProxy: AUTO_READ is off on both channels and
 * each side reads again only when its last read has been written to the other side, so a fast sender and
 * a slow receiver hold at most one read buffer per direction. Either side closing closes the other once
 * what it already wrote is flushed.
 */
public final class L4FrontendHandler extends ChannelInboundHandlerAdapter {
    private final BackendConnector connector;
    private ChannelFuture connect;
    private Channel outbound;

    public L4FrontendHandler(BackendConnector connector) {
        this.connector = connector;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        Channel inbound = ctx.channel();
        connect = connector.connect(inbound, new L4BackendHandler(inbound), false);
        outbound = connect.channel();
        connect.addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                inbound.read(); // connected: start relaying the client's bytes
            } else {
                inbound.close(); // backend refused: nothing to relay to
            }
        });
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!connect.isDone()) {
            // Bytes can arrive before the backend is connected even though nothing asked for them: epoll and
            // io_uring read on their own when the client half-closes (RDHUP). Relay them once connected.
            connect.addListener((ChannelFutureListener) f -> relay(ctx, msg));
            return;
        }
        relay(ctx, msg);
    }

    private void relay(ChannelHandlerContext ctx, Object msg) {
        if (outbound.isActive()) {
            outbound.writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    ctx.channel().read();
                } else {
                    f.channel().close();
                }
            });
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (connect == null) {
            return;
        }
        if (connect.isDone()) {
            Channels.closeOnFlush(outbound);
        } else {
            // The client left while the backend was still connecting: close the backend once it is connected
            // (after any bytes relayed above, the listeners run in order), or it would stay open for good.
            connect.addListener((ChannelFutureListener) f -> Channels.closeOnFlush(outbound));
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Channels.closeOnFlush(ctx.channel());
    }
}
