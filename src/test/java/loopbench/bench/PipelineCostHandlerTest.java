package loopbench.bench;

import loopbench.proxy.RequestIdHandler;
import loopbench.proxy.UserHandler;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code PipelineCostBenchmark -p handler=CLASS}: a user's filter in the L7 path, and what it costs per request. */
class PipelineCostHandlerTest {
    private static PipelineCostBenchmark benchmark(String layer, String handler) {
        PipelineCostBenchmark b = new PipelineCostBenchmark();
        b.layer = layer;
        b.l7Mode = "aggregate";
        b.method = "GET";
        b.bodySize = 1024;
        b.handler = handler;
        b.setUp();
        return b;
    }

    /** Bytes allocated on this thread (where the embedded path runs in a test) per exchange, after a warm-up. */
    private static double allocatedPerExchange(PipelineCostBenchmark b, PipelineCostBenchmark.Traffic traffic) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int n = 2_000;
        for (int i = 0; i < n; i++) {
            TestBlackhole.INSTANCE.consume(b.exchange(traffic));
        }
        traffic.reset();
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < n; i++) {
            TestBlackhole.INSTANCE.consume(b.exchange(traffic));
        }
        return (threads.getCurrentThreadAllocatedBytes() - before) / (double) n;
    }

    @Test
    void theFiltersCostShowsUpInBytesPerRequest() {
        PipelineCostBenchmark without = benchmark("7", UserHandler.NONE);
        PipelineCostBenchmark with = benchmark("7", RequestIdHandler.class.getName());
        try {
            PipelineCostBenchmark.Traffic plain = new PipelineCostBenchmark.Traffic();
            PipelineCostBenchmark.Traffic tagged = new PipelineCostBenchmark.Traffic();
            double base = allocatedPerExchange(without, plain);
            double filtered = allocatedPerExchange(with, tagged);
            // A UUID, its 36-character string and a header entry per request, at least.
            assertTrue(filtered - base >= 36, "B/op with the filter " + filtered + ", without " + base);
            // It did its work: every request reached the backend with "X-Request-Id: <uuid>\r\n" more.
            assertEquals(plain.backendBytesOut + plain.requests * (RequestIdHandler.HEADER.length() + 2 + 36 + 2),
                    tagged.backendBytesOut);
            assertEquals(plain.clientBytesOut, tagged.clientBytesOut, "the responses are the same");
        } finally {
            without.tearDown();
            with.tearDown();
        }
    }

    @Test
    void aHandlerOutsideLayerSevenIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> benchmark("4", RequestIdHandler.class.getName()));
        assertTrue(e.getMessage().contains("needs layer=7 (was 4)"), e.getMessage());
    }
}
