package loopbench.bench;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PoolArenaMetric;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.internal.ThreadExecutorMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * AllocatorBenchmark's op really allocates, writes and releases a buffer of the asked size and kind, on
 * both sides of the comparison: on an event loop (what {@link EventLoopHarnessExecutor} gives JMH) and on a
 * plain thread; and the two really are different allocator paths.
 */
class AllocatorBenchmarkTest {

    private static AllocatorBenchmark benchmark(String allocator, String buffers, int size) {
        AllocatorBenchmark b = new AllocatorBenchmark();
        b.allocator = allocator;
        b.buffers = buffers;
        b.size = size;
        b.setUp();
        return b;
    }

    private static <T> T onHarnessThread(Callable<T> task) throws Exception {
        EventLoopHarnessExecutor executor = new EventLoopHarnessExecutor(1, "allocator-test");
        try {
            return executor.submit(task).get(10, TimeUnit.SECONDS);
        } finally {
            executor.shutdown();
            assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
        }
    }

    /** 4.2 deprecates this for {@code currentThreadWillCleanupFastThreadLocals()}, which 4.1 does not have. */
    @SuppressWarnings("deprecation")
    private static boolean willCleanupFastThreadLocals() {
        return ((FastThreadLocalThread) Thread.currentThread()).willCleanupFastThreadLocals();
    }

    /** Runs one op through a recording allocator: one buffer of the right kind, filled, then released. */
    private static void assertDidTheWork(AllocatorBenchmark b, IntSupplier op) {
        ByteBufAllocator real = b.alloc;
        RecordingAllocator recording = new RecordingAllocator(real);
        b.alloc = recording;
        try {
            assertEquals(b.size, op.getAsInt(), "bytes written");
        } finally {
            b.alloc = real;
        }
        assertEquals(1, recording.allocations.size(), "buffers allocated per op");
        RecordingAllocator.Allocation a = recording.allocations.get(0);
        assertEquals("direct".equals(b.buffers), a.direct(), "buffer kind");
        assertTrue(a.capacity() >= b.size, "capacity " + a.capacity());
        assertEquals(0, a.buf().refCnt(), "released");
    }

    @ParameterizedTest
    @CsvSource({
            "pooled,heap,64", "pooled,direct,1024", "pooled,direct,65536",
            "unpooled,heap,1024", "unpooled,direct,16384",
            "adaptive,heap,1024", "adaptive,direct,64", "adaptive,direct,65536"})
    void bothVariantsAllocateWriteAndRelease(String allocator, String buffers, int size) throws Exception {
        AllocatorBenchmark b = benchmark(allocator, buffers, size);

        onHarnessThread(() -> {
            // What the pooled and adaptive allocators check before giving a thread its own cache.
            assertTrue(Thread.currentThread() instanceof FastThreadLocalThread, "a FastThreadLocalThread");
            assertTrue(willCleanupFastThreadLocals());
            assertNotNull(ThreadExecutorMap.currentExecutor(), "runs an event executor");
            assertTrue(ThreadExecutorMap.currentExecutor().inEventLoop());
            assertDidTheWork(b, b::eventLoopThread);
            assertDidTheWork(b, b::eventLoopThreads2);
            return null;
        });

        assertFalse(Thread.currentThread() instanceof FastThreadLocalThread, "the test thread is plain");
        assertNull(ThreadExecutorMap.currentExecutor());
        assertDidTheWork(b, b::plainThread);
        assertDidTheWork(b, b::plainThreads2);
    }

    /** The event-loop variant really takes the thread-cache path: its frees do not reach the arena. */
    @Test
    void pooledAllocatorCachesOnTheEventLoopOnly() throws Exception {
        int ops = 100;
        AllocatorBenchmark onLoop = benchmark("pooled", "direct", 1024);
        long loopFrees = onHarnessThread(() -> {
            PooledByteBufAllocator alloc = (PooledByteBufAllocator) onLoop.alloc;
            long before = arenaDeallocations(alloc);
            for (int i = 0; i < ops; i++) {
                onLoop.eventLoopThread();
            }
            return arenaDeallocations(alloc) - before;
        });
        AllocatorBenchmark plain = benchmark("pooled", "direct", 1024);
        PooledByteBufAllocator alloc = (PooledByteBufAllocator) plain.alloc;
        long before = arenaDeallocations(alloc);
        for (int i = 0; i < ops; i++) {
            plain.plainThread();
        }
        long plainFrees = arenaDeallocations(alloc) - before;
        assertEquals(0, loopFrees, "event loop: frees that reached the arena (the thread cache takes them)");
        assertEquals(ops, plainFrees, "plain thread: frees that reached the arena");
    }

    private static long arenaDeallocations(PooledByteBufAllocator alloc) {
        List<PoolArenaMetric> arenas = alloc.metric().directArenas();
        return arenas.stream().mapToLong(PoolArenaMetric::numDeallocations).sum();
    }
}
