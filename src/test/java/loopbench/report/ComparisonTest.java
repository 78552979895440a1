package loopbench.report;

import com.google.gson.JsonParser;
import loopbench.testing.JmhJson;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static loopbench.testing.JmhJson.constant;
import static loopbench.testing.JmhJson.noisy;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** compare's fork-level statistics on JMH JSON with known per-fork values. */
class ComparisonTest {
    private static final Comparison.Thresholds THRESHOLDS = new Comparison.Thresholds(3, 0.5);
    private static final List<String> SCORE_AND_BYTES = List.of(JmhResult.PRIMARY, Comparison.ALLOC);

    private static List<JmhResult> results(String... json) {
        return JmhResult.all(JsonParser.parseString(JmhJson.array(json)).getAsJsonArray());
    }

    private static Comparison.Row row(List<Comparison.Row> rows, String metric) {
        return rows.stream().filter(r -> r.entry().metric().equals(metric)).findFirst().orElseThrow();
    }

    @Test
    void identicalDistributionsPass() {
        Random random = new Random(10);
        List<JmhResult> base = results(JmhJson.result("Foo.run", "thrpt", "", noisy(random, 6, 100, 0.01),
                constant(6, 1488)));
        List<JmhResult> cand = results(JmhJson.result("Foo.run", "thrpt", "", noisy(random, 6, 100, 0.01),
                constant(6, 1488)));
        List<Comparison.Row> rows = Comparison.compareFiles(base, cand, SCORE_AND_BYTES, THRESHOLDS);
        assertEquals(2, rows.size());
        assertEquals(Comparison.Status.PASS, row(rows, JmhResult.PRIMARY).status());
        assertEquals(Comparison.Status.PASS, row(rows, Comparison.ALLOC).status());
        assertEquals(1.0, row(rows, Comparison.ALLOC).judgement().interval().ratio(), 1e-12);
    }

    @Test
    void aFivePercentSlowerThroughputAndOnePercentMoreBytesAreRegressions() {
        Random random = new Random(11);
        List<JmhResult> base = results(JmhJson.result("Foo.run", "thrpt", "", noisy(random, 6, 100, 0.003),
                noisy(random, 6, 8016, 0.0002)));
        List<JmhResult> cand = results(JmhJson.result("Foo.run", "thrpt", "", noisy(random, 6, 95, 0.003),
                noisy(random, 6, 8096, 0.0002)));
        List<Comparison.Row> rows = Comparison.compareFiles(base, cand, SCORE_AND_BYTES, THRESHOLDS);
        assertEquals(Comparison.Status.REGRESSION, row(rows, JmhResult.PRIMARY).status());
        assertEquals(Comparison.Status.REGRESSION, row(rows, Comparison.ALLOC).status());
        String table = Comparison.markdown(rows);
        assertTrue(table.contains("| Foo.run thrpt | score (higher is better) |"), table);
        assertTrue(table.contains("REGRESSION") && table.contains("6+6"), table);
    }

    @Test
    void timesAreWorseHigher() {
        Random random = new Random(12);
        List<JmhResult> base = results(JmhJson.result("Foo.run", "avgt", "", noisy(random, 5, 100, 0.003), null));
        List<JmhResult> slower = results(JmhJson.result("Foo.run", "avgt", "", noisy(random, 5, 105, 0.003), null));
        List<JmhResult> faster = results(JmhJson.result("Foo.run", "avgt", "", noisy(random, 5, 95, 0.003), null));
        assertEquals(Comparison.Status.REGRESSION,
                Comparison.compareFiles(base, slower, List.of(JmhResult.PRIMARY), THRESHOLDS).get(0).status());
        assertEquals(Comparison.Status.IMPROVEMENT,
                Comparison.compareFiles(base, faster, List.of(JmhResult.PRIMARY), THRESHOLDS).get(0).status());
    }

