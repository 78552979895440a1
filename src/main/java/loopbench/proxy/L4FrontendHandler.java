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
 * A side's FIN is passed on to the other once what it sent before has gone out, and the other direction goes on
 * until its own FIN; either side closing (or failing) closes the other once what it already wrote is flushed.
 *
 * <p>{@link L4Mode#SPLICE}: once the backend is connected, each side splices into the other
 * ({@link AbstractEpollStreamChannel#spliceTo}: socket to pipe to socket, the bytes never copied into user space)
 * and reads on its own; Netty stops a side from reading while what it spliced waits for the other socket, so at most
 * one pipe (64 KiB) is in flight per direction. Bytes read before that (a client that sends and half-closes while the
 * backend is still connecting) are relayed as in copy mode first; the end of a stream is in {@link SpliceRelay}.
 *
 * <p>Timeouts: connecting is the connector's (--backend-connect-timeout: the client is closed); once connected, a
 * {@link Watchdog} closes both sides after --idle-timeout without a read on either (nginx stream's
 * {@code proxy_timeout}), counted from read batches, nothing timed per read.
 */
public final class L4FrontendHandler extends ChannelInboundHandlerAdapter {
    private final BackendConnector connector;
    private final L4Mode mode;
    /** Where the connector connects: for the log only. */
    private final Object backendAddress;
    private final long idleNanos;
    private Channel inbound;
    private ChannelFuture connect;
    private Channel outbound;
    private L4BackendHandler backendHandler;
    private Watchdog watchdog;
    /** Read batches from the client so far; with the backend's, what the idle timeout watches. */
    private long reads;

    public L4FrontendHandler(BackendConnector connector, ProxyConfig config) {
        this.connector = connector;
        this.mode = config.l4Mode();
        this.backendAddress = config.backend();
        this.idleNanos = config.timeouts().idle().toNanos();
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        inbound = ctx.channel();
        backendHandler = new L4BackendHandler(inbound, mode);
        connect = connector.connect(inbound, backendHandler, false);
        outbound = connect.channel();
        connect.addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                ProxyLog.event(inbound, backendAddress, "cannot connect to the backend, closing", f.cause());
                inbound.close(); // backend refused: nothing to relay to
            } else if (mode == L4Mode.SPLICE) {
                if (inbound.isActive()) {
                    SpliceRelay.start(inbound, outbound);
                } // else the client sent its bytes and left while connecting: the relays queued after this deliver them
            } else {
                L4Relay.readOn(inbound); // connected: start relaying the client's bytes (unless it has ended)
            }
        });
        watchdog = Watchdog.start(inbound.eventLoop(), new IdleTimeout(), idleNanos);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!connect.isDone()) {
            // Bytes can arrive before the backend is connected even though nothing asked for them: epoll and
            // io_uring read on their own when the client half-closes (RDHUP). Relay them once connected.
            connect.addListener((ChannelFutureListener) f -> {
                if (outbound.isActive()) {
                    L4Relay.relayQueued(msg, ctx.channel(), outbound);
                } else {
                    ReferenceCountUtil.release(msg);
                }
            });
            return;
        }
        if (outbound.isActive()) {
            L4Relay.relay(msg, ctx.channel(), outbound);
        } else {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reads++;
        ctx.fireChannelReadComplete();
    }

    /** The client can take more again: read the backend (which stopped while the client was not writable). */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        L4Relay.writabilityChanged(mode, ctx.channel(), outbound);
        ctx.fireChannelWritabilityChanged();
    }

    /** The client's FIN: what it sent goes to the backend, then the backend gets a FIN; its answer still flows. */
    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            if (!connect.isDone()) {
                // After the relays of what it sent, which wait for the connect too (listeners run in order).
                connect.addListener((ChannelFutureListener) f -> {
                    if (f.isSuccess()) {
                        L4Relay.inputEnded(mode, inbound, outbound);
                    }
                });
            } else if (connect.isSuccess()) {
                // From here, not from a listener: a listener added now may run on the backend's loop at once, ahead
                // of the writes this loop has handed to it; from here, the FIN is handed over after them.
                L4Relay.inputEnded(mode, inbound, outbound);
            }
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (watchdog != null) {
            watchdog.stop();
        }
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
        ProxyLog.event(ctx.channel(), backendAddress, "client connection failed", cause);
        Channels.closeOnFlush(ctx.channel());
    }

    /** --idle-timeout, on the client's loop: progress is a read batch on either side. */
    private final class IdleTimeout implements Watchdog.Watched {
        private long seenReads = -1;

        @Override
        public boolean progressed() {
            long now = reads + backendHandler.reads();
            boolean moved = now != seenReads;
            seenReads = now;
            return moved;
        }

        @Override
        public long limitNanos() {
            return connect.isDone() ? idleNanos : 0; // connecting is the connect timeout's
        }

        @Override
        public void expired() {
            ProxyLog.event(inbound, backendAddress, "idle timeout (" + idleNanos / 1_000_000
                    + " ms without a byte either way): closing both sides", null);
            L4Relay.closeBoth(inbound, outbound);
        }
    }
}
