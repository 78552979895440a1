package loopbench.proxy;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.socket.DuplexChannel;

/**
 * How the L4 proxy moves one read from one channel to the other in copy mode, without a promise or a listener per
 * read: the write takes the channel's void promise (a failed write reaches the target's {@code exceptionCaught},
 * which closes it, and the close reaches the source through {@code channelInactive}), and the source reads again
 * at once while the target is writable, or else when the target's writability comes back
 * ({@code channelWritabilityChanged}). What either side holds is bounded by the target's write-buffer high-water
 * mark (64 KiB by default) plus one read.
 *
 * <p>Why not a listener that reads again when the write completes (HexDumpProxy's way): on a loopback socket the
 * write nearly always completes inside the flush, so that listener buys nothing but a promise, a lambda and a
 * notification per read; a CPU profile of the L4 proxy at 1,000 connections put them at 2.1% of its CPU.
 *
 * <p>The end of a stream, in both modes: both channels allow half-closure, so a side's FIN arrives as an input
 * shutdown, not a close. It is passed on ({@link #endOfStream}): the other side's output is shut down once what was
 * read before the FIN has been written, and the other direction goes on until its own FIN; when both directions have
 * ended, both channels close. A client that sends its request and shuts its write side down gets the whole response.
 */
final class L4Relay {
    private L4Relay() {
    }

    /**
     * Writes {@code msg} (read from {@code source}) to {@code target}, and reads {@code source} again if target can
     * take more.
     */
    static void relay(Object msg, Channel source, Channel target) {
        target.writeAndFlush(msg, target.voidPromise());
        if (target.isWritable()) {
            source.read();
        }
    }

    /**
     * {@link #relay} for bytes read before the backend was connected, relayed once it is: by then {@code source}'s
     * peer may have ended its side (then it is not read again).
     */
    static void relayQueued(Object msg, Channel source, Channel target) {
        target.writeAndFlush(msg, target.voidPromise());
        if (target.isWritable()) {
            readOn(source);
        }
    }

    /**
     * {@code target}'s writability changed: in copy mode, if it can take more, {@code source} may read again (splice
     * mode reads on its own: auto-read, {@link SpliceRelay}).
     */
    static void writabilityChanged(L4Mode mode, Channel target, Channel source) {
        if (mode == L4Mode.COPY && target.isWritable()) {
            readOn(source);
        }
    }

    /**
     * Reads {@code ch} on unless it is closed or its peer has ended (asking epoll to read a shut-down input fails and
     * closes the channel). Decided on {@code ch}'s own loop, where its FIN is seen: from another thread, a check here
     * could pass just before the FIN arrives.
     */
    static void readOn(Channel ch) {
        if (ch.eventLoop().inEventLoop()) {
            readIfOpen(ch);
        } else {
            ch.eventLoop().execute(() -> readIfOpen(ch));
        }
    }

    private static void readIfOpen(Channel ch) {
        if (ch.isActive() && !(ch instanceof DuplexChannel && ((DuplexChannel) ch).isInputShutdown())) {
            ch.read();
        }
    }

    /**
     * {@code source}'s peer has sent its FIN (its input is shut down): in splice mode, what is still queued in its
     * socket goes to {@code target} first ({@link SpliceRelay#drainQueued}); then {@link #endOfStream}.
     */
    static void inputEnded(L4Mode mode, Channel source, Channel target) {
        if (mode == L4Mode.SPLICE) {
            SpliceRelay.drainQueued(source, target);
        }
        endOfStream(source, target);
    }

    /**
     * {@code source}'s peer has sent its FIN, and everything read from {@code source} before it has been written to
     * {@code target}: shuts {@code target}'s output down once that is flushed (its peer sees the FIN after the last
     * byte). If the other direction has ended already ({@code source}'s output is shut down), closes both.
     */
    static void endOfStream(Channel source, Channel target) {
        if (!(target instanceof DuplexChannel) || !target.isActive()) {
            Channels.closeOnFlush(target); // no half-close there: a close it is (and the close reaches source)
            return;
        }
        target.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) written -> {
            if (!written.isSuccess()) {
                closeBoth(source, target);
                return;
            }
            ((DuplexChannel) target).shutdownOutput().addListener((ChannelFutureListener) shut -> {
                if (!shut.isSuccess() || outputShutdown(source)) {
                    closeBoth(source, target); // both directions have ended
                }
            });
        });
    }

    private static boolean outputShutdown(Channel ch) {
        return !(ch instanceof DuplexChannel) || ((DuplexChannel) ch).isOutputShutdown() || !ch.isActive();
    }

    static void closeBoth(Channel a, Channel b) {
        a.close();
        b.close();
    }
}
