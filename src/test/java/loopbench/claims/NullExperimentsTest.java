package loopbench.claims;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import loopbench.report.EndToEndMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The judging of null experiments on twins with known answers. */
class NullExperimentsTest {
    private static final NullExperiments.Family AGGREGATOR = NullExperiments.FAMILIES.get(0);
    private static final NullExperiments.Family PROXY = NullExperiments.FAMILIES.get(1);

    /** Twin A and B of a configuration, 6 rounds, B = A x ratios[i] in round i + 1. */
    private static void twins(Fixtures f, NullExperiments.TwinCheck c, String family, String metric, double[] a,
                              double[] ratios) {
        double[] b = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            b[i] = a[i] * ratios[i];
        }
        int[] rounds = {1, 2, 3, 4, 5, 6};
        for (String twin : List.of("A", "B")) {
            double[] v = twin.equals("A") ? a : b;
            Fixtures.Result r = f.result(c.configuration(), metric == null ? "avgt" : "thrpt", "x");
            if (metric == null) {
                r.forks(v);
            } else {
                r.forks(1000, 1000, 1000, 1000, 1000, 1000).secondaryForks(metric, "us", v);
            }
            r.rounds("null-run", family, c.configuration().label(), rounds).twin(twin).add();
        }
    }

    @Test
    void aFamilyIsDecisiveOnlyWhenAnIntervalLiesWhollyBeyondTheMimickedMargin(@TempDir Path dir) throws Exception {
        double[] drift = {100, 130, 70, 110, 90, 120};
        Fixtures f = new Fixtures();
        // Aggregator twins within +-0.3% of each other: no effect.
        twins(f, AGGREGATOR.checks().get(0), "null-aggregator", null, drift,
                new double[] {1.003, 0.997, 1.002, 0.998, 1.001, 0.999});
        // Proxy L4 twins: no effect; L7 twins: B's CPU 5% above A's in every round (beyond +-2%).
        twins(f, PROXY.checks().get(0), "null-proxy", null, drift,
                new double[] {1.01, 0.99, 1.0, 1.005, 0.995, 1.0});
        twins(f, PROXY.checks().get(1), "null-proxy", EndToEndMetrics.cpu(EndToEndMetrics.PROXY), drift,
                new double[] {1.05, 1.051, 1.049, 1.05, 1.052, 1.048});
        Measurements m = Measurements.of(f.results(), List.of());
        List<NullExperiments.Judged> judged = NullExperiments.judge(m);
        assertFalse(judged.get(0).decisive(), "aggregator twins agree");
        assertTrue(judged.get(0).checks().get(0).lower() > 1 / 1.01, judged.get(0).checks()::toString);
        NullExperiments.Judgement l4 = judged.get(1).checks().get(0);
        NullExperiments.Judgement l7 = judged.get(1).checks().get(1);
        assertNull(l4.beyond());
        assertEquals(6, l7.pairs());
        assertEquals("paired t on per-round log ratios, 6 pairs", l7.method());
        assertEquals(1.05, l7.ratio(), 1e-3);
        assertEquals(loopbench.stats.Margin.Side.ABOVE, l7.beyond());
        assertTrue(judged.get(1).decisive());

        NullExperiments.write(judged, m, dir);
        JsonObject json = JsonParser.parseString(Files.readString(dir.resolve(NullExperiments.JSON)))
                .getAsJsonObject();
        assertEquals(1, json.get("familiesWithADecisiveCheck").getAsInt());
        assertEquals(2, json.get("familiesMeasured").getAsInt());
        assertEquals("above", json.getAsJsonArray("families").get(1).getAsJsonObject().getAsJsonArray("checks")
                .get(1).getAsJsonObject().get("decisive").getAsString());
        String md = Files.readString(dir.resolve(NullExperiments.MARKDOWN));
        assertTrue(md.contains("1 of 2 families with a decisive check"), md);
        assertTrue(md.contains("| null-proxy | C000-3, C000-4, C000-6 | L7 proxy CPU per request, B / A (as C000-4, "
                + "C000-6) | 1.05"), md);
    }

    @Test
    void aFamilyWithoutTwinsIsNotMeasuredAndNotDecisive() {
        List<NullExperiments.Judged> judged = NullExperiments.judge(Measurements.of(List.of(), List.of()));
        assertFalse(judged.get(0).measured());
        assertFalse(judged.get(0).decisive());
        assertTrue(judged.get(0).checks().get(0).missing().contains("no twin A"), judged::toString);
    }

    @Test
    void twinsAreNeverReadAsAClaimsConfiguration() {
        Fixtures f = new Fixtures();
        twins(f, PROXY.checks().get(0), "null-proxy", null, new double[] {1, 2, 3, 4, 5, 6},
                new double[] {1, 1, 1, 1, 1, 1});
        Selection s = PROXY.checks().get(0).configuration();
        assertTrue(s.matchesIn(Measurements.of(f.results(), List.of()).results()).isEmpty());
    }
}
