package loopbench.claims;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The proxy article's claims (C000-1 .. C000-6) and N-1's steady load are decided side by side from
 * {@link ClaimCatalog#SIDE_BY_SIDE_REVISED} on: a run made after it is judged on the arms of side-by-side-64, one
 * ratio per fork against 1; a run made before on the forks of proxy-64, direct-64 and allocators-64 paired by round,
 * as it was when it was made; results of plain JMH runs (no run id) by today's rule.
 */
class SideBySideRuleTest {
    private static final String AFTER = "20261127T020000Z-fxtr";

    /** side-by-side-64 with L7's proxy CPU 1.3x L4's, L4's requests/s 0.8x direct's, the rest as {@code scale}. */
    private static Fixtures sideBySide(String run) {
        return new Fixtures().sideBySide(ClaimCatalog.SIDE_BY_SIDE, run, 4, arm -> switch (arm) {
            case ClaimCatalog.ARM_DIRECT -> 1.0;
            case ClaimCatalog.ARM_L4_RST -> 1.25;
            case ClaimCatalog.ARM_L7_RST -> 1.25 * 1.3;
            default -> 1.25 * 1.3 * 1.1;
        });
    }

    private static ClaimResult evaluate(String claim, Fixtures f) {
        return ClaimResult.evaluate(ClaimCatalog.byId().get(claim), Measurements.of(f.results(), List.of()));
    }

    @Test
    void aRunAfterTheRevisionIsJudgedOnTheArmsOfOneFork() {
        ClaimResult l7 = evaluate("C000-2", sideBySide(AFTER));
        assertEquals(Verdict.CONFIRMED, l7.verdict(), l7::reason);
        CheckResult c = l7.decisive().get(0);
        assertEquals("proxy CPU per request, L7 / L4, side by side", c.check().label());
        assertEquals(1.3, c.ratio(), 1e-9, "the same ratio in every cycle of every fork");
        assertEquals(Check.Basis.Method.ONE_SAMPLE, c.basis().method());
        assertEquals(4, c.basis().n(), "one value per fork (round)");
        ClaimResult l4 = evaluate("C000-1", sideBySide(AFTER));
        assertEquals(Verdict.REFUTED, l4.verdict(), l4::reason); // requests/s L4 / direct = 0.8, claimed > 0.90
        assertEquals(0.8, l4.decisive().get(0).ratio(), 1e-9);
    }

    @Test
    void aRunBeforeTheRevisionIsJudgedByTheRuleItRanUnder() {
        ClaimResult r = evaluate("C000-2", sideBySide(Fixtures.RUN));
        assertEquals(Verdict.MISSING, r.verdict(), r::reason);
        assertEquals("proxy CPU per request, L7 / L4", r.decisive().get(0).check().label());
        assertTrue(r.reason().contains("`proxy-64`"), r::reason);
        Claim today = ClaimCatalog.byId().get("C000-2");
        assertSame(today, today.asJudged(AFTER));
        assertSame(today, today.asJudged(null), "no run id: today's rule");
        assertEquals(today.earlier().decisive(), today.asJudged(Fixtures.RUN).decisive());
        assertEquals(today.earlier().charts(), today.asJudged(Fixtures.RUN).charts());
    }

    @Test
    void everyRevisedClaimReadsOnlyTheSideBySideLineForItsEndToEndChecksToday() {
        for (String id : List.of("C000-1", "C000-2", "C000-3", "C000-4", "C000-5", "C000-6", "N-1")) {
            Claim c = ClaimCatalog.byId().get(id);
            assertTrue(c.earlier() != null && c.earlier().revisedAt().equals(ClaimCatalog.SIDE_BY_SIDE_REVISED), id);
            for (Group g : c.groups()) {
                assertTrue(!ClaimCatalog.RETIRED.contains(g), id + " reads the retired line " + g.label());
            }
            assertTrue(c.decisiveGroups().contains(ClaimCatalog.SIDE_BY_SIDE_64), id);
        }
    }
}
