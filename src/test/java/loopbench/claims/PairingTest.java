package loopbench.claims;

import loopbench.report.JmhResult;
import loopbench.stats.Region;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a check pairs its forks: by round when both configurations ran in the rounds engine (rounds on one side only
 * dropped and counted), Welch otherwise, with known answers.
 */
class PairingTest {
    private static final Group G = Group.of("g", 4);
    private static final Selection A = Selection.of("a", "X.m", G, "k", "a");
    private static final Selection B = Selection.of("b", "X.m", G, "k", "b");
    private static final Check A_OVER_B = Check.ratio("a / b", ClaimCatalog.THROUGHPUT, A, B, Region.above(1.02),
            null);

    private static CheckResult evaluate(Fixtures f) {
        return A_OVER_B.evaluate(Measurements.of(f.results(), List.of()));
    }

    @Test
    void driftBetweenRoundsCancelsInThePairs() {
        // The machine's speed swings +-30% from round to round; a is 5% faster than b in every round.
        double[] drift = {1.0, 1.3, 0.7, 1.1};
        double[] a = new double[4];
        double[] b = new double[4];
        for (int i = 0; i < 4; i++) {
            a[i] = 1050 * drift[i] * (i % 2 == 0 ? 1.002 : 0.998);
            b[i] = 1000 * drift[i];
        }
        Fixtures f = new Fixtures();
        f.result(A, "thrpt", "ops/s").forks(a).inRounds(1, 2, 3, 4).add();
        f.result(B, "thrpt", "ops/s").forks(b).inRounds(1, 2, 3, 4).add();
        CheckResult r = evaluate(f);
        assertEquals(Check.Basis.Method.PAIRED, r.basis().method());
        assertEquals("paired t on per-round log ratios, 4 pairs", r.basisText());
        assertEquals(Verdict.CONFIRMED, r.status(), r::effect);
        assertTrue(r.lower() > 1.03 && r.upper() < 1.07, r::effect);
        // The same forks without rounds: Welch, and the drift swamps the 5%.
        Fixtures unpaired = new Fixtures().thrpt(A, a).thrpt(B, b);
        CheckResult w = evaluate(unpaired);
        assertEquals(Check.Basis.Method.WELCH, w.basis().method());
        assertEquals(Verdict.INCONCLUSIVE, w.status(), w::effect);
    }

    @Test
    void roundsOnOneSideOnlyAreDroppedAndTheReportSaysHowMany() {
        // a lacks round 3 (a failed fork), b lacks round 5; the pairs are rounds 1, 2, 4.
        Fixtures f = new Fixtures();
        f.result(A, "thrpt", "ops/s").forks(102, 98, 101, 110).inRounds(1, 2, 4, 5).add();
        f.result(B, "thrpt", "ops/s").forks(100, 100, 777, 100).inRounds(1, 2, 3, 4).add();
        CheckResult r = evaluate(f);
        assertEquals(3, r.basis().n());
        assertEquals(2, r.basis().dropped());
        assertEquals("paired t on per-round log ratios, 3 pairs (2 rounds on one side only dropped)", r.basisText());
        double[] logs = {Math.log(1.02), Math.log(0.98), Math.log(1.01)};
        double m = (logs[0] + logs[1] + logs[2]) / 3;
        double ss = 0;
        for (double l : logs) {
            ss += (l - m) * (l - m);
        }
        double sd = Math.sqrt(ss / 2);
        double half = 4.302652729911275 * sd / Math.sqrt(3);
        assertEquals(Math.exp(m), r.ratio(), 1e-12);
        assertEquals(Math.exp(m - half), r.lower(), 1e-9);
        assertEquals(Math.exp(m + half), r.upper(), 1e-9);
        assertEquals(sd, r.basis().sdLog(), 1e-12, "the noise a power calculation needs");
        assertEquals("3 of 4 rounds", r.provisional(), "fewer pairs than the group's rounds");
    }

    @Test
    void oneSideWithoutRoundsFallsBackToWelch() {
        Fixtures f = new Fixtures();
        f.result(A, "thrpt", "ops/s").forks(102, 98, 101).inRounds(1, 2, 3).add();
        f.thrpt(B, 100, 101, 99);
        assertEquals("Welch t on logs, 3 vs 3 forks", evaluate(f).basisText());
    }

    @Test
    void noRoundInCommonGivesNoIntervalAndSaysWhy() {
        Fixtures f = new Fixtures();
        f.result(A, "thrpt", "ops/s").forks(102, 98).inRounds(1, 2).add();
        f.result(B, "thrpt", "ops/s").forks(100, 100).inRounds(3, 4).add();
        CheckResult r = evaluate(f);
        assertEquals(Verdict.INCONCLUSIVE, r.status());
        assertTrue(r.notes().get(0).contains("no round in common"), r.notes()::toString);
    }

    @Test
    void theSameConfigurationInTwoGroupsIsReadFromTheSelectionsOwnGroup() {
        Group other = Group.of("other", 3);
        Fixtures f = new Fixtures();
        f.result(A, "thrpt", "ops/s").forks(200, 200, 200).rounds(Fixtures.RUN, "other", "a", 1, 2, 3).add();
        f.result(A, "thrpt", "ops/s").forks(102, 98, 101).inRounds(1, 2, 3).add();
        f.result(B, "thrpt", "ops/s").forks(100, 100, 100).inRounds(1, 2, 3).add();
        assertEquals(Math.cbrt(1.02 * 0.98 * 1.01), evaluate(f).ratio(), 1e-12, "group g's a, not group other's");
        assertEquals(200, A.in(other).matchesIn(Measurements.of(f.results(), List.of()).results()).get(0)
                .primary().score(), 1e-9);
    }

    @Test
    void aSelectionWhoseGroupDidNotRunReadsNoOtherGroupsForks() {
        Group other = Group.of("other", 3);
        Fixtures f = new Fixtures();
        f.result(A, "thrpt", "ops/s").forks(200, 200, 200).rounds(Fixtures.RUN, "other", "a", 1, 2, 3).add();
        List<JmhResult> results = Measurements.of(f.results(), List.of()).results();
        assertTrue(A.matchesIn(results).isEmpty(), "group g did not run: group other's forks are not its");
        assertEquals(1, A.in(other).matchesIn(results).size());
    }

    @Test
    void aFollowUpLineUnderItsOwnLabelIsReadAsItsGroup() {
        ClaimCatalog.FOLLOW_UP_LABELS.forEach((followUp, label) -> {
            Group group = Group.of(label, 8);
            Fixtures f = new Fixtures();
            f.result(A, "thrpt", "ops/s").forks(200, 200, 200).rounds(Fixtures.RUN, followUp, "a", 1, 2, 3).add();
            f.result(A, "thrpt", "ops/s").forks(100, 100, 100).rounds(Fixtures.RUN, followUp + "-x", "a", 1, 2, 3)
                    .add();
            List<JmhResult> results = Measurements.of(f.results(), List.of()).results();
            List<JmhResult> read = A.in(group).matchesIn(results);
            assertEquals(1, read.size(), followUp + " is " + label + " run again; no other label is");
            assertEquals(200, read.get(0).primary().score(), 1e-9);
        });
    }
}
