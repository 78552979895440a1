package loopbench.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;

/**
 * What does one buffer cost from each allocator? (claim C000-6)
 *
 * <p>the C000 article found PooledByteBufAllocator ~3% faster than UnpooledByteBufAllocator in an L7 proxy; Netty
 * 4.2 made AdaptiveByteBufAllocator the default, so it is in the comparison too. One operation allocates a
 * buffer of {@code size} bytes, writes {@code size} bytes into it and releases it, on a fresh allocator per
 * trial ({@link Allocator#newInstance(boolean)}), preferring heap or direct buffers.
 *
 * <p>Where the allocation happens matters as much as which allocator: the pooled and adaptive allocators
 * give per-thread caches only to event-loop threads (see {@link EventLoopHarnessExecutor}), so
 * <ul>
 *   <li>{@link #eventLoopThread} / {@link #eventLoopThreads2}: JMH runs the op on Netty event loops, the
 *       way a proxy's handlers allocate; one thread, and two threads contending for the same allocator;</li>
 *   <li>{@link #plainThread} / {@link #plainThreads2}: the same op from plain JMH worker threads (what a
 *       naive benchmark, or a non-Netty thread such as a blocking executor, measures).</li>
 * </ul>
 *
 * <p>What to expect: unpooled heap is cheap at small sizes (a byte[]) and pays zeroing at large ones;
 * unpooled direct pays for malloc/free (and Cleaner-less freeing) every time; pooled and adaptive are
 * cheapest on event loops; from plain threads they fall back to shared arenas/magazines, and with two
 * threads they contend. Use {@code -prof gc} for B/op: pooled and adaptive should allocate almost no heap
 * per op on an event loop.
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar AllocatorBenchmark -prof gc}
 * (e.g. {@code -p size=1024 -p buffers=direct}).
 */
@State(Scope.Benchmark)
public class AllocatorBenchmark extends AbstractBenchmark {

    @Param({"pooled", "unpooled", "adaptive"})
    public String allocator;

    @Param({"heap", "direct"})
    public String buffers;

    @Param({"64", "1024", "16384", "65536"})
    public int size;

    ByteBufAllocator alloc;
    private byte[] payload;

    @Setup(Level.Trial)
    public void setUp() {
        boolean direct = BufferType.parse(buffers) == BufferType.DIRECT;
        alloc = Allocator.parse(allocator).newInstance(direct);
        payload = new byte[size];
        for (int i = 0; i < size; i++) {
            payload[i] = (byte) i;
        }
        ByteBuf probe = alloc.buffer(size);
        try {
            if (probe.isDirect() != direct) {
                throw new IllegalStateException(allocator + " allocator asked to prefer " + buffers
                        + " buffers hands out " + (probe.isDirect() ? "direct" : "heap")
                        + " ones in this JVM (is sun.misc.Unsafe off? see io.netty.noUnsafe)");
            }
        } finally {
            probe.release();
        }
    }

    /** Allocates a buffer, fills it with {@code payload} and releases it; returns the bytes written. */
    static int allocateWriteRelease(ByteBufAllocator alloc, byte[] payload) {
        ByteBuf buf = alloc.buffer(payload.length);
        buf.writeBytes(payload);
        int written = buf.writerIndex();
        buf.release();
        return written;
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dio.netty.leakDetection.level=disabled",
            "-Dio.netty.noUnsafe=false", EventLoopHarnessExecutor.EXECUTOR, EventLoopHarnessExecutor.EXECUTOR_CLASS})
    public int eventLoopThread() {
        return allocateWriteRelease(alloc, payload);
    }

    @Benchmark
    @Threads(2)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dio.netty.leakDetection.level=disabled",
            "-Dio.netty.noUnsafe=false", EventLoopHarnessExecutor.EXECUTOR, EventLoopHarnessExecutor.EXECUTOR_CLASS})
    public int eventLoopThreads2() {
        return allocateWriteRelease(alloc, payload);
    }

    @Benchmark
    public int plainThread() {
        return allocateWriteRelease(alloc, payload);
    }

    @Benchmark
    @Threads(2)
    public int plainThreads2() {
        return allocateWriteRelease(alloc, payload);
    }
}
