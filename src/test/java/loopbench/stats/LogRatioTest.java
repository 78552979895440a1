package loopbench.stats;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogRatioTest {

    @Test
    void pairedIntervalMatchesAHandComputedTInterval() {
        // Log ratios ln(1.02), ln(0.98), ln(1.01), ln(0.99): mean m, sd s; t(0.975, 3) = 3.182446305284263.
        double[] base = {100, 100, 100, 100};
        double[] cand = {102, 98, 101, 99};
        double[] logs = {Math.log(1.02), Math.log(0.98), Math.log(1.01), Math.log(0.99)};
        double m = (logs[0] + logs[1] + logs[2] + logs[3]) / 4;
        double ss = 0;
        for (double l : logs) {
            ss += (l - m) * (l - m);
        }
        double se = Math.sqrt(ss / 3) / 2;
        LogRatio r = LogRatio.paired(base, cand);
        LogRatio.Interval i = r.interval(0.95);
        assertEquals(Math.exp(m), r.ratio(), 1e-12);
        assertEquals(Math.exp(m - 3.182446305284263 * se), i.lower(), 1e-9);
        assertEquals(Math.exp(m + 3.182446305284263 * se), i.upper(), 1e-9);
        assertTrue(i.contains(1.0));
    }

    @Test
    void pairingCancelsDriftThatHitsBothSidesAlike() {
        // The machine's speed drifts by +-30% between rounds; the candidate is always exactly 5% slower.
        double[] drift = {1.0, 1.3, 0.7, 1.1, 0.8, 1.2};
        double[] base = new double[6];
        double[] cand = new double[6];
        for (int i = 0; i < 6; i++) {
            base[i] = 1000 * drift[i];
            cand[i] = 950 * drift[i] * (1 + (i % 2 == 0 ? 0.002 : -0.002));
        }
        LogRatio paired = LogRatio.paired(base, cand);
        assertEquals(0.95, paired.ratio(), 0.001);
        assertTrue(paired.interval(0.95).upper() < 0.96, () -> paired.interval(0.95).toString());
        assertTrue(paired.pValueBelow(0.97) < 0.001);
        // Without pairing, the drift swamps the same 5%.
        LogRatio unpaired = LogRatio.unpaired(cand, base);
        assertTrue(unpaired.interval(0.95).contains(1.0), () -> unpaired.interval(0.95).toString());
    }

    @Test
    void unpairedUsesWelchDegreesOfFreedom() {
        double[] a = {10, 11, 12};
        double[] b = {5, 5.1, 4.9, 5.05};
        LogRatio r = LogRatio.unpaired(a, b);
        double va = variance(logs(a)) / 3;
        double vb = variance(logs(b)) / 4;
        double df = (va + vb) * (va + vb) / (va * va / 2 + vb * vb / 3);
        assertEquals(df, r.degreesOfFreedom(), 1e-9);
        assertEquals(Math.exp(mean(logs(a)) - mean(logs(b))), r.ratio(), 1e-12);
        // Reference: scipy.stats.ttest_ind(log a, log b, equal_var=False).confidence_interval(0.95), exponentiated.
        assertEquals(1.7585833258502748, r.interval(0.95).lower(), 1e-9);
        assertEquals(2.7239921423297493, r.interval(0.95).upper(), 1e-9);
        assertEquals(2.1058128700674983, r.degreesOfFreedom(), 1e-9);
    }

    @Test
    void identicalValuesGiveAPointIntervalAndCertainTests() {
        LogRatio same = LogRatio.paired(new double[] {1488, 1488, 1488}, new double[] {1488, 1488, 1488});
        assertEquals(1.0, same.interval(0.95).lower());
        assertEquals(1.0, same.interval(0.95).upper());
        assertEquals(1.0, same.pValueAbove(1.01));
        LogRatio more = LogRatio.paired(new double[] {1488, 1488, 1488}, new double[] {1504, 1504, 1504});
        assertEquals(0.0, more.pValueAbove(1.005));
        assertEquals(1.0, more.pValueAbove(1.02));
    }

    @Test
    void aSingleForkHasNoInterval() {
        LogRatio one = LogRatio.paired(new double[] {100}, new double[] {90});
        assertFalse(one.hasInterval());
        assertTrue(Double.isNaN(one.interval(0.95).lower()));
        assertTrue(Double.isNaN(one.pValueBelow(0.95)));
        assertEquals(0.9, one.ratio(), 1e-12);
    }

    @Test
    void oneSidedPValuesAreTailsOfTheTDistribution() {
        double[] base = {100, 100, 100, 100, 100};
        double[] cand = {90, 91, 89, 90.5, 89.5};
        LogRatio r = LogRatio.paired(base, cand);
        assertTrue(r.pValueBelow(0.95) < 0.001, "clearly below 0.95");
        assertTrue(r.pValueAbove(0.95) > 0.999, "not above 0.95");
        assertEquals(1.0, r.pValueBelow(0.95) + r.pValueAbove(0.95), 1e-12);
        // At the estimate itself, each side is a coin toss.
        assertEquals(0.5, r.pValueBelow(r.ratio()), 1e-9);
    }

    @Test
    void refusesValuesARatioCannotBeTakenOf() {
        assertThrows(IllegalArgumentException.class, () -> LogRatio.paired(new double[] {0, 1}, new double[] {1, 1}));
        assertThrows(IllegalArgumentException.class, () -> LogRatio.unpaired(new double[] {1}, new double[] {}));
        assertThrows(IllegalArgumentException.class, () -> LogRatio.paired(new double[] {1, 2}, new double[] {1}));
    }

    @Test
    void holmAdjustsStepDownAndKeepsOrder() {
        // m = 4: sorted p 0.01, 0.02, 0.03, 0.5 -> 0.04, max(0.04, 0.06), max(0.06, 0.06), max(0.06, 0.5).
        double[] adjusted = Holm.adjust(new double[] {0.03, 0.5, 0.01, 0.02});
        assertArrayEquals(new double[] {0.06, 0.5, 0.04, 0.06}, adjusted, 1e-12);
        double[] withNaN = Holm.adjust(new double[] {Double.NaN, 0.01, 0.04});
        assertTrue(Double.isNaN(withNaN[0]));
        assertArrayEquals(new double[] {0.02, 0.04}, new double[] {withNaN[1], withNaN[2]}, 1e-12);
        assertEquals(1.0, Holm.adjust(new double[] {0.6, 0.7})[1], 1e-12);
    }

    private static double[] logs(double[] v) {
        double[] l = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            l[i] = Math.log(v[i]);
        }
        return l;
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }

    private static double variance(double[] v) {
        double m = mean(v);
        double s = 0;
        for (double x : v) {
            s += (x - m) * (x - m);
        }
        return s / (v.length - 1);
    }
}
