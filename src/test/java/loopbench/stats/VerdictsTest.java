package loopbench.stats;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The gate's decision rule on synthetic fork data whose answer is known. */
class VerdictsTest {
    private static final int ROUNDS = 8;

    /** Paired rounds: a shared drift per round (hits both sides), then each fork's own noise. */
    private static LogRatio pairedRounds(Random random, double trueRatio, double forkSd, double driftSd) {
        double[] base = new double[ROUNDS];
        double[] cand = new double[ROUNDS];
        for (int i = 0; i < ROUNDS; i++) {
            double drift = Math.exp(random.nextGaussian() * driftSd);
            base[i] = 1000 * drift * Math.exp(random.nextGaussian() * forkSd);
            cand[i] = 1000 * trueRatio * drift * Math.exp(random.nextGaussian() * forkSd);
        }
        return LogRatio.paired(base, cand);
    }

    private static Verdicts.Verdict alone(LogRatio ratio, boolean higherIsBetter, double threshold) {
        return Verdicts.judge(List.of(new Verdicts.Change(ratio, higherIsBetter, threshold))).get(0).verdict();
    }

    @Test
    void identicalDistributionsPass() {
        Random random = new Random(1);
        for (int run = 0; run < 50; run++) {
            assertEquals(Verdicts.Verdict.PASS, alone(pairedRounds(random, 1.0, 0.01, 0.2), true, 2));
        }
    }

    @Test
    void aKnownFivePercentSlowdownIsARegressionDespiteDrift() {
        Random random = new Random(2);
        for (int run = 0; run < 50; run++) {
            LogRatio r = pairedRounds(random, 0.95, 0.005, 0.3);
            assertEquals(Verdicts.Verdict.REGRESSION, alone(r, true, 2), () -> r.interval(0.95).toString());
        }
    }

    @Test
    void aRealShiftInsideTheThresholdPasses() {
        // -1% for certain (tiny noise: the interval excludes 1), but the threshold is 3%.
        Random random = new Random(3);
        LogRatio r = pairedRounds(random, 0.99, 0.001, 0.1);
        assertTrue(r.interval(0.95).upper() < 1, r.interval(0.95)::toString);
        assertEquals(Verdicts.Verdict.PASS, alone(r, true, 3));
    }

    @Test
    void directionComesFromWhetherHigherIsBetter() {
        Random random = new Random(4);
        LogRatio lower = pairedRounds(random, 0.9, 0.002, 0.1);
        LogRatio higher = pairedRounds(random, 1.1, 0.002, 0.1);
        // throughput: lower is worse, higher is better
        assertEquals(Verdicts.Verdict.REGRESSION, alone(lower, true, 2));
        assertEquals(Verdicts.Verdict.IMPROVEMENT, alone(higher, true, 2));
        // time or bytes per op: higher is worse, lower is better
        assertEquals(Verdicts.Verdict.REGRESSION, alone(higher, false, 2));
        assertEquals(Verdicts.Verdict.IMPROVEMENT, alone(lower, false, 2));
    }

    @Test
    void aRegressionNeedsTheWholeIntervalBeyondTheThreshold() {
        // Observed -5%, but noisy: the 95% interval reaches above -2%.
        LogRatio r = LogRatio.paired(new double[] {100, 100, 100}, new double[] {90, 96, 99.5});
        assertTrue(r.interval(0.95).upper() > 0.98, r.interval(0.95)::toString);
        assertEquals(Verdicts.Verdict.PASS, alone(r, true, 2));
    }

    @Test
    void oneForkPerSideGivesNoVerdict() {
        LogRatio r = LogRatio.paired(new double[] {100}, new double[] {50});
        assertEquals(Verdicts.Verdict.NO_VERDICT, alone(r, true, 2));
    }

    @Test
    void holmKeepsAFamilyOfManyBenchmarksFromCryingWolf() {
        // Threshold 0 and no true change: every benchmark sits exactly at its limit, the worst case for false
        // alarms. 20 benchmarks per gate, 400 gates.
        Random random = new Random(5);
        int gates = 400;
        int corrected = 0;
        int uncorrected = 0;
        for (int g = 0; g < gates; g++) {
            List<Verdicts.Change> changes = new ArrayList<>();
            boolean anyAlone = false;
            for (int b = 0; b < 20; b++) {
                LogRatio r = pairedRounds(random, 1.0, 0.02, 0.2);
                Verdicts.Change c = new Verdicts.Change(r, b % 2 == 0, 0);
                changes.add(c);
                anyAlone |= Verdicts.judge(List.of(c)).get(0).verdict() == Verdicts.Verdict.REGRESSION;
            }
            if (Verdicts.judge(changes).stream().anyMatch(j -> j.verdict() == Verdicts.Verdict.REGRESSION)) {
                corrected++;
            }
            if (anyAlone) {
                uncorrected++;
            }
        }
        // Family-wise 2.5%: ~10 of 400 expected at most; without the correction, 1 - 0.975^20 = 40% of gates.
        assertTrue(corrected <= 20, "gates with a false alarm, corrected: " + corrected);
        assertTrue(uncorrected > 120, "gates with a false alarm, uncorrected: " + uncorrected);
    }

    @Test
    void holmStillFindsTheRealRegressionAmongMany() {
        Random random = new Random(6);
        List<Verdicts.Change> changes = new ArrayList<>();
        for (int b = 0; b < 20; b++) {
            changes.add(new Verdicts.Change(pairedRounds(random, b == 7 ? 0.95 : 1.0, 0.005, 0.2), true, 2));
        }
        List<Verdicts.Judgement> judged = Verdicts.judge(changes);
        for (int b = 0; b < 20; b++) {
            assertEquals(b == 7 ? Verdicts.Verdict.REGRESSION : Verdicts.Verdict.PASS, judged.get(b).verdict(),
                    "benchmark " + b);
        }
        assertTrue(judged.get(7).pWorseHolm() >= judged.get(7).pWorse(), "Holm only raises p-values");
    }

    @Test
    void aBorderlineChangeAloneIsARegressionButNotInALargeFamily() {
        // One-sided p ~ 0.01 against the 2% threshold: below 0.025 alone, far above 0.025/20 in a family of 20.
        double[] base = {100, 100, 100, 100, 100, 100};
        double[] cand = {96.5, 97.6, 96.0, 97.0, 96.2, 97.2};
        Verdicts.Change borderline = new Verdicts.Change(LogRatio.paired(base, cand), true, 2);
        double p = Verdicts.judge(List.of(borderline)).get(0).pWorse();
        assertTrue(p < Verdicts.FAMILY_ALPHA && p > Verdicts.FAMILY_ALPHA / 20, "p = " + p);
        assertEquals(Verdicts.Verdict.REGRESSION, Verdicts.judge(List.of(borderline)).get(0).verdict());
        List<Verdicts.Change> family = new ArrayList<>();
        family.add(borderline);
        for (int i = 0; i < 19; i++) {
            family.add(new Verdicts.Change(LogRatio.paired(base, base.clone()), true, 2));
        }
        assertEquals(Verdicts.Verdict.PASS, Verdicts.judge(family).get(0).verdict());
    }
}
