package loopbench.embedded;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.channel.MaxMessagesRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * An {@link EmbeddedChannel} that looks to its handlers like one end of a connected TCP socket: inet
 * addresses (the L7 proxy writes the client's address into X-Forwarded-For), the allocator and AUTO_READ
 * the real server would give it, and NIO's 16 messages per read. Bytes reach it through a {@link Wire}.
 *
 * <p>Created unregistered, so that the configuration is in place before its handlers see
 * {@code channelActive}; {@link #open()} registers it, which makes it active at once.
 */
public final class EmbeddedSocket extends EmbeddedChannel {
    /** What NioSocketChannel's metadata asks for. */
    static final int MAX_MESSAGES_PER_READ = 16;

    private final InetSocketAddress local;
    private final InetSocketAddress remote;
    private boolean clockFollowed;

    public EmbeddedSocket(ChannelHandler handler, InetSocketAddress local, InetSocketAddress remote,
                          ByteBufAllocator alloc, boolean autoRead) {
        super(false, false, handler); // unregistered, no disconnect: the same constructor on 4.1 and 4.2
        this.local = local;
        this.remote = remote;
        config().setAllocator(alloc);
        config().setAutoRead(autoRead);
        RecvByteBufAllocator recv = config().getRecvByteBufAllocator();
        if (recv instanceof MaxMessagesRecvByteBufAllocator) {
            ((MaxMessagesRecvByteBufAllocator) recv).maxMessagesPerRead(MAX_MESSAGES_PER_READ);
        }
    }

    /**
     * Puts the channel on a clock its owner moves: frozen at the first call, then advanced by {@code passedNanos} at
     * each later one ({@link EmbeddedProxyPath}, once per pump: what a real event loop's one clock read per iteration
     * sees).
     */
    public void followClock(long passedNanos) {
        if (!clockFollowed) {
            freezeTime();
            clockFollowed = true;
        } else if (passedNanos > 0) {
            advanceTimeBy(passedNanos, TimeUnit.NANOSECONDS);
        }
    }

    /** Registers the channel: its handlers are added and it becomes active ("connected"). */
    public EmbeddedSocket open() {
        try {
            register();
        } catch (Exception e) {
            throw new IllegalStateException("cannot register " + this, e);
        }
        checkException();
        return this;
    }

    @Override
    protected SocketAddress localAddress0() {
        return isActive() ? local : null;
    }

    @Override
    protected SocketAddress remoteAddress0() {
        return isActive() ? remote : null;
    }
}
