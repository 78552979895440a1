package loopbench.server;

import io.netty.channel.Channel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import loopbench.knobs.Transport;
import loopbench.line.NettyLine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Every thread pool a server starts, created here so that {@link #close()} can shut all of them down
 * and wait until each thread has exited: a closed server leaves no thread and no port behind.
 *
 * <p>Every channel the server opens or accepts is {@linkplain #track(Channel) tracked} and closed by
 * {@link #close()} before any pool stops. Shutting an event loop down does not reliably close its channels:
 * Netty 4.2's {@code SingleThreadIoEventLoop} closes them only if the loop sees the shutdown at the top of
 * an iteration, and with a quiet period of 0 a shutdown that starts mid-iteration ends the loop first,
 * leaving those sockets open for good (the peer never sees a close). Closing them first does not depend on
 * how a line's loops shut down (4.1's are other classes).
 */
public final class ServerResources implements AutoCloseable {
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 10;

    private final String name;
    private final List<Thread> threads = new ArrayList<>();
    private final List<AutoCloseable> closeables = new ArrayList<>();
    /** Netty's own set of open channels: a channel leaves it when it closes. */
    private final ChannelGroup channels;
    private volatile boolean closed;

    public ServerResources(String name) {
        this.name = name;
        this.channels = new DefaultChannelGroup(name, GlobalEventExecutor.INSTANCE);
    }

    /** An event-loop group of {@code nThreads} threads on {@code transport}, named {@code loopbench-<name>-<role>}. */
    public EventLoopGroup newEventLoopGroup(Transport transport, String role, int nThreads) {
        transport.ensureAvailable();
        return shutDownWithServer(transport.newEventLoopGroup(nThreads, threadFactory(role)));
    }

    /**
     * An event-loop group of the Local transport (in-VM channels), named as {@link #newEventLoopGroup}; an
     * {@code observer} hears of every foreign thread that hands one of its loops a task (see {@link NettyLine}).
     */
    public EventLoopGroup newLocalEventLoopGroup(String role, int nThreads, Consumer<Thread> observer) {
        return shutDownWithServer(NettyLine.current().newLocalEventLoopGroup(nThreads, threadFactory(role), observer));
    }

    private EventLoopGroup shutDownWithServer(EventLoopGroup group) {
        register(() -> {
            group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            NettyLine.current().awaitTermination(group, TimeUnit.SECONDS.toMillis(SHUTDOWN_TIMEOUT_SECONDS));
        });
        return group;
    }

    /** A plain executor group (the pipeline-bound handler executor of Netty's classic API). */
    public EventExecutorGroup newExecutorGroup(String role, int nThreads) {
        EventExecutorGroup group = new DefaultEventExecutorGroup(nThreads, threadFactory(role));
        register(() -> awaitQuietly(group.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS)));
        return group;
    }

    /** Registers a JDK executor to be shut down (and waited for) with the server. */
    public <E extends ExecutorService> E registerExecutor(E executor) {
        register(() -> {
            executor.shutdownNow();
            executor.awaitTermination(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        });
        return executor;
    }

    /**
     * Closed in order of registration when the server closes: the I/O loops first (closing every channel,
     * whose last events may still go to an executor group registered later), then the executors, then
     * buffers the channels used.
     */
    public synchronized void register(AutoCloseable closeable) {
        if (closed) {
            throw new IllegalStateException(name + " is already closed");
        }
        closeables.add(closeable);
    }

    /**
     * Closes {@code channel} with the server if it is still open then; a channel tracked after the server
     * began closing is closed at once.
     */
    public void track(Channel channel) {
        channels.add(channel);
        if (closed) {
            channel.close();
        }
    }

    /** The tracked channels still open. */
    List<Channel> openChannels() {
        return List.copyOf(channels);
    }

    public ThreadFactory threadFactory(String role) {
        return new TrackedThreadFactory("loopbench-" + name + "-" + role, threads);
    }

    @Override
    public void close() {
        List<AutoCloseable> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(closeables);
        }
        closeChannels();
        RuntimeException failure = null;
        for (AutoCloseable c : toClose) {
            try {
                c.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new IllegalStateException("closing " + name + " failed", e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        joinThreads();
        if (failure != null) {
            throw failure;
        }
    }

    /** Closes every tracked channel, each on its own loop, and waits until each is closed. */
    private void closeChannels() {
        channels.close().awaitUninterruptibly(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }

    private void joinThreads() {
        List<Thread> snapshot;
        synchronized (threads) {
            snapshot = new ArrayList<>(threads);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SHUTDOWN_TIMEOUT_SECONDS);
        for (Thread t : snapshot) {
            long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (left <= 0 || t == Thread.currentThread()) {
                continue;
            }
            try {
                t.join(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void awaitQuietly(Future<?> f) throws InterruptedException {
        f.await(SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
    }
}
