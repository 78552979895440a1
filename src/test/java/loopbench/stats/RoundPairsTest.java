package loopbench.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Forks matched by round: rounds on one side only are dropped and counted. */
class RoundPairsTest {

    @Test
    void matchesByRoundNumberNotByPosition() {
        // The candidate's fork of round 2 failed; the baseline lacks round 5. Positions differ, rounds decide.
        RoundPairs p = RoundPairs.match(new int[] {1, 2, 3, 4}, new double[] {10, 20, 30, 40},
                new int[] {4, 1, 3, 5}, new double[] {44, 11, 33, 55});
        assertArrayEquals(new int[] {1, 3, 4}, p.rounds());
        assertArrayEquals(new double[] {10, 30, 40}, p.baseline(), 0);
        assertArrayEquals(new double[] {11, 33, 44}, p.candidate(), 0);
        assertEquals(1, p.baselineOnly());
        assertEquals(1, p.candidateOnly());
        assertEquals(2, p.dropped());
        assertEquals(1.1, p.ratio().ratio(), 1e-12);
    }

    @Test
    void theIntervalIsThePairedTOfTheMatchedRounds() {
        // Log ratios ln(1.02), ln(0.98), ln(1.01): mean m, sd s; t(0.975, 2) = 4.302652729911275.
        RoundPairs p = RoundPairs.match(new int[] {1, 2, 3}, new double[] {100, 100, 100},
                new int[] {3, 2, 1}, new double[] {101, 98, 102});
        double[] logs = {Math.log(1.02), Math.log(0.98), Math.log(1.01)};
        double m = (logs[0] + logs[1] + logs[2]) / 3;
        double ss = 0;
        for (double l : logs) {
            ss += (l - m) * (l - m);
        }
        double se = Math.sqrt(ss / 2) / Math.sqrt(3);
        LogRatio.Interval i = p.ratio().interval(0.95);
        assertEquals(Math.exp(m), i.ratio(), 1e-12);
        assertEquals(Math.exp(m - 4.302652729911275 * se), i.lower(), 1e-9);
        assertEquals(Math.exp(m + 4.302652729911275 * se), i.upper(), 1e-9);
    }

    @Test
    void aRoundTwiceOnOneSideIsAnError() {
        assertThrows(IllegalArgumentException.class, () -> RoundPairs.match(new int[] {1, 1}, new double[] {1, 2},
                new int[] {1}, new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> RoundPairs.match(new int[] {1, 2}, new double[] {1},
                new int[] {1}, new double[] {1}));
    }
}
