package loopbench.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.epoll.AbstractEpollStreamChannel;
import io.netty.channel.unix.FileDescriptor;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * {@link L4Mode#SPLICE}: each side of a connection spliced into the other with Netty's
 * {@link AbstractEpollStreamChannel#spliceTo} (socket to pipe to socket: the bytes never reach user space).
 *
 * <p>The end of a stream needs care. Netty's splice path splices one batch (one receive-buffer guess, at most a pipe's
 * 64 KiB) per readiness event and, as soon as the peer's FIN (EPOLLRDHUP) has been seen, shuts the input down (both
 * channels allow half-closure, as in copy mode) and reads no more. A sender that writes more than that and ends its
 * side at once would lose the rest, still queued in the socket. So when one's input is shut down,
 * {@link #drainQueued} reads what is still queued (all of it arrived: it came before the FIN) and writes it to the
 * other side after what was spliced; then the FIN is passed on as in copy mode ({@link L4Relay#endOfStream}). That tail
 * is the only time splice mode holds bytes in user space: at most what the socket had queued (bounded by its receive
 * buffer, tcp_rmem).
 */
final class SpliceRelay {
    private static final int CHUNK = 64 * 1024;

    private SpliceRelay() {
    }

    /**
     * Splices both directions until either side ends (a failed splice closes both, after what they had written). A
     * client that has ended its side already (it sent its bytes and its FIN while the backend was connecting) is only
     * spliced into: reading a shut-down input fails on epoll.
     */
    static void start(Channel inbound, Channel outbound) {
        ChannelFutureListener closeBoth = f -> {
            if (!f.isSuccess()) {
                Channels.closeOnFlush(inbound);
                Channels.closeOnFlush(outbound);
            }
        };
        AbstractEpollStreamChannel client = (AbstractEpollStreamChannel) inbound;
        AbstractEpollStreamChannel backend = (AbstractEpollStreamChannel) outbound;
        // Integer.MAX_VALUE: splice for as long as the channels live.
        backend.spliceTo(client, Integer.MAX_VALUE).addListener(closeBoth);
        backend.config().setAutoRead(true);
        if (!client.isInputShutdown()) {
            client.spliceTo(backend, Integer.MAX_VALUE).addListener(closeBoth);
            client.config().setAutoRead(true);
        }
    }

    /**
     * {@code source}'s peer has sent its FIN: writes whatever is still queued in {@code source}'s socket to
     * {@code target} (after the bytes already spliced, which wait in its outbound buffer) and flushes it.
     */
    static void drainQueued(Channel source, Channel target) {
        FileDescriptor fd = ((AbstractEpollStreamChannel) source).fd();
        try {
            for (;;) {
                ByteBuf buf = source.alloc().directBuffer(CHUNK);
                int n;
                try {
                    ByteBuffer nio = buf.internalNioBuffer(0, CHUNK);
                    n = fd.read(nio, nio.position(), nio.limit()); // > 0 bytes, -1 end of stream, 0 nothing now
                } catch (IOException | RuntimeException e) {
                    buf.release();
                    throw e;
                }
                if (n <= 0 || !target.isActive()) {
                    buf.release();
                    break;
                }
                buf.writerIndex(n);
                target.write(buf, target.voidPromise());
            }
        } catch (IOException e) {
            // a reset: nothing more to deliver
        }
        target.flush();
    }
}
