package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;

/** The backend side of the L4 proxy: relays the backend's bytes to the client ({@link L4Relay}). */
public final class L4BackendHandler extends ChannelInboundHandlerAdapter {
    private final Channel inbound;
    private final L4Mode mode;

    public L4BackendHandler(Channel inbound, L4Mode mode) {
        this.inbound = inbound;
        this.mode = mode;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        if (mode == L4Mode.SPLICE) {
            SpliceRelay.allowHalfClosure(ctx.channel()); // before anything can be read
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (mode == L4Mode.COPY) {
            ctx.read(); // splice: nothing is read before the splice is in place (L4FrontendHandler)
        }
    }

    /** Splice mode (half-closure on): the backend's FIN. What it sent before still goes to the client, then both close. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            SpliceRelay.drainThenClose(ctx.channel(), inbound);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        L4Relay.relay(msg, ctx.channel(), inbound);
    }

    /** The backend can take more again: read the client (which stopped while the backend was not writable). */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        L4Relay.writabilityChanged(mode, ctx.channel(), inbound);
        ctx.fireChannelWritabilityChanged();
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
