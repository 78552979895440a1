package loopbench.claims;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every kind of chart the report draws: a valid PNG of the expected size, with the series it should have. */
class ChartsTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    private static Measurements all(Path dir) throws Exception {
        return Fixtures.everything().measurements(dir);
    }

    private static Set<String> seriesOf(ChartSpec spec, Measurements m) throws Exception {
        Chart<?, ?> chart = Charts.draw(spec, m);
        assertNotNull(chart, spec.id());
        byte[] png = Charts.png(chart);
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(png, 8), spec.id() + " is a PNG");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertNotNull(image, spec.id() + " decodes");
        assertEquals(Charts.WIDTH, image.getWidth());
        assertEquals(Charts.HEIGHT, image.getHeight());
        return chart.getSeriesMap().keySet();
    }

    @Test
    void comparisonBarsHaveOneSeriesPerGroup(@TempDir Path dir) throws Exception {
        Measurements m = all(dir);
        assertEquals(Set.of("individual-group", "reuse-server-group", "reuse-server-thread"),
                seriesOf(ClaimCatalog.threadModelsPaired("t", "thread models", ClaimCatalog.THROUGHPUT), m));
        assertEquals(Set.of("requests/s"), seriesOf(ClaimCatalog.LAYERS_PAIRED, m));
        assertEquals(Set.of("L4", "L7"), seriesOf(claimChart("C000-8", "proxy-bytes"), m));
        // The article's figure is a series of its own, beside the measured one.
        assertEquals(Set.of("requests/s"), seriesOf(claimChart("C001-1", "hello-world"), m));
    }

    @Test
    void blockingStrategiesAreDrawnAgainstTheirBound(@TempDir Path dir) throws Exception {
        assertEquals(Set.of("measured", "predicted bound"), seriesOf(ClaimCatalog.STRATEGIES, all(dir)));
    }

    @Test
    void warmUpAndPercentilePlotsHaveOneLinePerFork(@TempDir Path dir) throws Exception {
        Measurements m = all(dir);
        assertEquals(Set.of("L7 round 1", "L7 round 2", "L7 round 3", "L4 round 1", "L4 round 2", "L4 round 3"),
                seriesOf(claimChart("C002-2", "warmup"), m));
        assertEquals(Set.of("direct round 1", "direct round 2", "direct round 3", "L7 proxy round 1",
                "L7 proxy round 2", "L7 proxy round 3"), seriesOf(claimChart("C002-3", "latency-percentiles"), m));
    }

    @Test
    void theWarmUpCurvePlotsRatesAndLeavesOutThePartialLastSecond(@TempDir Path dir) throws Exception {
        // Ten full seconds, then what was left of the run: 3 ms with 3 requests (1,000/s, not 3/s).
        XYChart chart = (XYChart) Charts.draw(claimChart("C002-2", "warmup"), all(dir));
        XYSeries l7 = chart.getSeriesMap().get("L7 round 1");
        double[] x = l7.getXData();
        double[] y = l7.getYData();
        assertEquals(10, x.length, "the 3 ms sliver is not a point: " + Arrays.toString(x));
        assertEquals(10.0, x[9], 1e-9, "each entry at its end, in seconds since the load started");
        assertEquals(1005.0, y[9], 1e-9);
        assertTrue(Arrays.stream(y).min().getAsDouble() >= 300, "no drop to zero: " + Arrays.toString(y));
    }

    @Test
    void aChartWithNoResultsIsNotDrawn() {
        Measurements none = Measurements.of(List.of(), List.of());
        for (var c : ClaimCatalog.all()) {
            for (ChartSpec spec : c.charts()) {
                assertNull(Charts.draw(spec, none), spec.id());
            }
        }
    }

    @Test
    void thePercentileAxisReadsAsPercentiles() {
        assertEquals("0%", Charts.percentileLabel(0));
        assertEquals("90%", Charts.percentileLabel(1));
        assertEquals("99%", Charts.percentileLabel(2));
        assertEquals("99.9%", Charts.percentileLabel(3));
        assertEquals("99.99%", Charts.percentileLabel(4.0000000001));
        assertEquals("99.684%", Charts.percentileLabel(2.5));
        assertEquals("68.4%", Charts.percentileLabel(0.5));
        // XChart asks for ticks beyond the axis too, and loops until every label differs.
        assertTrue(!Charts.percentileLabel(-0.5).equals(Charts.percentileLabel(-1)));
    }

    private static ChartSpec claimChart(String claim, String id) {
        ChartSpec spec = ClaimCatalog.byId().get(claim).charts().stream().filter(c -> c.id().equals(id)).findFirst()
                .orElse(null);
        assertNotNull(spec, claim + " has chart " + id);
        assertTrue(spec.title().length() > 0);
        return spec;
    }
}
