package loopbench.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Region kinds and equivalence margins on ratios with known intervals. */
class RegionTest {
    /** Four paired log ratios ln(r) +- 1%: a narrow interval around r. */
    private static LogRatio around(double r) {
        double[] base = {100, 100, 100, 100};
        double[] cand = {100 * r * 1.01, 100 * r * 0.99, 100 * r * 1.005, 100 * r * 0.995};
        return LogRatio.paired(base, cand);
    }

    @Test
    void aboveAndBelowReadOffTheInterval() {
        assertTrue(Region.above(1.02).pFor(around(1.10)) < Region.ALPHA);
        assertTrue(Region.above(1.02).pAgainst(around(0.95)) < Region.ALPHA);
        assertTrue(Region.below(0.9).pFor(around(0.5)) < Region.ALPHA);
        LogRatio straddling = around(1.02);
        assertTrue(Region.above(1.02).pFor(straddling) > Region.ALPHA
                && Region.above(1.02).pAgainst(straddling) > Region.ALPHA);
    }

    @Test
    void withinIsTwoOneSidedTests() {
        Region r = Region.within(0.8, 1.25);
        assertTrue(r.pFor(around(1.0)) < Region.ALPHA, "inside both boundaries");
        assertTrue(r.pAgainst(around(1.0)) > 0.5);
        assertTrue(r.pAgainst(around(2.0)) < Region.ALPHA, "wholly above the upper one");
        assertTrue(r.pAgainst(around(0.5)) < Region.ALPHA, "wholly below the lower one");
        LogRatio atTheEdge = around(1.25);
        assertTrue(r.pFor(atTheEdge) > Region.ALPHA && r.pAgainst(atTheEdge) > Region.ALPHA, "straddles 1.25");
        assertEquals("within [0.8, 1.25]", r.describe(Double::toString));
        assertEquals(2, r.boundaries().size());
        assertThrows(IllegalArgumentException.class, () -> Region.within(1.2, 1.1));
        assertThrows(IllegalArgumentException.class, () -> Region.above(0));
    }

    @Test
    void aMarginIsSymmetricInLogsAndSaysWhichSideAnIntervalLiesBeyond() {
        Margin m = Margin.percent(2);
        assertEquals(1 / 1.02, m.lower(), 1e-15);
        assertEquals(1.02, m.upper(), 1e-15);
        assertEquals("\u00b12%", m.describe());
        assertEquals("no effect beyond \u00b11%", Margin.percent(1).noEffect());
        assertTrue(m.contains(0.985, 1.015));
        assertTrue(!m.contains(0.975, 1.015), "leaves the margin below");
        assertEquals(Margin.Side.ABOVE, m.beyond(1.03, 1.10));
        assertEquals(Margin.Side.BELOW, m.beyond(0.90, 0.97));
        assertNull(m.beyond(0.99, 1.03), "straddles the upper edge");
        assertNull(m.beyond(Double.NaN, Double.NaN), "no interval, no decision");
    }
}
