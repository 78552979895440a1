package loopbench.report;

import com.google.gson.JsonArray;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.nio.file.Paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultTableTest {

    private static Path example() throws Exception {
        return Paths.get(ResultTableTest.class.getResource("example-jmh-result.json").toURI());
    }

    @Test
    void rendersOneRowPerResultWithUnitsSamplesAndCostColumns() throws Exception {
        JsonArray results = ResultTable.read(example());
        String md = ResultTable.render(results);
        assertTrue(md.contains("### ExampleBenchmark"), md);
        assertTrue(md.contains("| benchmark | size | mode | n | score ± error | unit |"), md);
        assertTrue(md.contains("alloc (B/op)"), md);
        assertTrue(md.contains("cpu.ns/op (ns/op)"), md);
        assertTrue(md.contains("| alloc | 64 | avgt | 2 | 109 | ns/op |"), md);
        assertTrue(md.contains("1 fork(s) x 2 measurement iteration(s) of 1 s"), md);
        assertTrue(md.contains("Netty sun.misc.Unsafe: on (checked in every fork)"), md);
        // Rates per second and GC counts stay in the JSON only.
        assertTrue(!md.contains("gc.alloc.rate (") && !md.contains("gc.count"), md);
    }

    @Test
    void formatsThreeSignificantDigits() {
        assertEquals("109", ResultTable.format(109.471));
        assertEquals("1.01", ResultTable.format(1.005));
        assertEquals("96.1", ResultTable.format(96.142));
        assertEquals("12,346", ResultTable.format(12345.6));
        assertEquals("1.24e-05", ResultTable.format(0.0000124));
        assertEquals("0", ResultTable.format(0));
    }

    @Test
    void anEmptyResultSaysSo() {
        assertEquals("No results.\n", ResultTable.render(new JsonArray()));
    }

    @Test
    void eventCountersAreShownPerRequest() throws Exception {
        JsonArray results = ResultTable.read(
                Paths.get(ResultTableTest.class.getResource("pipeline-cost-result.json").toURI()));
        String md = ResultTable.render(results);
        assertTrue(md.contains("clientBytesIn (per request) | clientBytesOut (per request) | alloc (B/op) | "
                + "requests (total) |"), md);
        // C000-8 in numbers: the L7 proxy sends its backend 87 bytes for the client's 40-byte GET; L4 forwards 40.
        assertTrue(md.contains("| exchange | 0 | 4 | GET | avgt | 3 | 5,820 ± 1,107 | ns/op | 78.0 | 40.0 | "
                + "40.0 | 78.0 |"), md);
        assertTrue(md.contains("| exchange | 0 | 7 | GET | avgt | 3 | 14,776 ± 12,732 | ns/op | 78.0 | 87.0 | "
                + "40.0 | 78.0 |"), md);
    }
}
