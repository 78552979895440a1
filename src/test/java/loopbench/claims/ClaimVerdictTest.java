package loopbench.claims;

import loopbench.report.EndToEndMetrics;
import loopbench.stats.Region;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The verdict rules on small JMH results: each outcome, composite claims, exact counters, side files. */
class ClaimVerdictTest {
    /** As judged for runs before the side-by-side revision (the fixtures' forks of proxy-64 and direct-64). */
    private static final Claim L4_VS_DIRECT = ClaimCatalog.byId().get("C000-1").asJudged(Fixtures.RUN);
    private static final Claim RANKING = ClaimCatalog.byId().get("C000-3").asJudged(Fixtures.RUN);

    private static ClaimResult evaluate(Claim c, Fixtures f) {
        return ClaimResult.evaluate(c, Measurements.of(f.results(), List.of()));
    }

    /** L4 / direct = 0.96 over three forks each, well inside C000-1's claimed region (> 0.90). */
    private static Fixtures l4AtNinetySixPercentOfDirect() {
        return new Fixtures().thrpt(ClaimCatalog.DIRECT, 100_000, 99_000, 101_000)
                .thrpt(ClaimCatalog.L4_RST, 96_000, 95_500, 96_500);
    }

    @Test
    void aClearEffectInsideTheRegionIsConfirmed() {
        // L4 / direct = 0.96, claimed > 0.90.
        Fixtures f = l4AtNinetySixPercentOfDirect();
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
        assertTrue(r.reason().startsWith("inside the noise") && r.reason().contains("straddles 0.900"), r::reason);
        assertNull(RoundsPlan.decider(c), "forks outside rounds (Welch): no rounds to size");
    }

    @Test
    void anUndecidedPairedCheckSaysHowManyRoundsWouldDecideIt() {
        Fixtures f = new Fixtures();
        f.result(ClaimCatalog.DIRECT, "thrpt", "ops/s").forks(100_000, 80_000, 120_000).inRounds(1, 2, 3).add();
        f.result(ClaimCatalog.L4_RST, "thrpt", "ops/s").forks(60_000, 95_000, 75_000).inRounds(1, 2, 3).add();
        ClaimResult r = evaluate(L4_VS_DIRECT, f);
        assertEquals(Verdict.INCONCLUSIVE, r.verdict(), r::reason);
        CheckResult c = r.decisive().get(0);
        // At this run's own estimate and noise, against the boundary it straddles.
        RoundsPlan.Decider d = RoundsPlan.decider(c);
        assertEquals(0.9, d.nearest(), 1e-12);
        assertEquals(c.basis().sdLog(), d.sd(), 1e-12);
        assertEquals(3, d.had());
        assertEquals(RoundsPlan.rounds(c.basis().sdLog(), Math.abs(Math.log(c.ratio() / 0.9))), d.needed());
        assertTrue(d.needed() > 3, "more than it had: " + d.needed());
        assertTrue(r.reason().contains("about " + d.needed() + " rounds would decide it") && r.reason()
                .contains("it had 3"), r::reason);
    }

    @Test
    void aDecidedCheckNeedsNoMoreRounds() {
        Fixtures f = l4AtNinetySixPercentOfDirect();
        ClaimResult r = evaluate(L4_VS_DIRECT, f);
        assertEquals(Verdict.CONFIRMED, r.verdict(), r::reason);
        assertNull(RoundsPlan.decider(r.decisive().get(0)));
        assertTrue(!r.reason().contains("would decide"), r::reason);
    }

