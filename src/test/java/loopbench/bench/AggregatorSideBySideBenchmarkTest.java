package loopbench.bench;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import loopbench.proxy.RequestAggregator;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.Blackhole;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * AggregatorSideBySideBenchmark's cycle really aggregates a batch of whole requests through each limit, each on a
 * channel with its own limit, and times each limit's batch into its own counter.
 */
class AggregatorSideBySideBenchmarkTest {
    private static final Blackhole BH = TestBlackhole.INSTANCE;

    /** Counts the requests that leave a limit's aggregator. */
    private static final class Counter extends ChannelInboundHandlerAdapter {
        int requests;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            requests++;
            ctx.fireChannelRead(msg);
        }
    }

    private static AggregatorSideBySideBenchmark benchmark(int batch) {
        AggregatorSideBySideBenchmark b = new AggregatorSideBySideBenchmark();
        b.smallLimit = 2000;
        b.largeLimit = 100_000_000;
        b.encoding = "fixed";
        b.bodySize = 1500;
        b.batch = batch;
        b.setUp();
        return b;
    }

    @Test
    void eachCycleAggregatesABatchThroughEachLimit() {
        AggregatorSideBySideBenchmark b = benchmark(25);
        Counter small = new Counter();
        Counter large = new Counter();
        b.small.channel.pipeline().addLast(small);
        b.large.channel.pipeline().addLast(large);
        AggregatorSideBySideBenchmark.LimitTimes times = new AggregatorSideBySideBenchmark.LimitTimes();
        times.reset();
        try {
            for (int cycle = 1; cycle <= 4; cycle++) {
                assertEquals(2L * 25 * 1500, b.cycle(times, BH), "content bytes of both batches");
                assertEquals(25L * cycle, small.requests, "requests through the 2,000 limit");
                assertEquals(25L * cycle, large.requests, "requests through the 100,000,000 limit");
                assertEquals(25L * cycle, times.requestsPerLimit);
            }
            assertTrue(times.smallLimitNanos > 0 && times.largeLimitNanos > 0, "each limit's batches timed");
            // Heap only (the content is in direct buffers): the request, its headers and the decoder's objects,
            // hundreds of bytes per request (AggregatorBenchmark: 992 B/op).
            assertTrue(times.smallLimitBytes >= 100L * 100 && times.largeLimitBytes >= 100L * 100,
                    "each limit's allocation counted: " + times.smallLimitBytes + ", " + times.largeLimitBytes);
            assertEquals(2000, b.small.channel.pipeline().get(RequestAggregator.class).maxContentLength());
            assertEquals(100_000_000, b.large.channel.pipeline().get(RequestAggregator.class).maxContentLength());
            assertNull(b.small.channel.readInbound(), "every request read and released");
            assertNull(b.large.channel.readInbound(), "every request read and released");
            times.reset();
            assertEquals(0, times.smallLimitNanos + times.largeLimitNanos + times.smallLimitBytes
                    + times.largeLimitBytes + times.requestsPerLimit, "reset");
        } finally {
            b.tearDown();
        }
    }

    @Test
    void equalLimitsAreTwinChannels() {
        AggregatorSideBySideBenchmark b = benchmark(10);
        b.tearDown();
        b.largeLimit = 2000;
        b.setUp();
        try {
            assertTrue(b.small.channel != b.large.channel, "two channels");
            assertEquals(2000, b.large.channel.pipeline().get(RequestAggregator.class).maxContentLength());
            assertEquals(2L * 10 * 1500, b.cycle(new AggregatorSideBySideBenchmark.LimitTimes(), BH));
        } finally {
            b.tearDown();
        }
    }

    @Test
    void noBatchIsRefused() {
        AggregatorSideBySideBenchmark none = benchmark(1);
        none.tearDown();
        none.batch = 0;
        assertTrue(assertThrows(IllegalArgumentException.class, none::setUp).getMessage().contains("was 0"));
    }
}
