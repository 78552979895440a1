package loopbench.bench;

import io.netty.handler.codec.http.FullHttpRequest;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;

/**
 * Does a large aggregator limit cost anything, with both limits measured in the same milliseconds of one JVM?
 * (claim C000-7)
 *
 * <p>{@link AggregatorBenchmark} measures one limit per fork, and forks of one configuration differ by the luck of
 * their JIT compilation and memory layout: paired by round, two forks' log ratio of time per request spreads with an
 * sd of 0.014 to 0.058 on this suite's hosts, several times the ±1% the claim asks to resolve. Here both limits run in
 * one fork, each its own channel (an HttpRequestDecoder and the proxy's aggregator, exactly as AggregatorBenchmark
 * builds it), so both run the same compiled code and only the limit differs. One invocation is one cycle:
 * {@code batch} requests through each limit, the two batches in a random order each cycle, each timed with two
 * {@code System.nanoTime} reads (at ~0.6 µs a request, a batch of 1,000 makes the reads' cost negligible and
 * interleaves the limits every millisecond or so).
 *
 * <p>Per iteration, as JMH secondary results ({@link LimitTimes}): the nanoseconds each limit's requests took in
 * total, the bytes they allocated (the thread's allocation counter, read outside the timed stretch), and the
 * requests each limit handled (equal). Their quotient, large over small, iteration by iteration, is what C000-7
 * reads, each fork's mean; the forks are the rounds. The primary score, time per cycle, is no claim's figure.
 * Expected, as for AggregatorBenchmark: no difference (Netty 4.2 only compares the limit with lengths).
 *
 * <p>The two limits may be equal: then the two channels are twins, and the ratio tests the method itself (the null
 * experiments of profiles/claims-null-aggregator-side-by-side.jmh).
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar AggregatorSideBySideBenchmark}
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dio.netty.leakDetection.level=disabled",
        "-Dio.netty.noUnsafe=false", EventLoopHarnessExecutor.EXECUTOR, EventLoopHarnessExecutor.EXECUTOR_CLASS})
public class AggregatorSideBySideBenchmark extends AbstractBenchmark {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Param({"2000"})
    public int smallLimit;

    @Param({"100000000"})
    public int largeLimit;

    /** {@code fixed} (Content-Length) or {@code chunked}, as in AggregatorBenchmark. */
    @Param({"fixed"})
    public String encoding;

    /** At most 1,500: every input fits both limits. */
    @Param({"1500"})
    public int bodySize;

    /** Requests through each limit per cycle. */
    @Param({"1000"})
    public int batch;

    AggregatorBenchmark small;
    AggregatorBenchmark large;
    private SplittableRandom order;

    /** Per-iteration totals, reset at each iteration; JMH reports them beside the primary score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class LimitTimes {
        public long smallLimitNanos;
        public long largeLimitNanos;
        public long smallLimitBytes;
        public long largeLimitBytes;
        public long requestsPerLimit;

        @Setup(Level.Iteration)
        public void reset() {
            smallLimitNanos = 0;
            largeLimitNanos = 0;
            smallLimitBytes = 0;
            largeLimitBytes = 0;
            requestsPerLimit = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        if (batch < 1) {
            throw new IllegalArgumentException("batch must be at least 1, was " + batch);
        }
        small = AggregatorBenchmark.ready(smallLimit, encoding, bodySize);
        large = AggregatorBenchmark.ready(largeLimit, encoding, bodySize);
        order = new SplittableRandom(System.nanoTime());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        for (AggregatorBenchmark b : new AggregatorBenchmark[] {small, large}) {
            if (b != null) {
                b.tearDown();
            }
        }
    }

    /** One cycle: a batch through each limit, in a random order; returns the content bytes aggregated. */
    @Benchmark
    public long cycle(LimitTimes times, Blackhole bh) {
        long bytes;
        if (order.nextBoolean()) {
            bytes = timed(small, times, true, bh) + timed(large, times, false, bh);
        } else {
            bytes = timed(large, times, false, bh) + timed(small, times, true, bh);
        }
        times.requestsPerLimit += batch;
        return bytes;
    }

    private long timed(AggregatorBenchmark limit, LimitTimes times, boolean isSmall, Blackhole bh) {
        long bytes = 0;
        long allocatedBefore = THREADS.getCurrentThreadAllocatedBytes();
        long start = System.nanoTime();
        for (int i = 0; i < batch; i++) {
            FullHttpRequest request = limit.aggregateOne();
            try {
                bh.consume(request.headers());
                bytes += request.content().readableBytes();
            } finally {
                request.release();
            }
        }
        long took = System.nanoTime() - start;
        long allocated = THREADS.getCurrentThreadAllocatedBytes() - allocatedBefore;
        if (isSmall) {
            times.smallLimitNanos += took;
            times.smallLimitBytes += allocated;
        } else {
            times.largeLimitNanos += took;
            times.largeLimitBytes += allocated;
        }
        return bytes;
    }
}
