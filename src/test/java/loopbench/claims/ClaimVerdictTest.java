package loopbench.claims;

import loopbench.report.EndToEndMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The verdict rules on small JMH results: each outcome, composite claims, exact counters, side files. */
class ClaimVerdictTest {
    private static final Claim L4_VS_DIRECT = ClaimCatalog.byId().get("C000-1");
    private static final Claim RANKING = ClaimCatalog.byId().get("C000-3");

    private static ClaimResult evaluate(Claim c, Fixtures f) {
        return ClaimResult.evaluate(c, Measurements.of(f.results(), List.of()));
    }

    @Test
    void aClearEffectInsideTheRegionIsConfirmed() {
        // L4 / direct = 0.96, claimed > 0.90.
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.DIRECT, 100_000, 99_000, 101_000)
                .thrpt(ClaimCatalog.L4_RST, 96_000, 95_500, 96_500);
        ClaimResult r = evaluate(L4_VS_DIRECT, f);
        assertEquals(Verdict.CONFIRMED, r.verdict(), r::reason);
        CheckResult c = r.decisive().get(0);
        assertEquals(0.96, c.ratio(), 0.005);
        assertTrue(c.lower() > 0.90 && c.upper() < 1.0, c::effect);
        assertTrue(c.pFor() < Region.ALPHA);
    }

    @Test
    void theReverseIsRefuted() {
        // L4 / direct = 0.5: the proxy halves throughput.
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.DIRECT, 100_000, 99_000, 101_000)
                .thrpt(ClaimCatalog.L4_RST, 50_000, 49_000, 51_000);
        ClaimResult r = evaluate(L4_VS_DIRECT, f);
        assertEquals(Verdict.REFUTED, r.verdict(), r::reason);
        assertTrue(r.reason().contains("outside the claimed region > 0.900"), r::reason);
        assertTrue(r.decisive().get(0).upper() < 0.9);
    }

    @Test
    void anEffectInsideTheNoiseIsInconclusive() {
        // Fork means spread +-25% around a ratio of 0.9: the interval straddles the boundary.
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.DIRECT, 100_000, 80_000, 120_000)
                .thrpt(ClaimCatalog.L4_RST, 70_000, 110_000, 90_000);
        ClaimResult r = evaluate(L4_VS_DIRECT, f);
        assertEquals(Verdict.INCONCLUSIVE, r.verdict(), r::reason);
        CheckResult c = r.decisive().get(0);
        assertTrue(c.lower() < 0.9 && c.upper() > 0.9, c::effect);
        assertTrue(r.reason().startsWith("inside the noise"), r::reason);
    }

    @Test
    void aMissingResultNamesTheProfileLineThatProducesIt() {
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.DIRECT, 100_000, 99_000, 101_000);
        ClaimResult r = evaluate(L4_VS_DIRECT, f);
        assertEquals(Verdict.MISSING, r.verdict());
        assertTrue(r.reason().contains(ClaimCatalog.LINE_THREADS), r::reason);
        assertTrue(r.missingLines().contains(ClaimCatalog.LINE_THREADS), () -> r.missingLines().toString());
        assertTrue(r.reason().contains("layer=4"), r::reason);
    }

    @Test
    void oneForkGivesNoIntervalAndNoVerdict() {
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.DIRECT, 100_000).thrpt(ClaimCatalog.L4_RST, 50_000);
        ClaimResult r = evaluate(L4_VS_DIRECT, f);
        assertEquals(Verdict.INCONCLUSIVE, r.verdict(), r::reason);
        assertTrue(r.reason().contains("at least 2 forks"), r::reason);
    }

    private static Fixtures ranking(double l4Rst, double l4Rsg, double l4Ig, double l7Rst, double l7Rsg, double l7Ig) {
        Fixtures f = new Fixtures();
        double[][] cfg = {{l4Rst}, {l4Rsg}, {l4Ig}, {l7Rst}, {l7Rsg}, {l7Ig}};
        List<Selection> s = List.of(ClaimCatalog.L4_RST, ClaimCatalog.L4_RSG, ClaimCatalog.L4_IG, ClaimCatalog.L7_RST,
                ClaimCatalog.L7_RSG, ClaimCatalog.L7_IG);
        for (int i = 0; i < 6; i++) {
            double v = cfg[i][0];
            f.thrpt(s.get(i), v, v * 1.005, v * 0.995);
        }
        return f;
    }

    @Test
    void aRankingIsConfirmedOnlyWhenEveryPairIs() {
        assertEquals(Verdict.CONFIRMED, evaluate(RANKING, ranking(120, 110, 100, 60, 55, 50)).verdict());
        // One pair reversed (L7: reuse-server-group below individual-group): refuted, and the reason names it.
        ClaimResult reversed = evaluate(RANKING, ranking(120, 110, 100, 60, 45, 50));
        assertEquals(Verdict.REFUTED, reversed.verdict(), reversed::reason);
        assertTrue(reversed.reason().contains("L7 requests/s, reuse-server-group / individual-group"), reversed::reason);
        // One pair equal: that check straddles 1, the others are confirmed: inconclusive.
        ClaimResult tie = evaluate(RANKING, ranking(120, 100, 100, 60, 55, 50));
        assertEquals(Verdict.INCONCLUSIVE, tie.verdict(), tie::reason);
    }

    @Test
    void holmKeepsOneMarginalContradictionAmongManyFromRefuting() {
        // Four checks; one is reversed with a raw one-sided p between 0.025/4 and 0.025: alone it would refute,
        // Holm-adjusted over four it does not.
        Fixtures f = new Fixtures();
        f.thrpt(ClaimCatalog.L4_RST, 120, 121, 119).thrpt(ClaimCatalog.L4_RSG, 110, 111, 109)
                .thrpt(ClaimCatalog.L4_IG, 100, 101, 99).thrpt(ClaimCatalog.L7_RST, 60, 60.3, 59.7)
                .thrpt(ClaimCatalog.L7_IG, 50, 50.2, 49.8)
                .thrpt(ClaimCatalog.L7_RSG, 45.5, 46.5, 47.5);
        ClaimResult r = evaluate(RANKING, f);
        CheckResult marginal = r.decisive().get(3);
        assertTrue(marginal.pAgainst() < Region.ALPHA && marginal.pAgainst() > Region.ALPHA / 4,
                () -> "raw p against " + marginal.pAgainst());
        assertEquals(Verdict.REFUTED, marginal.status());
        assertTrue(r.adjustedAgainst()[3] >= Region.ALPHA, () -> "Holm-adjusted " + r.adjustedAgainst()[3]);
        assertEquals(Verdict.INCONCLUSIVE, r.verdict(), r::reason);
    }

    @Test
    void exactCountersGiveAPointIntervalAndACertainVerdict() {
        // 1000 requests per iteration: L7 sends 55 + 1100 bytes per request for 30 + 1100 received.
        Fixtures f = new Fixtures();
        f.result(ClaimCatalog.PC_L7, "avgt", "ns/op").forks(5000, 5100, 4900)
                .secondaryForks("requests", "#", 1000, 1000, 1000)
                .secondaryForks("clientBytesIn", "#", 30_000, 30_000, 30_000)
                .secondaryForks("backendBytesOut", "#", 55_000, 55_000, 55_000)
                .secondaryForks("backendBytesIn", "#", 1_100_000, 1_100_000, 1_100_000)
                .secondaryForks("clientBytesOut", "#", 1_100_000, 1_100_000, 1_100_000).add();
        ClaimResult r = evaluate(ClaimCatalog.byId().get("C000-8"), f);
        assertEquals(Verdict.CONFIRMED, r.verdict(), r::reason);
        CheckResult c = r.decisive().get(0);
        assertEquals(1_155.0 / 1_130.0, c.ratio(), 1e-12);
        assertEquals(c.ratio(), c.lower(), 1e-12);
        assertEquals(c.ratio(), c.upper(), 1e-12);
    }

    @Test
    void aColdStartIsJudgedFromTheSideFilesPerSecondSeries(@TempDir Path dir) throws Exception {
        Fixtures f = new Fixtures();
        f.result(ClaimCatalog.COLD_L7, "ss", "s/op").forks(30, 30, 30)
                .secondaryForks(EndToEndMetrics.WARMUP_ERRORS, "#", 2, 0, 1).add();
        long[] cold = {350, 700, 900, 1000, 1000, 1000, 1010, 990, 1000, 1000};
        long[] colder = {300, 650, 900, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
        long[] coldest = {380, 720, 950, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
        f.side(ClaimCatalog.COLD_L7, 0, cold, Fixtures.distribution(1))
                .side(ClaimCatalog.COLD_L7, 1, colder, Fixtures.distribution(1))
                .side(ClaimCatalog.COLD_L7, 2, coldest, Fixtures.distribution(1));
        ClaimResult r = ClaimResult.evaluate(ClaimCatalog.byId().get("C002-2"), f.measurements(dir));
        assertEquals(Verdict.CONFIRMED, r.verdict(), r::reason);
        assertEquals(Math.cbrt(0.35 * 0.30 * 0.38), r.decisive().get(0).ratio(), 1e-9);
        // Without side files the claim has no data, and says which line produces it.
        ClaimResult none = evaluate(ClaimCatalog.byId().get("C002-2"), f);
        assertEquals(Verdict.MISSING, none.verdict());
        assertTrue(none.decisive().get(0).notes().get(0).contains("side files"), () -> none.decisive().get(0).notes().toString());
    }

    @Test
    void aClaimThisMachineCannotTestStaysNotTestableWithItsEvidenceShown() {
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.NETTY_10K, 9000, 9100, 8900)
                .thrpt(ClaimCatalog.NETTY_100K, 1000, 1010, 990);
        ClaimResult r = evaluate(ClaimCatalog.byId().get("C003-1"), f);
        assertEquals(Verdict.NOT_TESTABLE_HERE, r.verdict());
        assertTrue(r.reason().contains("1 GbE"), r::reason);
        assertEquals(9.0, r.supporting().get(0).ratio(), 0.01);
        assertNull(r.supporting().get(0).status());
    }
}
