package loopbench.bench;

import com.google.gson.JsonObject;
import loopbench.line.NettyLine;
import loopbench.metrics.MemoryReport;
import loopbench.process.ServerProcess;
import loopbench.report.EndToEndMetrics;
import loopbench.topology.Placement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * MemoryEndToEndBenchmark does what its name says: the servers it starts use the allocator asked for and report their
 * memory every iteration, per process and per connection; after a burst, the burst really carried 1 MiB bodies
 * through the server (its figures at the burst's end are there), and the iterations then run under light load; the
 * side file names the Netty each server ran and its last memory report.
 */
class MemoryEndToEndBenchmarkTest {

    @AfterEach
    void noServerLeft() {
        assertEquals(List.of(), ServerProcess.live(), "every server process was stopped");
    }

    private static MemoryEndToEndBenchmark small(String server, String allocator, String phase) {
        MemoryEndToEndBenchmark b = new MemoryEndToEndBenchmark();
        b.server = server;
        b.allocator = allocator;
        b.connections = 4;
        b.bodySize = 1000;
        b.phase = phase;
        b.burstSeconds = 1;
        b.settleSeconds = 0;
        b.transport = "nio";
        b.ioThreads = 1;
        b.clientTransport = "nio";
        b.clientIoThreads = 1;
        b.placement = Placement.SHARED;
        return b;
    }

    @Test
    void theProxyUnderLoadReportsItsAllocatorsFiguresEveryIteration(@TempDir Path dir) throws Exception {
        MemoryEndToEndBenchmark b = small("proxy", "pooled", "steady");
        String old = System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, dir.toString());
        Map<String, Double> m;
        try {
            b.startTrial(EndToEndTrial.begin(MemoryEndToEndBenchmark.class.getName() + ".requests",
                    Map.of("server", "proxy", "phase", "steady")));
            try {
                assertTrue(String.join(" ", b.trial.server(EndToEndMetrics.PROXY).command())
                        .contains("--allocator pooled --buffers direct"));
                m = SmallBenchmarks.oneIteration(b, b::requests);
            } finally {
                b.stopTrial();
            }
        } finally {
            restore(old);
        }
        double inUse = m.get(EndToEndMetrics.memory(EndToEndMetrics.PROXY, MemoryReport.ALLOCATOR_DIRECT_IN_USE));
        double reserved = m.get(EndToEndMetrics.memory(EndToEndMetrics.PROXY,
                MemoryReport.ALLOCATOR_DIRECT_RESERVED));
        assertTrue(reserved > 0 && reserved >= inUse, "a pooled proxy that served holds chunks: " + m);
        assertEquals(reserved / 4, m.get(EndToEndMetrics.memoryPerConnection(EndToEndMetrics.PROXY,
                MemoryReport.ALLOCATOR_DIRECT_RESERVED)), 1e-6);
        assertTrue(m.get(EndToEndMetrics.memory(EndToEndMetrics.ORIGIN, MemoryReport.RSS)) > 0, m::toString);
        JsonObject memory = SmallBenchmarks.onlySideFile(dir).getAsJsonObject("memory");
        for (String role : List.of(EndToEndMetrics.PROXY, EndToEndMetrics.ORIGIN)) {
            assertEquals(NettyLine.current().version(), memory.getAsJsonObject(role).get("netty").getAsString());
        }
        assertEquals("pooled", memory.getAsJsonObject(EndToEndMetrics.PROXY).get("allocator").getAsString());
    }

    @Test
    void afterABurstOfLargeMessagesTheEchoServerIsMeasuredUnderLightLoad() throws Exception {
        MemoryEndToEndBenchmark b = small("echo", "adaptive", "after-burst");
        b.startTrial(EndToEndTrial.begin(MemoryEndToEndBenchmark.class.getName() + ".requests",
                Map.of("server", "echo", "phase", "after-burst")));
        Map<String, Double> m;
        long burstBytes;
        try {
            ServerProcess echo = b.trial.server(EndToEndMetrics.ECHO);
            burstBytes = echo.io().bytesRead(); // the burst is over before the trial's setup returns
            m = SmallBenchmarks.oneIteration(b, b::requests);
        } finally {
            b.stopTrial();
        }
        assertTrue(burstBytes >= MemoryEndToEndBenchmark.BURST_BODY, "the echo server read the burst: " + burstBytes);
        double atBurstEnd = m.get(EndToEndMetrics.memoryAtBurstEnd(EndToEndMetrics.ECHO,
                MemoryReport.ALLOCATOR_DIRECT_RESERVED));
        assertTrue(atBurstEnd > 0, "the adaptive allocator held memory at the burst's end: " + m);
        assertTrue(m.containsKey(EndToEndMetrics.memory(EndToEndMetrics.ECHO, MemoryReport.ALLOCATOR_DIRECT_RESERVED)));
        assertEquals(0.0, m.get(EndToEndMetrics.ERRORS));
    }

    @Test
    void aBadParameterIsRefusedBeforeAnythingStarts() {
        MemoryEndToEndBenchmark b = small("echo", "pooled", "later");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.startTrial(
                EndToEndTrial.begin(MemoryEndToEndBenchmark.class.getName() + ".requests", Map.of())));
        assertTrue(e.getMessage().contains("phase 'later' is not valid; valid: steady, after-burst"), e.getMessage());
        MemoryEndToEndBenchmark c = small("nginx", "pooled", "steady");
        assertThrows(IllegalArgumentException.class, () -> c.startTrial(
                EndToEndTrial.begin(MemoryEndToEndBenchmark.class.getName() + ".requests", Map.of())));
    }

    private static void restore(String sideFileDir) {
        if (sideFileDir == null) {
            System.clearProperty(EndToEndMetrics.SIDE_FILE_PROPERTY);
        } else {
            System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, sideFileDir);
        }
    }
}