    @Test
    void oneForkPerSideCannotSupportAVerdict() {
        List<JmhResult> base = results(JmhJson.result("Foo.run", "avgt", "", new double[] {100}, null));
        List<JmhResult> cand = results(JmhJson.result("Foo.run", "avgt", "", new double[] {200}, null));
        Comparison.Row r = Comparison.compareFiles(base, cand, List.of(JmhResult.PRIMARY), THRESHOLDS).get(0);
        assertEquals(Comparison.Status.NO_VERDICT, r.status());
        assertTrue(r.note().contains(">= 2 forks"), r.note());
    }

    @Test
    void allocationFreeCodeIsNotJudgedOnNoise() {
        // 0.001 vs 0.003 B/op is JMH's accounting noise, not a tripling; both count as the 1 B floor.
        List<JmhResult> base = results(JmhJson.result("Foo.run", "avgt", "", constant(4, 10),
                new double[] {0.001, 0.002, 0.001, 0.001}));
        List<JmhResult> cand = results(JmhJson.result("Foo.run", "avgt", "", constant(4, 10),
                new double[] {0.003, 0.003, 0.002, 0.004}));
        Comparison.Row alloc = row(Comparison.compareFiles(base, cand, SCORE_AND_BYTES, THRESHOLDS), Comparison.ALLOC);
        assertEquals(Comparison.Status.PASS, alloc.status());
        // ... while starting to allocate for real is a regression.
        List<JmhResult> allocating = results(JmhJson.result("Foo.run", "avgt", "", constant(4, 10), constant(4, 24)));
        assertEquals(Comparison.Status.REGRESSION,
                row(Comparison.compareFiles(base, allocating, SCORE_AND_BYTES, THRESHOLDS), Comparison.ALLOC).status());
    }

    @Test
    void missingBenchmarksAreListedNotJudged() {
        List<JmhResult> both = results(JmhJson.result("Foo.run", "avgt", "", constant(3, 1), null));
        List<JmhResult> more = results(JmhJson.result("Foo.run", "avgt", "", constant(3, 1), null),
                JmhJson.result("Bar.run", "avgt", "", constant(3, 1), null));
        List<Comparison.Row> rows = Comparison.compareFiles(more, both, List.of(JmhResult.PRIMARY), THRESHOLDS);
        assertEquals(Comparison.Status.ONLY_IN_BASELINE, rows.get(1).status());
        rows = Comparison.compareFiles(both, more, List.of(JmhResult.PRIMARY), THRESHOLDS);
        assertEquals(Comparison.Status.ONLY_IN_CANDIDATE, rows.get(1).status());
        assertEquals(1, Comparison.family(rows));
    }

    @Test
    void pairedEntriesComeFromOneResultPerRound() {
        // The gate's shape: one single-fork result per round and side, paired by round.
        Map<String, List<JmhResult>> base = Comparison.byKey(results(
                JmhJson.result("Foo.run", "thrpt", "", new double[] {100}, null),
                JmhJson.result("Foo.run", "thrpt", "", new double[] {130}, null),
                JmhJson.result("Foo.run", "thrpt", "", new double[] {70}, null)));
        Map<String, List<JmhResult>> cand = Comparison.byKey(results(
                JmhJson.result("Foo.run", "thrpt", "", new double[] {95}, null),
                JmhJson.result("Foo.run", "thrpt", "", new double[] {123.6}, null),
                JmhJson.result("Foo.run", "thrpt", "", new double[] {66.4}, null)));
        List<Comparison.Entry> entries = Comparison.entries(base, cand, Comparison.DEFAULT_METRICS);
        assertEquals(1, entries.size(), "no B/op measured: only the score");
        Comparison.Row paired = Comparison.judge(entries, true, THRESHOLDS).get(0);
        Comparison.Row unpaired = Comparison.judge(entries, false, THRESHOLDS).get(0);
        assertEquals(Comparison.Status.REGRESSION, paired.status(), () -> paired.judgement().toString());
        assertEquals(Comparison.Status.PASS, unpaired.status(), "the drift between rounds swamps it without pairing");
        assertNotNull(Comparison.json(List.of(paired)).get(0).getAsJsonObject().get("pWorseHolm"));
    }

