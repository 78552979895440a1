package loopbench.bench;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutor;
import loopbench.line.NettyLine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A JMH executor whose worker threads are Netty event loops, so that a benchmark allocates the way a
 * server's handlers do. Selected per benchmark with
 * {@code @Fork(jvmArgsAppend = {"-Djmh.executor=CUSTOM",
 * "-Djmh.executor.class=loopbench.bench.EventLoopHarnessExecutor"})} (JMH instantiates it through the {@code (int
 * maxThreads, String prefix)} constructor), like the HarnessExecutor of Netty's own microbenchmarks.
 *
 * <p>Why a real event loop and not just a FastThreadLocalThread: in Netty 4.2.18 the pooled allocator gives a
 * thread its own cache when the thread is a FastThreadLocalThread <em>or</em> runs an event executor, but the
 * adaptive allocator gives it thread-local magazines only when it runs an event executor
 * ({@code ThreadExecutorMap.currentExecutor() != null}) and will clean up its FastThreadLocals. A plain
 * FastThreadLocalThread (Netty's HarnessExecutor) would take the pooled allocator's event-loop path and the
 * adaptive allocator's shared path. Here each JMH task runs as a task of a
 * Local-transport event loop (no sockets; 4.2: {@code MultiThreadIoEventLoopGroup}, 4.1: {@code
 * DefaultEventLoopGroup}): exactly what an I/O thread is.
 *
 * <p>JMH submits one task per benchmark thread per iteration and waits for all of them; tasks go to the
 * loops round-robin, so the {@code maxThreads} tasks of one iteration land on {@code maxThreads} different
 * loops and never queue behind each other.
 */
public final class EventLoopHarnessExecutor extends AbstractExecutorService {
    /** The JVM arguments that make JMH use this executor; for {@code @Fork(jvmArgsAppend = ...)}. */
    public static final String EXECUTOR = "-Djmh.executor=CUSTOM";
    public static final String EXECUTOR_CLASS = "-Djmh.executor.class=loopbench.bench.EventLoopHarnessExecutor";

    private final EventLoopGroup group;
    private final EventLoop[] loops;
    private final AtomicInteger next = new AtomicInteger();

    public EventLoopHarnessExecutor(int maxThreads, String prefix) {
        group = NettyLine.current().newLocalEventLoopGroup(maxThreads, new DefaultThreadFactory(prefix, true), null);
        List<EventLoop> all = new ArrayList<>();
        for (EventExecutor e : group) {
            all.add((EventLoop) e);
        }
        loops = all.toArray(new EventLoop[0]);
    }

    @Override
    public void execute(Runnable task) {
        loops[Math.floorMod(next.getAndIncrement(), loops.length)].execute(task);
    }

    @Override
    public void shutdown() {
        group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        return new ArrayList<>();
    }

    @Override
    public boolean isShutdown() {
        return group.isShuttingDown();
    }

    @Override
    public boolean isTerminated() {
        return group.isTerminated();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        return group.awaitTermination(timeout, unit);
    }
}
