package loopbench.line;

import io.netty.channel.EventLoopGroup;
import io.netty.incubator.channel.uring.IOUringEventLoop;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.netty.util.internal.PlatformDependent;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.HashSet;
import java.util.Set;

/**
 * Frees an incubator io_uring loop (0.0.26) stuck for good in its shutdown, a race in the incubator itself.
 *
 * <p>After a loop handles the completion of its eventfd read it queues the next read but submits it only when the loop
 * next blocks. If another thread wakes the loop in that window (writing the eventfd) while tasks keep it from blocking,
 * and the shutdown is seen in the same iteration, {@code IOUringEventLoop.cleanup()} waits for that read's completion
 * with {@code io_uring_enter(to_submit=0)}: the read is never submitted, the thread never exits. Seen once in 2,268
 * proxy shutdowns on 2 busy cores. The cure is the submit the loop skipped: done from outside, only once its
 * thread has sat in that wait on two looks a {@link #STUCK_MILLIS} apart (the wait's only other exit is the
 * completion of a read already submitted, which comes at once), when it touches nothing of the ring but the wait.
 */
final class IncubatorShutdownRescue {
    /** How long a loop's thread must sit in cleanup's wait before it counts as stuck. */
    static final long STUCK_MILLIS = 500;

    private IncubatorShutdownRescue() {
    }

    /**
     * Submits the queue of every loop of {@code group} whose thread is stuck in cleanup's wait; returns how many it
     * freed (0 for a group of another transport). Call it only on a group told to shut down.
     */
    static int rescue(EventLoopGroup group) throws InterruptedException {
        Set<IOUringEventLoop> waiting = new HashSet<>();
        for (EventExecutor e : group) {
            if (e instanceof IOUringEventLoop && inCleanupWait(threadOf((IOUringEventLoop) e))) {
                waiting.add((IOUringEventLoop) e);
            }
        }
        if (waiting.isEmpty()) {
            return 0;
        }
        Thread.sleep(STUCK_MILLIS);
        int freed = 0;
        for (IOUringEventLoop loop : waiting) {
            if (inCleanupWait(threadOf(loop))) {
                submit(loop);
                freed++;
            }
        }
        return freed;
    }

    /** Whether {@code t} is inside {@code IOUringEventLoop.cleanup()}, blocked in its wait for a completion. */
    static boolean inCleanupWait(Thread t) {
        if (t == null || !t.isAlive()) {
            return false;
        }
        StackTraceElement[] stack = t.getStackTrace();
        boolean waiting = false;
        for (StackTraceElement frame : stack) {
            if (frame.getMethodName().equals("ioUringWaitCqe")) {
                waiting = true;
            } else if (waiting && frame.getMethodName().equals("cleanup")
                    && frame.getClassName().equals(IOUringEventLoop.class.getName())) {
                return true;
            }
        }
        return false;
    }

    private static Thread threadOf(IOUringEventLoop loop) {
        try {
            Field thread = SingleThreadEventExecutor.class.getDeclaredField("thread");
            thread.setAccessible(true);
            return (Thread) thread.get(loop);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot read the thread of " + loop + " (Netty " + NettyLine.current()
                    .version() + ")", e);
        }
    }

    /**
     * What {@code IOUringSubmissionQueue.submit()} does but its last step: publish the queue's tail, enter the ring.
     * That last step reads the ring's head back, and by then the freed loop may have unmapped the ring (a crash when
     * tried): the queue's head is set beforehand instead, as that read would have set it.
     */
    private static void submit(IOUringEventLoop loop) {
        try {
            Object ringBuffer = call(loop, IOUringEventLoop.class, "getRingBuffer");
            Object queue = call(ringBuffer, ringBuffer.getClass(), "ioUringSubmissionQueue");
            Class<?> q = queue.getClass();
            int tail = field(q, "tail").getInt(queue);
            int toSubmit = tail - field(q, "head").getInt(queue);
            if (toSubmit <= 0) {
                return;
            }
            long kernelTail = field(q, "kTailAddress").getLong(queue);
            int ringFd = field(q, "ringFd").getInt(queue);
            field(q, "head").setInt(queue, tail);
            PlatformDependent.putIntOrdered(kernelTail, tail);
            Method enter = Class.forName(q.getPackageName() + ".Native", true, q.getClassLoader())
                    .getDeclaredMethod("ioUringEnter", int.class, int.class, int.class, int.class);
            enter.setAccessible(true);
            enter.invoke(null, ringFd, toSubmit, 0, 0);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("cannot submit the ring of " + loop + " (incubator io_uring)", e);
        }
    }

    private static Object call(Object target, Class<?> type, String method) throws ReflectiveOperationException {
        Method m = type.getDeclaredMethod(method);
        m.setAccessible(true);
        return m.invoke(target);
    }

    private static Field field(Class<?> type, String name) throws NoSuchFieldException {
        Field f = type.getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