    @Test
    void aMissingResultNamesTheLabelledProfileLineThatProducesIt() {
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.DIRECT, 100_000, 99_000, 101_000);
        ClaimResult r = evaluate(L4_VS_DIRECT, f);
        assertEquals(Verdict.MISSING, r.verdict());
        assertTrue(r.reason().contains("the line labelled `proxy-64` of profiles/claims.jmh"), r::reason);
        assertTrue(r.missingGroups().contains(ClaimCatalog.PROXY_64), r.missingGroups()::toString);
        assertTrue(r.reason().contains("layer=4") && r.reason().contains("placement=pinned"), r::reason);
    }

    @Test
    void aResultMeasuredWithAnotherPlacementIsNotTheOneAClaimAsksFor() {
        // The 2026-11-23 results had no placement: they do not stand in for pinned ones.
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.DIRECT.with("direct", ClaimCatalog.PLACEMENT, "shared"),
                        100_000, 99_000, 101_000)
                .thrpt(ClaimCatalog.L4_RST, 96_000, 95_500, 96_500);
        assertEquals(Verdict.MISSING, evaluate(L4_VS_DIRECT, f).verdict());
    }

    @Test
    void oneForkGivesNoIntervalAndNoVerdict() {
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.DIRECT, 100_000).thrpt(ClaimCatalog.L4_RST, 50_000);
        ClaimResult r = evaluate(L4_VS_DIRECT, f);
        assertEquals(Verdict.INCONCLUSIVE, r.verdict(), r::reason);
        assertTrue(r.reason().contains("at least 2 rounds"), r::reason);
    }

    private static Fixtures ranking(double l4Rst, double l4Rsg, double l4Ig, double l7Rst, double l7Rsg, double l7Ig) {
        Fixtures f = new Fixtures();
        double[] cfg = {l4Rst, l4Rsg, l4Ig, l7Rst, l7Rsg, l7Ig};
        List<Selection> s = List.of(ClaimCatalog.L4_RST, ClaimCatalog.L4_RSG, ClaimCatalog.L4_IG, ClaimCatalog.L7_RST,
                ClaimCatalog.L7_RSG, ClaimCatalog.L7_IG);
        for (int i = 0; i < 6; i++) {
            double v = cfg[i];
            f.thrpt(s.get(i), v, v * 1.005, v * 0.995);
        }
        return f;
    }

    @Test
    void aRankingIsConfirmedOnlyWhenEveryPairIsBeyondTheMargin() {
        assertEquals(Verdict.CONFIRMED, evaluate(RANKING, ranking(120, 110, 100, 60, 55, 50)).verdict());
        // One pair reversed (L7: reuse-server-group below individual-group): refuted, and the reason names it.
        ClaimResult reversed = evaluate(RANKING, ranking(120, 110, 100, 60, 45, 50));
        assertEquals(Verdict.REFUTED, reversed.verdict(), reversed::reason);
        assertTrue(reversed.reason().contains("L7 requests/s, reuse-server-group / individual-group"),
                reversed::reason);
        assertTrue(reversed.reason().contains("outside the claimed region > 1.020"), reversed::reason);
    }

    @Test
    void aTieWithinTheMarginIsADecisiveNoDifference() {
        // L4 reuse-server-group = individual-group, +-0.5% per fork: the interval lies within [1/1.02, 1.02].
        ClaimResult tie = evaluate(RANKING, ranking(120, 100, 100, 60, 55, 50));
        assertEquals(Verdict.REFUTED, tie.verdict(), tie::reason);
        CheckResult c = tie.decisive().get(1);
        assertEquals("no effect beyond \u00b12%", c.equivalence(), c::effect);
        assertTrue(c.effect().endsWith(": no effect beyond \u00b12%"), c::effect);
        assertTrue(tie.reason().contains("no effect beyond \u00b12%, against the claimed > 1.020"), tie::reason);
        assertNull(tie.decisive().get(0).equivalence(), "a clear effect is no equivalence");
    }

    @Test
    void anIntervalAcrossTheBoundaryStaysInconclusive() {
        // L4 reuse-server-group / individual-group around 1.02 with +-3% per fork: the interval contains 1.02.
        Fixtures g = new Fixtures().thrpt(ClaimCatalog.L4_RST, 130, 130.6, 129.4)
                .thrpt(ClaimCatalog.L4_RSG, 110, 113, 107)
                .thrpt(ClaimCatalog.L4_IG, 108, 105, 111).thrpt(ClaimCatalog.L7_RST, 60, 60.3, 59.7)
                .thrpt(ClaimCatalog.L7_RSG, 55, 55.3, 54.7).thrpt(ClaimCatalog.L7_IG, 50, 50.2, 49.8);
        ClaimResult r = evaluate(RANKING, g);
        assertEquals(Verdict.INCONCLUSIVE, r.verdict(), r::reason);
        CheckResult open = r.decisive().get(1);
        assertTrue(open.lower() < 1.02 && open.upper() > 1.02, open::effect);
        assertNull(open.equivalence(), "an interval that leaves the margin is no equivalence");
    }

    @Test
    void holmKeepsOneMarginalContradictionAmongManyFromRefuting() {
        // Four checks, each claimed above 1; one is reversed with a raw one-sided p between 0.025/4 and 0.025: alone
        // it would refute, Holm-adjusted over four it does not.
        Group g = Group.of("g", 3);
        Selection[] s = new Selection[8];
        for (int i = 0; i < 8; i++) {
            s[i] = Selection.of("s" + i, "X.m", g, "k", Integer.toString(i));
        }
        Claim four = Claim.builder("T-1", "four checks").claim("").article(ClaimCatalog.PROXY_ARTICLE, "")
                .experiment("").why("").placement("").boundary("")
                .decisive(Check.ratio("a", ClaimCatalog.THROUGHPUT, s[0], s[1], Region.above(1), null),
                        Check.ratio("b", ClaimCatalog.THROUGHPUT, s[2], s[3], Region.above(1), null),
                        Check.ratio("c", ClaimCatalog.THROUGHPUT, s[4], s[5], Region.above(1), null),
                        Check.ratio("d", ClaimCatalog.THROUGHPUT, s[6], s[7], Region.above(1), null))
                .build();
        Fixtures f = new Fixtures().thrpt(s[0], 120, 121, 119).thrpt(s[1], 110, 111, 109)
                .thrpt(s[2], 110, 111, 109).thrpt(s[3], 100, 101, 99)
                .thrpt(s[4], 60, 60.3, 59.7).thrpt(s[5], 50, 50.2, 49.8)
                .thrpt(s[6], 45.5, 46.5, 47.5).thrpt(s[7], 50, 50.2, 49.8);
        ClaimResult r = evaluate(four, f);
        CheckResult marginal = r.decisive().get(3);
        assertTrue(marginal.pAgainst() < Region.ALPHA && marginal.pAgainst() > Region.ALPHA / 4,
                () -> "raw p against " + marginal.pAgainst());
        assertEquals(Verdict.REFUTED, marginal.status());
        assertTrue(r.adjustedAgainst()[3] >= Region.ALPHA, () -> "Holm-adjusted " + r.adjustedAgainst()[3]);
        assertEquals(Verdict.INCONCLUSIVE, r.verdict(), r::reason);
        assertTrue(r.reason().contains("d: ") && r.reason().contains("lies outside > 1.000 at its own 95% level, not "
                + "after Holm's correction over 4 checks"), r::reason);
        assertTrue(!r.reason().contains("d: " + marginal.effect() + " straddles"), r::reason);
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
        assertTrue(none.decisive().get(0).notes().get(0).contains("side files"),
                () -> none.decisive().get(0).notes().toString());
    }

    @Test
    void withoutTheShapedLinkTheEchoClaimIsNotTestableHereWithItsReason() {
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.NETTY_5K, 9000, 9100, 8900);
        ClaimResult r = evaluate(ClaimCatalog.byId().get("C003-1"), f);
        assertEquals(Verdict.NOT_TESTABLE_HERE, r.verdict());
        assertTrue(r.reason().contains("1 Gbit/s") && r.reason().contains("`echo-netns`"), r::reason);
        assertNull(r.provisional());
    }

    /** Echo over the 1 Gbit/s link: MiB/s at 5 KiB and 100 KiB, 4 rounds each. */
    private static Fixtures overLink(double mib5k, double mib100k) {
        Fixtures f = new Fixtures();
        f.result(ClaimCatalog.LINK_5K, "thrpt", "ops/s").forks(20_000, 20_100, 19_900, 20_000)
                .secondaryForks(EndToEndMetrics.ECHO_MIB_PER_SECOND, "MiB/s", mib5k, mib5k * 1.01, mib5k * 0.99,
                        mib5k).inRounds(1, 2, 3, 4).add();
        f.result(ClaimCatalog.LINK_100K, "thrpt", "ops/s").forks(1_000, 1_010, 990, 1_000)
                .secondaryForks(EndToEndMetrics.ECHO_MIB_PER_SECOND, "MiB/s", mib100k, mib100k * 1.01,
                        mib100k * 0.99, mib100k).inRounds(1, 2, 3, 4).add();
        return f;
    }

    @Test
    void overAShapedLinkTheEchoClaimIsJudgedWithARegionWithinTwoBoundaries() {
        Claim c = ClaimCatalog.byId().get("C003-1");
        // Saturated: the same MiB/s at both sizes, 93% of the link.
        ClaimResult saturated = evaluate(c, overLink(110, 111));
        assertEquals(Verdict.CONFIRMED, saturated.verdict(), saturated::reason);
        assertEquals("within [0.800, 1.250]", saturated.decisive().get(0).check().region().describe(Format::ratio));
        // Not saturated at 5 KiB: 100 KiB moves twice the bytes, outside [0.8, 1.25].
        ClaimResult cpuBound = evaluate(c, overLink(55, 111));
        assertEquals(Verdict.REFUTED, cpuBound.verdict(), cpuBound::reason);
        assertTrue(cpuBound.reason().contains("outside the claimed region within [0.800, 1.250]"),
                cpuBound::reason);
    }
}
