package loopbench.line;

import io.netty.bootstrap.AbstractBootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.DefaultEventLoop;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelConfig;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.epoll.EpollEventLoop;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollMode;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoop;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.incubator.channel.uring.IOUring;
import io.netty.incubator.channel.uring.IOUringEventLoopGroup;
import io.netty.incubator.channel.uring.IOUringServerSocketChannel;
import io.netty.incubator.channel.uring.IOUringSocketChannel;

import java.io.IOException;
import java.io.InputStream;
import java.util.OptionalInt;
import java.util.Properties;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * Netty 4.1: an event-loop group class per transport; io_uring from the incubator artifact
 * (io.netty.incubator:netty-incubator-transport-native-io_uring); epoll edge- or level-triggered per channel.
 */
final class CurrentLine implements NettyLine {
    static final CurrentLine INSTANCE = new CurrentLine();
    private static final String INCUBATOR = "io.netty.incubator:netty-incubator-transport-native-io_uring";
    private static final Logger LOG = Logger.getLogger("loopbench.line");

    /**
     * io_uring: the incubator's listening socket, told to accept up to 256 connections per wake-up and to ignore
     * "maybe more" (what LoopbackServer asks of every transport), never completes its close once it has accepted one
     * (kernel 6.18, incubator 0.0.26): it keeps its default pace.
     */
    private final Transports transports = new Transports(
            new LineTransport(NioEventLoopGroup::new, NioServerSocketChannel.class, NioSocketChannel.class, () -> null),
            new LineTransport(EpollEventLoopGroup::new, EpollServerSocketChannel.class, EpollSocketChannel.class,
                    Epoll::unavailabilityCause),
            new LineTransport(IOUringEventLoopGroup::new, IOUringServerSocketChannel.class, IOUringSocketChannel.class,
                    CurrentLine::ioUringUnavailabilityCause).withoutBatchAccepts());

    private CurrentLine() {
    }

    @Override
    public String name() {
        return "4.1";
    }

    @Override
    public String ioUringSource() {
        return "the incubator transport " + INCUBATOR + " " + incubatorVersion();
    }

    /** From the incubator jar's Maven metadata (a shaded jar keeps it; its manifest is the shaded jar's own). */
    private static String incubatorVersion() {
        String pom = "META-INF/maven/io.netty.incubator/netty-incubator-transport-classes-io_uring/pom.properties";
        try (InputStream in = IOUring.class.getClassLoader().getResourceAsStream(pom)) {
            if (in == null) {
                return "(version unknown)";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "(version unknown)");
        } catch (IOException e) {
            return "(version unknown)";
        }
    }

    /** The incubator's own cause, said to be the incubator's: 4.1 has no io_uring of its own. */
    private static Throwable ioUringUnavailabilityCause() {
        Throwable cause;
        try {
            cause = IOUring.unavailabilityCause();
        } catch (LinkageError e) {
            cause = e;
        }
        return cause == null ? null : new IllegalStateException("Netty 4.1 has io_uring only as " + INCUBATOR
                + ", which does not load here: " + cause, cause);
    }

    @Override
    public Transports transports() {
        return transports;
    }

    /** 4.1's Local transport runs on plain {@link DefaultEventLoop}s; a foreign thread's task comes through addTask. */
    @Override
    public EventLoopGroup newLocalEventLoopGroup(int nThreads, ThreadFactory threads, Consumer<Thread> observer) {
        if (observer == null) {
            return new DefaultEventLoopGroup(nThreads, threads);
        }
        return new DefaultEventLoopGroup(nThreads, threads) {
            @Override
            protected EventLoop newChild(Executor executor, Object... args) {
                return new DefaultEventLoop(this, executor) {
                    @Override
                    protected void addTask(Runnable task) {
                        if (!inEventLoop()) {
                            observer.accept(Thread.currentThread());
                        }
                        super.addTask(task);
                    }
                };
            }
        };
    }

    @Override
    public String epollModeRefusal() {
        return null;
    }

    @Override
    public void epollMode(AbstractBootstrap<?, ?> bootstrap, boolean edge) {
        bootstrap.option(EpollChannelOption.EPOLL_MODE, mode(edge));
    }

    @Override
    public void acceptedEpollMode(ServerBootstrap bootstrap, boolean edge) {
        bootstrap.childOption(EpollChannelOption.EPOLL_MODE, mode(edge));
    }

    private static EpollMode mode(boolean edge) {
        return edge ? EpollMode.EDGE_TRIGGERED : EpollMode.LEVEL_TRIGGERED;
    }

    @Override
    public Boolean edgeTriggered(Channel channel) {
        return channel.config() instanceof EpollChannelConfig
                ? ((EpollChannelConfig) channel.config()).getEpollMode() == EpollMode.EDGE_TRIGGERED : null;
    }

    @Override
    public String ioRatioRefusal() {
        return null;
    }

    /** NIO's and epoll's loops: {@code setIoRatio}; the incubator's io_uring loops have no such knob. */
    @Override
    public void ioRatio(EventLoopGroup group, int ioRatio) {
        if (ioRatio < 1 || ioRatio > 100) {
            throw new IllegalArgumentException("ioRatio must be 1..100, was " + ioRatio);
        }
        if (group instanceof NioEventLoopGroup) {
            ((NioEventLoopGroup) group).setIoRatio(ioRatio);
        } else if (group instanceof EpollEventLoopGroup) {
            ((EpollEventLoopGroup) group).setIoRatio(ioRatio);
        } else {
            throw new UnsupportedOperationException("Netty " + version() + ": " + group.getClass().getSimpleName()
                    + " has no ioRatio (4.1's NIO and epoll loops have one)");
        }
    }

    /** In slices of a second: after each one still running, an incubator io_uring loop stuck in cleanup is freed. */
    @Override
    public boolean awaitTermination(EventLoopGroup group, long timeoutMillis) throws InterruptedException {
        if (!(group instanceof IOUringEventLoopGroup)) {
            return NettyLine.super.awaitTermination(group, timeoutMillis);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        for (;;) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (group.terminationFuture().await(Math.max(0, Math.min(left, 1_000)))) {
                return true;
            }
            if (left <= 1_000) {
                return false;
            }
            int freed = IncubatorShutdownRescue.rescue(group);
            if (freed > 0) {
                LOG.warning(freed + " incubator io_uring loop(s) stuck in their shutdown freed (" + ioUringSource()
                        + ": an eventfd read queued but never submitted)");
            }
        }
    }

    @Override
    public OptionalInt ioRatio(EventLoop loop) {
        if (loop instanceof NioEventLoop) {
            return OptionalInt.of(((NioEventLoop) loop).getIoRatio());
        }
        if (loop instanceof EpollEventLoop) {
            return OptionalInt.of(((EpollEventLoop) loop).getIoRatio());
        }
        return OptionalInt.empty();
    }
}