    @Test
    void endToEndResultsAreJudgedOnTheirServersOwnCpuOnly() {
        String proxyCpu = EndToEndMetrics.cpu(EndToEndMetrics.PROXY);
        String originCpu = EndToEndMetrics.cpu(EndToEndMetrics.ORIGIN);
        Map<String, List<JmhResult>> side = Comparison.byKey(results(
                JmhJson.withSecondaries("Proxy.run", "thrpt", "", constant(3, 100), Map.of(proxyCpu, constant(3, 40),
                        originCpu, constant(3, 20))),
                JmhJson.withSecondaries("Direct.run", "thrpt", "", constant(3, 100),
                        Map.of(originCpu, constant(3, 20))),
                JmhJson.withSecondaries("InProcess.run", "avgt", "", constant(3, 100), Map.of(Comparison.CPU_PER_OP,
                        constant(3, 900)))));
        List<String> judged = Comparison.entries(side, side, Comparison.DEFAULT_METRICS).stream()
                .map(e -> e.key().split(" ")[0] + " " + e.metric()).toList();
        assertEquals(List.of("Proxy.run score", "Proxy.run " + proxyCpu, "Direct.run score", "Direct.run " + originCpu,
                "InProcess.run score", "InProcess.run " + Comparison.CPU_PER_OP),
                judged.stream().map(s -> s.replace(JmhResult.PRIMARY, "score")).toList());
    }

    @Test
    void memoryIsShownWithItsIntervalAndJudgedByNoOne() {
        String rss = EndToEndMetrics.memory(EndToEndMetrics.PROXY, "rss");
        String perConnection = EndToEndMetrics.memoryPerConnection(EndToEndMetrics.PROXY, "rss");
        Random random = new Random(13);
        List<JmhResult> base = results(JmhJson.withSecondaries("Proxy.run", "thrpt", "", noisy(random, 4, 100, 0.01),
                Map.of(rss, noisy(random, 4, 2e8, 0.01), perConnection, constant(4, 1))));
        List<JmhResult> cand = results(JmhJson.withSecondaries("Proxy.run", "thrpt", "", noisy(random, 4, 100, 0.01),
                Map.of(rss, noisy(random, 4, 4e8, 0.01), perConnection, constant(4, 2))));
        assertEquals(List.of(rss), Comparison.memoryMetrics(base), "per process; per connection is the same ratio");
        List<Comparison.Row> shown = Comparison.shown(Comparison.entries(Comparison.byKey(base),
                Comparison.byKey(cand), Comparison.memoryMetrics(base)), true);
        assertEquals(1, shown.size());
        Comparison.Row r = shown.get(0);
        assertEquals(Comparison.Status.SHOWN, r.status(), "doubled, and still not a regression");
        assertEquals(2.0, r.judgement().interval().ratio(), 0.1);
        assertTrue(r.judgement().interval().lower() > 1.5, r.judgement().interval().toString());
        assertEquals(0, Comparison.family(shown), "outside the Holm family");
        String table = Comparison.markdown(shown);
        assertTrue(table.contains("shown, not judged") && table.contains(" .. +1"), table);
        assertEquals("SHOWN", Comparison.json(shown).get(0).getAsJsonObject().get("verdict").getAsString());
    }

    @Test
    void anUnknownMetricNamesTheValidOnes() {
        List<JmhResult> base = results(JmhJson.result("Foo.run", "avgt", "", constant(3, 1), constant(3, 8)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Comparison.compareFiles(base, base, List.of("nope"), THRESHOLDS));
        assertTrue(e.getMessage().contains("'nope'") && e.getMessage().contains("gc.alloc.rate.norm"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Comparison.Thresholds(-1, 1));
    }
}
