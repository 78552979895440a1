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
    private static final NullExperiments.Family SIDE_BY_SIDE = NullExperiments.FAMILIES.get(2);

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

    /**
     * One side-by-side result of 4 forks, 3 cycles each, arm A and its twin B: A's requests/s and CPU drift by fork
     * and cycle; B is A x {@code rpsRatio[f]} and A x {@code cpuRatio[f]} in every cycle of fork f.
     */
    private static Measurements sideBySideTwins(double[] rpsRatio, double[] cpuRatio) {
        Fixtures f = new Fixtures();
        Selection s = SIDE_BY_SIDE.checks().get(0).configuration();
        double[][] drift = {{100, 120, 90}, {60, 65, 70}, {140, 130, 150}, {100, 80, 110}};
        Fixtures.Result r = f.result(s, "ss", "s/op").forks(9.3, 9.3, 9.3, 9.3);
        for (String arm : List.of(ClaimCatalog.ARM_L7_RST, NullExperiments.SIDE_BY_SIDE_TWIN)) {
            boolean twin = !arm.equals(ClaimCatalog.ARM_L7_RST);
            double[][] rps = new double[4][3];
            double[][] cpu = new double[4][3];
            for (int fork = 0; fork < 4; fork++) {
                for (int cycle = 0; cycle < 3; cycle++) {
                    rps[fork][cycle] = 600 * drift[fork][cycle] * (twin ? rpsRatio[fork] : 1);
                    cpu[fork][cycle] = 0.2 * drift[fork][cycle] * (twin ? cpuRatio[fork] : 1);
                }
            }
            r.secondary(EndToEndMetrics.arm(arm, EndToEndMetrics.REQUESTS_PER_SECOND), "req/s", rps)
                    .secondary(EndToEndMetrics.arm(arm, EndToEndMetrics.cpu(EndToEndMetrics.PROXY)), "us", cpu);
        }
        r.rounds("null-run", "null-side-by-side", s.label(), 1, 2, 3, 4).add();
        return Measurements.of(f.results(), List.of());
    }

    @Test
    void sideBySideTwinsAreJudgedAgainstOneOverTheForksEachCheckAtItsClaimsMargin() {
        // requests/s: B within 1% of A in every fork (inside +-2%: no effect); CPU: B 1.5% above A in every fork,
        // beyond C000-6's 1% though within C000-3's 2%: decisive, a false effect at that claim's boundary.
        Measurements m = sideBySideTwins(new double[] {1.01, 0.99, 1.005, 0.995},
                new double[] {1.015, 1.0151, 1.0149, 1.015});
        List<NullExperiments.Judged> judged = NullExperiments.judge(m);
        assertEquals(List.of("null-side-by-side"), judged.stream().map(j -> j.family().label()).toList(),
                "only the family the input has");
        NullExperiments.Judgement rps = judged.get(0).checks().get(0);
        NullExperiments.Judgement cpu = judged.get(0).checks().get(1);
        assertNull(rps.missing(), rps::toString);
        assertEquals(1.0, rps.ratio(), 1e-3, "the drift of the forks and cycles cancels in the ratio");
        assertNull(rps.beyond(), rps::toString);
        assertEquals(4, cpu.pairs());
        assertTrue(cpu.method().startsWith("one-sample t on logs, 4 rounds"), cpu.method());
        assertEquals(1.015, cpu.ratio(), 1e-4);
        assertEquals(loopbench.stats.Margin.Side.ABOVE, cpu.beyond(), cpu::toString);
        assertTrue(judged.get(0).decisive());

        NullExperiments.Judged equal = NullExperiments.judge(sideBySideTwins(new double[] {1.01, 0.99, 1.005, 0.995},
                new double[] {1.004, 0.997, 1.002, 0.999})).get(0);
        assertFalse(equal.decisive(), equal::toString);
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
