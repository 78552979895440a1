package loopbench.claims;

import loopbench.stats.Region;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The intervals the report prints, against values computed elsewhere (scipy, by hand). */
class CheckIntervalTest {
    private static final Group G = Group.of("g", 3);
    private static final Selection A = Selection.of("a", "X.m", G, "k", "a");
    private static final Selection B = Selection.of("b", "X.m", G, "k", "b");

    @Test
    void aRatioOfTwoConfigurationsIsWelchOnTheLogsOfTheForkMeans() {
        // Fork means 10, 11, 12 vs 5, 5.1, 4.9, 5.05 (each fork's two iterations straddle its mean).
        Fixtures f = new Fixtures();
        f.result(A, "thrpt", "ops/s").primary(new double[][] {{9, 11}, {10, 12}, {11.5, 12.5}}).add();
        f.result(B, "thrpt", "ops/s").primary(new double[][] {{5, 5}, {5.1, 5.1}, {4.8, 5.0}, {5.05, 5.05}}).add();
        CheckResult r = Check.ratio("a / b", Statistic.primary("x"), A, B, Region.above(1), null)
                .evaluate(Measurements.of(f.results(), List.of()));
        // scipy.stats.ttest_ind(log a, log b, equal_var=False).confidence_interval(0.95), exponentiated
        assertEquals(1.7585833258502748, r.lower(), 1e-9);
        assertEquals(2.7239921423297493, r.upper(), 1e-9);
        assertArrayEquals(new double[] {10, 11, 12}, r.numeratorForks().values(), 1e-12);
        assertEquals("Welch t on logs, 3 vs 4 forks", r.basisText(), "forks outside rounds pair with nothing");
        assertEquals(Verdict.CONFIRMED, r.status());
    }

    @Test
    void aRatioAgainstAConstantIsAOneSampleTIntervalOnTheLogs() {
        Fixtures f = new Fixtures().thrpt(A, 102, 98, 101, 99);
        CheckResult r = Check.againstConstant("a / 100", Statistic.primary("x"), A, 100, "a hundred", Region.below(1.1),
                null)
                .evaluate(Measurements.of(f.results(), List.of()));
        double[] logs = {Math.log(1.02), Math.log(0.98), Math.log(1.01), Math.log(0.99)};
        double m = (logs[0] + logs[1] + logs[2] + logs[3]) / 4;
        double ss = 0;
        for (double l : logs) {
            ss += (l - m) * (l - m);
        }
        double se = Math.sqrt(ss / 3) / 2;
        double t = 3.182446305284263; // t(0.975, 3)
        assertEquals(Math.exp(m), r.ratio(), 1e-12);
        assertEquals(Math.exp(m - t * se), r.lower(), 1e-9);
        assertEquals(Math.exp(m + t * se), r.upper(), 1e-9);
        assertEquals(Verdict.CONFIRMED, r.status());
        assertEquals("one-sample t on logs, 4 forks", r.basisText());
    }

    @Test
    void perIterationRatiosAreAveragedPerFork() {
        Fixtures f = new Fixtures();
        f.result(A, "avgt", "ns/op").forks(1, 1)
                .secondary("bytes", "#", new double[][] {{100, 300}, {200, 200}})
                .secondary("requests", "#", new double[][] {{10, 10}, {20, 10}}).add();
        double[] v = Statistic.perUnit("bytes per request", "B", "bytes", "requests")
                .forkValues(f.results().get(0), Measurements.of(f.results(), List.of())).values();
        assertArrayEquals(new double[] {20, 15}, v, 1e-12); // (10 + 30) / 2, (10 + 20) / 2
    }

    @Test
    void chartWhiskersAreTheTIntervalOfTheMean() {
        Charts.Mean m = Charts.Mean.of(new double[] {1, 2, 3});
        assertEquals(2, m.mean(), 1e-12);
        assertEquals(4.302652729911275 / Math.sqrt(3), m.halfWidth(), 1e-9); // t(0.975, 2) * sd 1 / sqrt 3
        assertEquals(0, Charts.Mean.of(new double[] {5}).halfWidth());
    }
}
