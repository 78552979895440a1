package loopbench.line;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.unix.FileDescriptor;
import io.netty.util.concurrent.DefaultThreadFactory;
import loopbench.knobs.Transport;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The io_uring incubator's shutdown race (Netty 4.1), made on purpose in one task on a loop: the loop's next eventfd
 * read queued but not submitted, its eventfd written, a wake-up pending, the shutdown seen in that iteration. The
 * loop's thread then waits in {@code IOUringEventLoop.cleanup()} for good (as the smoke tests once saw), and
 * {@link NettyLine#awaitTermination} frees it. The incubator's internals are reached by reflection: this test source
 * also compiles on 4.2, where it is skipped.
 */
class IncubatorShutdownRescueTest {
    private static final String PACKAGE = "io.netty.incubator.channel.uring.";

    @Test
    void aLoopStuckInItsShutdownIsFreed() throws Exception {
        assumeTrue(NettyLine.current().name().equals("4.1"),
                "Netty " + NettyLine.current().version() + ": io_uring is Netty's own, without the incubator's race");
        assumeTrue(Transport.IO_URING.unavailabilityCause() == null,
                () -> "io_uring unavailable here: " + Transport.IO_URING.unavailabilityCause());
        EventLoopGroup group = Transport.IO_URING.newEventLoopGroup(1, new DefaultThreadFactory("rescue-test"));
        EventLoop loop = group.next();
        CompletableFuture<Thread> stranded = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                strand(loop);
                stranded.complete(Thread.currentThread());
            } catch (Throwable t) {
                stranded.completeExceptionally(t);
            }
        });
        Thread thread = stranded.get(10, TimeUnit.SECONDS);

        assertFalse(group.terminationFuture().await(2_000), "the race was made: the loop does not end by itself");
        assertTrue(inCleanupWait(thread), () -> "in cleanup's wait: " + Arrays.toString(thread.getStackTrace()));
        assertTrue(NettyLine.current().awaitTermination(group, 10_000), "the stuck loop is freed and terminates");
        thread.join(5_000);
        assertFalse(thread.isAlive(), "the loop's thread has exited");
    }

    /**
     * On the loop's thread: complete the eventfd read in flight and handle it (the loop queues the next read, not yet
     * submitted), write the eventfd again as another thread's wake-up would, mark the wake-up pending, shut down.
     */
    private static void strand(EventLoop loop) throws Exception {
        int eventfd = ((FileDescriptor) field(loop, "eventfd").get(loop)).intValue();
        Object callback = field(loop, "callback").get(loop);
        Object ring = field(loop, "ringBuffer").get(loop);
        Method completions = ring.getClass().getDeclaredMethod("ioUringCompletionQueue");
        completions.setAccessible(true);
        Object queue = completions.invoke(ring);
        Method process = queue.getClass().getDeclaredMethod("process",
                Class.forName(PACKAGE + "IOUringCompletionQueueCallback"));
        process.setAccessible(true);
        Method write = Class.forName(PACKAGE + "Native").getDeclaredMethod("eventFdWrite", int.class, long.class);
        write.setAccessible(true);
        Field pendingWakeup = field(loop, "pendingWakeup");

        pendingWakeup.setBoolean(loop, true);
        write.invoke(null, eventfd, 1L);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (pendingWakeup.getBoolean(loop)) { // the read's completion handled: the next read is queued
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the eventfd read in flight never completed");
            }
            process.invoke(queue, callback);
        }
        write.invoke(null, eventfd, 1L);
        pendingWakeup.setBoolean(loop, true);
        loop.shutdownGracefully(0, 10, TimeUnit.SECONDS);
    }

    private static boolean inCleanupWait(Thread t) {
        boolean waiting = false;
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getMethodName().equals("ioUringWaitCqe")) {
                waiting = true;
            } else if (waiting && frame.getMethodName().equals("cleanup")) {
                return frame.getClassName().equals(PACKAGE + "IOUringEventLoop");
            }
        }
        return false;
    }

    private static Field field(Object target, String name) throws NoSuchFieldException {
        Field f = target.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f;
    }
}
