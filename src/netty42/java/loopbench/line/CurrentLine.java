package loopbench.line;

import io.netty.bootstrap.AbstractBootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerContext;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoRegistration;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollChannelConfig;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.local.LocalIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;
import io.netty.util.concurrent.ThreadAwareExecutor;

import java.util.OptionalInt;
import java.util.concurrent.ThreadFactory;
import java.util.function.Consumer;

/** Netty 4.2: every transport is an {@link IoHandlerFactory} under {@link MultiThreadIoEventLoopGroup}. */
final class CurrentLine implements NettyLine {
    static final CurrentLine INSTANCE = new CurrentLine();

    private final Transports transports = new Transports(
            new LineTransport((n, threads) -> new MultiThreadIoEventLoopGroup(n, threads, NioIoHandler.newFactory()),
                    NioServerSocketChannel.class, NioSocketChannel.class, () -> null),
            new LineTransport((n, threads) -> new MultiThreadIoEventLoopGroup(n, threads, EpollIoHandler.newFactory()),
                    EpollServerSocketChannel.class, EpollSocketChannel.class, Epoll::unavailabilityCause),
            new LineTransport((n, t) -> new MultiThreadIoEventLoopGroup(n, t, IoUringIoHandler.newFactory()),
                    IoUringServerSocketChannel.class, IoUringSocketChannel.class, IoUring::unavailabilityCause));

    private CurrentLine() {
    }

    @Override
    public String name() {
        return "4.2";
    }

    @Override
    public String ioUringSource() {
        return "Netty's own transport";
    }

    @Override
    public Transports transports() {
        return transports;
    }

    @Override
    public EventLoopGroup newLocalEventLoopGroup(int nThreads, ThreadFactory threads, Consumer<Thread> observer) {
        IoHandlerFactory local = LocalIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(nThreads, threads, observer == null ? local : observed(local, observer));
    }

    /** The Local handler, told of every foreign thread that wakes its loop (4.2 wakes a loop through its handler). */
    private static IoHandlerFactory observed(IoHandlerFactory factory, Consumer<Thread> observer) {
        return (ThreadAwareExecutor executor) -> {
            IoHandler local = factory.newHandler(executor);
            return new IoHandler() {
                @Override public void initialize() { local.initialize(); }
                @Override public int run(IoHandlerContext context) { return local.run(context); }
                @Override public void prepareToDestroy() { local.prepareToDestroy(); }
                @Override public void destroy() { local.destroy(); }
                @Override public IoRegistration register(IoHandle h) throws Exception { return local.register(h); }
                @Override public boolean isCompatible(Class<? extends IoHandle> t) { return local.isCompatible(t); }

                @Override
                public void wakeup() {
                    Thread t = Thread.currentThread();
                    if (!executor.isExecutorThread(t)) {
                        observer.accept(t);
                    }
                    local.wakeup();
                }
            };
        };
    }

    @Override
    public String epollModeRefusal() {
        return "Netty " + version() + ": 4.2's epoll is level-triggered only (EPOLL_MODE is a no-op since 4.2); "
                + "--epoll-mode needs the 4.1 build (./mvnw package -Dnetty.version=4.1.136.Final)";
    }

    @Override
    public void epollMode(AbstractBootstrap<?, ?> bootstrap, boolean edge) {
        throw new UnsupportedOperationException(epollModeRefusal());
    }

    @Override
    public void acceptedEpollMode(ServerBootstrap bootstrap, boolean edge) {
        throw new UnsupportedOperationException(epollModeRefusal());
    }

    @Override
    public Boolean edgeTriggered(Channel channel) {
        return channel.config() instanceof EpollChannelConfig ? Boolean.FALSE : null;
    }

    /** 4.2's SingleThreadIoEventLoop: I/O once, then tasks for up to a fixed quantum (netty/netty#14165, #14557). */
    @Override
    public String ioRatioRefusal() {
        return "Netty " + version() + " has no ioRatio: a 4.2 event loop runs its I/O, then its tasks for up to "
                + "io.netty.eventLoop.maxTaskProcessingQuantumMs (default 1000 ms), whatever the I/O took; ioRatio "
                + "needs the 4.1 build (./mvnw package -Dnetty.version=4.1.136.Final)";
    }

    @Override
    public void ioRatio(EventLoopGroup group, int ioRatio) {
        throw new UnsupportedOperationException(ioRatioRefusal());
    }

    @Override
    public OptionalInt ioRatio(EventLoop loop) {
        return OptionalInt.empty();
    }
}
