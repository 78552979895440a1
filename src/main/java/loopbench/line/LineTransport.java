package loopbench.line;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;

import java.util.concurrent.ThreadFactory;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * One I/O transport as a Netty line spells it: how to make an event-loop group of it (4.2: an IoHandler under
 * {@code MultiThreadIoEventLoopGroup}; 4.1: a group class per transport), the channel classes that register on
 * it, and whether it can run here. Class literals do not initialise their classes, so naming a native transport's
 * channels loads no native library; {@link #unavailabilityCause()} does.
 */
public final class LineTransport {
    private final BiFunction<Integer, ThreadFactory, EventLoopGroup> groups;
    private final Class<? extends ServerChannel> serverChannelClass;
    private final Class<? extends Channel> socketChannelClass;
    private final Supplier<Throwable> unavailabilityCause;
    private final boolean batchAccepts;

    public LineTransport(BiFunction<Integer, ThreadFactory, EventLoopGroup> groups,
                         Class<? extends ServerChannel> serverChannelClass, Class<? extends Channel> socketChannelClass,
                         Supplier<Throwable> unavailabilityCause) {
        this(groups, serverChannelClass, socketChannelClass, unavailabilityCause, true);
    }

    private LineTransport(BiFunction<Integer, ThreadFactory, EventLoopGroup> groups,
                          Class<? extends ServerChannel> serverChannelClass,
                          Class<? extends Channel> socketChannelClass,
                          Supplier<Throwable> unavailabilityCause, boolean batchAccepts) {
        this.groups = groups;
        this.serverChannelClass = serverChannelClass;
        this.socketChannelClass = socketChannelClass;
        this.unavailabilityCause = unavailabilityCause;
        this.batchAccepts = batchAccepts;
    }

    /** This transport, its listening sockets left to accept at their own pace (see {@link #batchAccepts}). */
    public LineTransport withoutBatchAccepts() {
        return new LineTransport(groups, serverChannelClass, socketChannelClass, unavailabilityCause, false);
    }

    /** Whether a listening socket of this transport may be told to accept many connections per wake-up. */
    public boolean batchAccepts() {
        return batchAccepts;
    }

    public EventLoopGroup newEventLoopGroup(int nThreads, ThreadFactory threads) {
        return groups.apply(nThreads, threads);
    }

    public Class<? extends ServerChannel> serverChannelClass() {
        return serverChannelClass;
    }

    public Class<? extends Channel> socketChannelClass() {
        return socketChannelClass;
    }

    /** Why the transport cannot run here (no native library, kernel, seccomp), or null when it can. */
    public Throwable unavailabilityCause() {
        return unavailabilityCause.get();
    }

    /** Whether {@code channel} is one of this transport's channels. */
    public boolean owns(Channel channel) {
        return serverChannelClass.isInstance(channel) || socketChannelClass.isInstance(channel);
    }
}
