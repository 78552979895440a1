package loopbench.load;

import com.google.gson.JsonObject;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LoadMergeTest {
    /** A generator's JSON result with {@code n} requests, each taking {@code micros}. */
    static JsonObject result(long n, long micros, double seconds, long connectErrors, boolean saturated) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount(micros, n);
        JsonObject o = new JsonObject();
        o.addProperty("target", "http://127.0.0.1:8080/");
        o.addProperty("durationSeconds", seconds);
        o.addProperty("requests", n);
        o.addProperty("sent", n + connectErrors);
        o.addProperty("requestsPerSecond", n / seconds);
        o.addProperty("bytesRead", n * 1000);
        o.addProperty("bytesWritten", n * 40);
        JsonObject errors = new JsonObject();
        errors.addProperty("total", connectErrors);
        errors.addProperty("connect", connectErrors);
        o.add("errors", errors);
        JsonObject lat = new JsonObject();
        lat.add("corrected", LoadJson.percentiles(h));
        lat.add("uncorrected", LoadJson.percentiles(h));
        o.add("latencyMicros", lat);
        JsonObject hdr = new JsonObject();
        hdr.addProperty("corrected", LoadJson.encode(h));
        hdr.addProperty("uncorrected", LoadJson.encode(h));
        o.add("hdrHistogram", hdr);
        JsonObject g = new JsonObject();
        g.addProperty("saturated", saturated);
        g.addProperty("cpuMicrosPerRequest", 20.0);
        o.add("generator", g);
        return o;
    }

    @Test
    void percentilesComeFromTheAddedHistogramsNeverFromAveragedPercentiles() {
        // A fast generator (9,000 requests at 100 µs) and a slow one (1,000 at 10 ms): averaged p50s would say
        // 5,050 µs; the merged distribution's p50 is 100 µs and its p99 10 ms.
        JsonObject m = LoadMerge.of(List.of("local", "ssh://b"), List.of(result(9000, 100, 10, 3, false),
                result(1000, 10_000, 10, 0, true)));
        JsonObject c = m.getAsJsonObject("latencyMicros").getAsJsonObject("corrected");
        assertEquals(100, c.get("p50").getAsLong(), 1);
        assertEquals(10_000, c.get("p99").getAsLong(), 10);
        assertEquals(10_000, LoadJson.decode(m.getAsJsonObject("hdrHistogram").get("corrected").getAsString())
                .getTotalCount());
        assertEquals(10_000, m.get("requests").getAsLong());
        assertEquals(1000.0, m.get("requestsPerSecond").getAsDouble(), 1e-9, "the generators ran side by side");
        assertEquals(3, m.getAsJsonObject("errors").get("total").getAsLong());
        assertTrue(m.get("saturated").getAsBoolean(), "one generator saturated: the whole did");
        assertEquals(2, m.getAsJsonArray("perGenerator").size());
        assertEquals("ssh://b", m.getAsJsonArray("perGenerator").get(1).getAsJsonObject().get("on").getAsString());
        String summary = LoadMerge.summary(m);
        assertTrue(summary.contains("2 load generators") && summary.contains("SATURATED"), summary);
        assertFalse(LoadMerge.of(List.of("a"), List.of(result(5, 100, 1, 0, false))).get("saturated").getAsBoolean());
    }
}
