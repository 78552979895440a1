package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.ChannelInputShutdownEvent;

/** The backend side of the L4 proxy: relays the backend's bytes to the client ({@link L4Relay}). */
public final class L4BackendHandler extends ChannelInboundHandlerAdapter {
    private final Channel inbound;
    private final L4Mode mode;
    /** Read batches from the backend so far, for the client side's idle timeout (another loop with some models). */
    private final ReadCount reads = new ReadCount();

    public L4BackendHandler(Channel inbound, L4Mode mode) {
        this.inbound = inbound;
        this.mode = mode;
    }

    long reads() {
        return reads.get();
    }

    /** The backend's FIN arrives as an event, not a close: the client still gets what it sent before (L4Relay). */
    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        ctx.channel().config().setOption(ChannelOption.ALLOW_HALF_CLOSURE, true); // before anything can be read
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (mode == L4Mode.COPY) {
            ctx.read(); // splice: nothing is read before the splice is in place (L4FrontendHandler)
        }
    }

    /** The backend's FIN: what it sent before goes to the client, then the client gets a FIN; its own side goes on. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            L4Relay.inputEnded(mode, ctx.channel(), inbound);
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        L4Relay.relay(msg, ctx.channel(), inbound);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reads.increment();
        ctx.fireChannelReadComplete();
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
