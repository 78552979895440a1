package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.util.ReferenceCountUtil;

/**
 * The client side of the L4 proxy, after Netty's HexDumpProxy: AUTO_READ is off on both channels and
 * each side reads again only while the other side is writable, so a fast sender and a slow receiver hold at
 * most the other channel's write-buffer high-water mark (64 KiB) and one read per direction ({@link L4Relay}).
 * Either side closing closes the other once what it already wrote is flushed.
 *
 * <p>{@link L4Mode#SPLICE}: once the backend is connected, each side splices into the other
 * ({@link AbstractEpollStreamChannel#spliceTo}: socket to pipe to socket, the bytes never copied into user space)
 * and reads on its own; Netty stops a side from reading while what it spliced waits for the other socket, so at most
 * one pipe (64 KiB) is in flight per direction. Bytes read before that (a client that sends and half-closes while the
 * backend is still connecting) are relayed as in copy mode first; the end of a stream is in {@link SpliceRelay}.
 */
public final class L4FrontendHandler extends ChannelInboundHandlerAdapter {
    private final BackendConnector connector;
    private final L4Mode mode;
    private ChannelFuture connect;
    private Channel outbound;

    public L4FrontendHandler(BackendConnector connector, L4Mode mode) {
        this.connector = connector;
        this.mode = mode;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        Channel inbound = ctx.channel();
        if (mode == L4Mode.SPLICE) {
            SpliceRelay.allowHalfClosure(inbound);
        }
        connect = connector.connect(inbound, new L4BackendHandler(inbound, mode), false);
        outbound = connect.channel();
        connect.addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                inbound.close(); // backend refused: nothing to relay to
            } else if (mode == L4Mode.SPLICE) {
                if (inbound.isActive()) {
                    SpliceRelay.start(inbound, outbound);
                } // else the client sent its bytes and left while connecting: the relays queued after this deliver them
            } else {
                inbound.read(); // connected: start relaying the client's bytes
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
            L4Relay.relay(msg, ctx.channel(), outbound);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    /** The client can take more again: read the backend (which stopped while the client was not writable). */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        L4Relay.writabilityChanged(mode, ctx.channel(), outbound);
        ctx.fireChannelWritabilityChanged();
    }

    /** Splice mode (half-closure on): the client's FIN. What it sent before still goes to the backend, then both close. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            if (connect.isDone() && connect.isSuccess()) {
                SpliceRelay.drainThenClose(ctx.channel(), outbound);
            } else {
                ctx.close(); // everything it sent was read and waits to be relayed once connected (channelRead)
            }
        }
        ctx.fireUserEventTriggered(evt);
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
