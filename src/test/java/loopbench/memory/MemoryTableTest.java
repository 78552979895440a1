package loopbench.memory;

import loopbench.metrics.MemoryReport;
import loopbench.report.EndToEndMetrics;
import loopbench.testing.JmhJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static loopbench.testing.JmhJson.constant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory table: a row per configuration with the figures the servers reported, the Netty each server ran (from
 * its side file), per-connection figures, and a chart per server and phase.
 */
class MemoryTableTest {

    private static String params(String allocator, String phase) {
        return "\"server\":\"proxy\",\"allocator\":\"" + allocator + "\",\"connections\":\"64\",\"bodySize\":\"1024\","
                + "\"phase\":\"" + phase + "\"";
    }

    private static String result(String allocator, String phase, double reserved) {
        String held = EndToEndMetrics.memory(EndToEndMetrics.PROXY, MemoryReport.ALLOCATOR_DIRECT_RESERVED);
        String rss = EndToEndMetrics.memory(EndToEndMetrics.PROXY, MemoryReport.RSS);
        String atEnd = EndToEndMetrics.memoryAtBurstEnd(EndToEndMetrics.PROXY, MemoryReport.ALLOCATOR_DIRECT_RESERVED);
        return JmhJson.withSecondaries("MemoryEndToEndBenchmark.requests", "thrpt", params(allocator, phase),
                constant(2, 1000), Map.of(held, constant(2, reserved), rss, constant(2, 3 << 28),
                        atEnd, constant(2, reserved * 4)));
    }

    private static void sideFile(Path dir, String allocator, String phase, String netty) throws Exception {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(allocator + phase + ".json"), "{\"benchmark\":\"a.b.MemoryEndToEndBenchmark."
                + "requests\",\"params\":{" + params(allocator, phase) + "},\"fork\":1,\"load\":{},\"memory\":{"
                + "\"proxy\":{\"netty\":\"" + netty + "\",\"allocator\":\"" + allocator + "\"}}}");
    }

    @Test
    void aRowPerConfigurationNamingItsNettyAndAChartPerServerAndPhase(@TempDir Path dir) throws Exception {
        Path json = Files.writeString(dir.resolve("results.json"), JmhJson.array(
                result("pooled", "steady", 8 << 20), result("adaptive", "steady", 2 << 20),
                result("pooled", "after-burst", 16 << 20)));
        sideFile(dir.resolve("e2e"), "pooled", "steady", "4.1.136.Final");
        sideFile(dir.resolve("e2e"), "adaptive", "steady", "4.2.18.Final");
        MemoryTable.Written w = MemoryTable.write(java.util.List.of(json), dir.resolve("out"));
        assertEquals(3, w.rows());
        String md = Files.readString(w.markdown());
        assertTrue(md.contains("## proxy, steady") && md.contains("## proxy, burst's end")
                && md.contains("## proxy, after-burst"), md);
        assertTrue(md.contains("| 4.1.136.Final | pooled | 64 | 1 KiB | 8.0 |"), md);
        assertTrue(md.contains("| 4.2.18.Final | adaptive | 64 | 1 KiB | 2.0 |"), md);
        assertTrue(md.contains("| ? | pooled | 64 | 1 KiB | 64.0 |"), "at the burst's end, no side file: " + md);
        assertTrue(md.contains("| 128.0 | 12288.0 | 2 |"), "per connection: 8 MiB / 64, 768 MiB / 64: " + md);
        assertEquals(3, w.charts().size(), w.charts()::toString);
        for (Path png : w.charts()) {
            assertTrue(Files.size(png) > 1000, png + " is a PNG");
        }
    }

    @Test
    void resultsWithoutTheBenchmarkAreRefusedSayingWhatRunsIt(@TempDir Path dir) throws Exception {
        Path json = Files.writeString(dir.resolve("results.json"), JmhJson.array(
                JmhJson.result("Foo.run", "avgt", "", constant(2, 1), null)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MemoryTable.write(java.util.List.of(json), dir.resolve("out")));
        assertTrue(e.getMessage().contains("profiles/memory.jmh"), e.getMessage());
    }
}
