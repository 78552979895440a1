package loopbench.line;

import io.netty.bootstrap.AbstractBootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.Version;

import java.util.OptionalInt;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/**
 * What differs between the two Netty lines loopbench builds against, 4.1 and 4.2, and nothing else: the build
 * compiles one implementation, {@code CurrentLine} from {@code src/netty41/java} or {@code src/netty42/java}
 * (chosen by {@code -Dnetty.version}), and every other class is the same source on both lines.
 *
 * <p>What differs: how event-loop groups are made (4.2's IoHandlers under {@code MultiThreadIoEventLoopGroup},
 * 4.1's group per transport), where io_uring lives (4.2's own transport, 4.1's incubator artifact), and
 * edge-triggered epoll (4.1 can switch {@code EpollChannelOption.EPOLL_MODE}; 4.2's epoll is level-triggered only),
 * and how a loop shares its time between I/O and tasks (4.1's {@code ioRatio}; 4.2 runs tasks for a fixed quantum).
 */
public interface NettyLine {

    /** The line this build was compiled for. */
    static NettyLine current() {
        return CurrentLine.INSTANCE;
    }

    /** {@code 4.1} or {@code 4.2}. */
    String name();

    /** The Netty release on the class path (netty-common's artifact version), e.g. {@code 4.1.136.Final}. */
    default String version() {
        Version v = Version.identify().get("netty-common");
        return v == null ? "unknown" : v.artifactVersion();
    }

    /** {@code Netty 4.1.136.Final} and, where the line's io_uring is not Netty's own, which one it is. */
    default String describe() {
        return "Netty " + version() + " (line " + name() + "; io_uring: " + ioUringSource() + ")";
    }

    /** Where the line's io_uring transport comes from (4.2: Netty itself; 4.1: the incubator artifact). */
    String ioUringSource();

    /** The line's transports, as loopbench's knob names them. */
    record Transports(LineTransport nio, LineTransport epoll, LineTransport ioUring) {
    }

    Transports transports();

    /**
     * A group of {@code nThreads} event loops for the Local transport (in-VM channels, no sockets). With an
     * {@code observer}, each loop tells it of every thread other than its own that hands it a task (what wakes a
     * loop up); a test sees through it where work ran.
     */
    EventLoopGroup newLocalEventLoopGroup(int nThreads, ThreadFactory threads, Consumer<Thread> observer);

    /** Why this line cannot choose between edge- and level-triggered epoll, or null when it can. */
    String epollModeRefusal();

    /**
     * Makes the epoll channels {@code bootstrap} creates (a server bootstrap's: its listening socket) edge-triggered
     * (true) or level-triggered (false), as {@code EpollChannelOption.EPOLL_MODE} does before registration (4.1 cannot
     * change it later). Only where {@link #epollModeRefusal()} is null; elsewhere it throws
     * {@link UnsupportedOperationException} with that reason.
     */
    void epollMode(AbstractBootstrap<?, ?> bootstrap, boolean edge);

    /** As {@link #epollMode(AbstractBootstrap, boolean)}, for the connections a listening socket accepts. */
    void acceptedEpollMode(ServerBootstrap bootstrap, boolean edge);

    /** Whether an epoll channel is edge-triggered, read back from its config; null for another transport's. */
    Boolean edgeTriggered(Channel channel);

    /** Why this line's event loops take no {@code ioRatio}, or null when they do. */
    String ioRatioRefusal();

    /**
     * Sets the share of each loop iteration's time that goes to I/O rather than tasks (1..100; 4.1's default 50: tasks
     * get as long as the I/O just took; 100: every task queued, however long) on every loop of {@code group}. Throws
     * {@link UnsupportedOperationException} with the reason where the line ({@link #ioRatioRefusal()}) or the group's
     * transport has none, {@link IllegalArgumentException} for a ratio outside 1..100.
     */
    void ioRatio(EventLoopGroup group, int ioRatio);

    /** A loop's ioRatio, read back from it; empty where it has none. */
    OptionalInt ioRatio(EventLoop loop);

    /**
     * Waits at most {@code timeoutMillis} for {@code group}, already told to shut down, to terminate; whether it did.
     * 4.1 also frees an incubator io_uring loop that its own shutdown race left stuck (IncubatorShutdownRescue).
     */
    default boolean awaitTermination(EventLoopGroup group, long timeoutMillis) throws InterruptedException {
        return group.terminationFuture().await(timeoutMillis);
    }
}
