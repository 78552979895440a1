package loopbench.report;

import com.google.gson.JsonArray;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ComparisonTest {

    private static JsonArray results(String mode, double score, double error, double bytesPerOp) {
        return JsonParser.parseString("[{\"benchmark\":\"a.b.FooBenchmark.run\",\"mode\":\"" + mode + "\","
                + "\"params\":{\"size\":\"64\"},"
                + "\"primaryMetric\":{\"score\":" + score + ",\"scoreError\":" + error + ",\"scoreUnit\":\"ns/op\"},"
                + "\"secondaryMetrics\":{\"gc.alloc.rate.norm\":{\"score\":" + bytesPerOp
                + ",\"scoreError\":0.1,\"scoreUnit\":\"B/op\"}}}]").getAsJsonArray();
    }

    private static Comparison.Verdict verdict(JsonArray base, JsonArray cur, String metric) {
        List<Comparison.Row> rows = Comparison.compare(base, cur, metric, 10);
        assertEquals(1, rows.size());
        return rows.get(0).verdict();
    }

    @Test
    void slowerBeyondThresholdAndNoiseIsARegression() {
        assertEquals(Comparison.Verdict.REGRESSION,
                verdict(results("avgt", 100, 2, 64), results("avgt", 130, 2, 64), "primary"));
    }

    @Test
    void aBigChangeInsideTheNoiseIsNot() {
        assertEquals(Comparison.Verdict.WITHIN_NOISE,
                verdict(results("avgt", 100, 30, 64), results("avgt", 130, 30, 64), "primary"));
    }

    @Test
    void forThroughputLowerIsWorse() {
        assertEquals(Comparison.Verdict.REGRESSION,
                verdict(results("thrpt", 100, 2, 64), results("thrpt", 70, 2, 64), "primary"));
        assertEquals(Comparison.Verdict.IMPROVEMENT,
                verdict(results("avgt", 100, 2, 64), results("avgt", 70, 2, 64), "primary"));
    }

    @Test
    void gatesOnBytesPerOperation() {
        assertEquals(Comparison.Verdict.REGRESSION,
                verdict(results("avgt", 100, 2, 64), results("avgt", 100, 2, 96), "gc.alloc.rate.norm"));
        String table = Comparison.render(Comparison.compare(results("avgt", 100, 2, 64),
                results("avgt", 100, 2, 96), "gc.alloc.rate.norm", 10), "gc.alloc.rate.norm", 10);
        assertTrue(table.contains("| FooBenchmark.run avgt {size=64} | 64.0 | 96.0 | B/op | +50.0% | REGRESSION |"), table);
    }

    @Test
    void missingBenchmarksAreListedNotFailed() {
        JsonArray other = JsonParser.parseString("[]").getAsJsonArray();
        assertEquals(Comparison.Verdict.ONLY_IN_BASELINE, verdict(results("avgt", 1, 0, 1), other, "primary"));
        assertEquals(Comparison.Verdict.ONLY_IN_CURRENT, verdict(other, results("avgt", 1, 0, 1), "primary"));
    }
}
