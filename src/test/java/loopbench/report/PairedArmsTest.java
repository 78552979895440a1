package loopbench.report;

import com.google.gson.JsonParser;
import loopbench.testing.JmhJson;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** pairs: arms of one rounds run matched by round, with known per-fork values. */
class PairedArmsTest {

    /** One result of a rounds run: its params, group, the round of each fork, and the per-fork score and CPU. */
    private static String result(String params, String group, int[] rounds, double[] scores, double[] cpu) {
        String json = JmhJson.withSecondaries("Proxy.requests", "thrpt", params, scores, Map.of("e2e.proxy.cpu", cpu));
        return json.substring(0, json.length() - 1) + ",\"loopbench\":{\"group\":\"" + group + "\",\"rounds\":"
                + Arrays.toString(rounds) + "}}";
    }

    private static List<JmhResult> results(String... json) {
        return JmhResult.all(JsonParser.parseString(JmhJson.array(json)).getAsJsonArray());
    }

    private static PairedArms.Selector sel(String text) {
        return PairedArms.Selector.parse(text);
    }

    @Test
    void forksArePairedByTheirRoundNotByTheirPosition() {
        // The candidate ran its forks in another order; matched by round, every ratio is exactly 1.1 (and 1.25 for
        // the CPU), so the interval has no width. Matched by position, the ratios would scatter.
        List<JmhResult> r = results(
                result("\"topology\":\"local\",\"layer\":\"4\"", "g", new int[] {1, 2, 3},
                        new double[] {100, 200, 400}, new double[] {8, 10, 12}),
                result("\"topology\":\"netns\",\"layer\":\"4\"", "g", new int[] {3, 1, 2},
                        new double[] {440, 110, 220}, new double[] {15, 10, 12.5}));
        PairedArms.Comparison c = PairedArms.compare(r, sel("topology=local"), sel("topology=netns"), List.of());
        assertEquals(2, c.rows().size());
        PairedArms.Row score = c.rows().get(0);
        assertEquals(JmhResult.PRIMARY, score.metric());
        assertEquals(1.1, score.interval().ratio(), 1e-12);
        assertEquals(1.1, score.interval().lower(), 1e-12);
        assertEquals(1.1, score.interval().upper(), 1e-12);
        assertEquals(3, score.pairs());
        assertEquals(1.25, c.rows().get(1).interval().ratio(), 1e-12);
        assertEquals(700.0 / 3, score.baseline(), 1e-9);
        assertNull(score.problem());
        String md = PairedArms.markdown(c);
        assertTrue(md.contains("| Proxy.requests |  | primary (ops/ms) | 233 | 257 | 1.100 [1.100, 1.100] | 0.0000 "
                + "| 3 |"), md);
        assertTrue(md.contains("Every row: layer=4."), md);
    }

    @Test
    void theIntervalIsThePairedTOnTheLogRatios() {
        // Log ratios ln 1.1, ln 1.2, ln 1.0: mean m, sample sd s, t(0.975, 2) = 4.302653.
        List<JmhResult> r = results(
                result("\"v\":\"a\"", "g", new int[] {1, 2, 3}, new double[] {10, 10, 10}, new double[] {1, 1, 1}),
                result("\"v\":\"b\"", "g", new int[] {1, 2, 3}, new double[] {11, 12, 10}, new double[] {1, 1, 1}));
        PairedArms.Row row = PairedArms.compare(r, sel("v=a"), sel("v=b"), List.of(JmhResult.PRIMARY)).rows().get(0);
        double[] d = {Math.log(1.1), Math.log(1.2), 0};
        double m = (d[0] + d[1] + d[2]) / 3;
        double s = Math.sqrt(((d[0] - m) * (d[0] - m) + (d[1] - m) * (d[1] - m) + m * m) / 2);
        double half = 4.302653 * s / Math.sqrt(3);
        assertEquals(Math.exp(m), row.interval().ratio(), 1e-9);
        assertEquals(Math.exp(m - half), row.interval().lower(), 1e-5);
        assertEquals(Math.exp(m + half), row.interval().upper(), 1e-5);
        assertEquals(s, row.sdLog(), 1e-12);
    }

    /** A twin result: the group and twin tags a null experiment's arms carry. */
    private static String twin(String name, int[] rounds, double[] scores) {
        String json = result("\"layer\":\"4\"", "noise", rounds, scores, new double[] {1, 1, 1});
        return json.substring(0, json.length() - 2) + ",\"twin\":\"" + name + "\"}}";
    }

    @Test
    void twinsAreArmsWhenNamedAndTheirSdIsTheNoiseAlone() {
        List<JmhResult> r = results(twin("A", new int[] {1, 2, 3}, new double[] {10, 10, 10}),
                twin("B", new int[] {2, 1, 3}, new double[] {12, 11, 10}));
        PairedArms.Row row = PairedArms.compare(r, sel("twin=A"), sel("twin=B"), List.of(JmhResult.PRIMARY)).rows()
                .get(0);
        double[] d = {Math.log(1.1), Math.log(1.2), 0};
        double m = (d[0] + d[1] + d[2]) / 3;
        double s = Math.sqrt(((d[0] - m) * (d[0] - m) + (d[1] - m) * (d[1] - m) + m * m) / 2);
        assertEquals(3, row.pairs());
        assertEquals(s, row.sdLog(), 1e-12);
        assertEquals(Map.of("layer", "4"), row.rest());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PairedArms.compare(r, sel("twin=A"), sel("twin=C"), List.of()));
        assertEquals("--candidate twin=C selects no result; twin takes A, B here", e.getMessage());
    }

    @Test
    void aRoundOnOneSideOnlyIsDroppedAndCounted() {
        List<JmhResult> r = results(
                result("\"v\":\"a\"", "g", new int[] {1, 2}, new double[] {10, 20}, new double[] {1, 1}),
                result("\"v\":\"b\"", "g", new int[] {1, 2, 3}, new double[] {20, 40, 999}, new double[] {1, 1, 1}));
        PairedArms.Row row = PairedArms.compare(r, sel("v=a"), sel("v=b"), List.of(JmhResult.PRIMARY)).rows().get(0);
        assertEquals(2, row.pairs());
        assertEquals(1, row.dropped());
        assertEquals(2.0, row.interval().ratio(), 1e-12);
        assertTrue(PairedArms.markdown(new PairedArms.Comparison(sel("v=a"), sel("v=b"), List.of(row), List.of()))
                .contains("| 2 (1 unpaired) |"));
    }

    @Test
    void groupsAreArmsWhenNamedAndPartOfTheMatchWhenNot() {
        String a41 = result("\"ioRatio\":\"default\"", "tasks41", new int[] {1, 2}, new double[] {1, 2},
                new double[] {1, 1});
        String b41 = result("\"ioRatio\":\"100\"", "tasks41", new int[] {1, 2}, new double[] {2, 4},
                new double[] {1, 1});
        String a42 = result("\"ioRatio\":\"default\"", "tasks42", new int[] {1, 2}, new double[] {3, 6},
                new double[] {1, 1});
        List<JmhResult> r = results(a41, b41, a42);
        // ioRatio alone: tasks42's default has no ioRatio=100 partner in its own group.
        PairedArms.Comparison byParam = PairedArms.compare(r, sel("ioRatio=default"), sel("ioRatio=100"),
                List.of(JmhResult.PRIMARY));
        assertEquals(1, byParam.rows().size());
        assertEquals(2.0, byParam.rows().get(0).interval().ratio(), 1e-12);
        assertEquals(1, byParam.unmatched().size());
        assertTrue(byParam.unmatched().get(0).contains("(group tasks42)"), byParam.unmatched().toString());
        // By group: 4.2 against 4.1's default.
        PairedArms.Comparison byGroup = PairedArms.compare(r, sel("group=tasks41,ioRatio=default"),
                sel("group=tasks42"), List.of(JmhResult.PRIMARY));
        assertEquals(3.0, byGroup.rows().get(0).interval().ratio(), 1e-12);
        assertTrue(byGroup.unmatched().isEmpty());
    }

    @Test
    void selectorsThatCannotPairAreErrorsNamingWhatTheResultsHave() {
        List<JmhResult> r = results(
                result("\"topology\":\"local\",\"layer\":\"4\"", "g", new int[] {1}, new double[] {1},
                        new double[] {1}),
                result("\"topology\":\"local\",\"layer\":\"7\"", "g", new int[] {1}, new double[] {1},
                        new double[] {1}),
                result("\"topology\":\"netns\",\"layer\":\"4\"", "g", new int[] {1}, new double[] {1},
                        new double[] {1}));
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> PairedArms.compare(r, sel("topology=locl"), sel("topology=netns"), List.of()));
        assertTrue(none.getMessage().contains("--baseline topology=locl selects no result")
                && none.getMessage().contains("topology takes local, netns here"), none.getMessage());
        IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
                () -> PairedArms.compare(r, sel("layer=4"), sel("topology=netns"), List.of()));
        assertTrue(both.getMessage().contains("--baseline layer=4 and --candidate topology=netns both select"),
                both.getMessage());
        IllegalArgumentException metric = assertThrows(IllegalArgumentException.class,
                () -> PairedArms.compare(r, sel("topology=local,layer=4"), sel("topology=netns"), List.of("cpu")));
        assertTrue(metric.getMessage().contains("--metric 'cpu': no selected result has it; they have e2e.proxy.cpu, "
                + "primary"), metric.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> PairedArms.compare(r, sel("topology=local"), sel("topology=netns,layer=4"), List.of()));
        assertTrue(twice.getMessage().contains("--baseline topology=local selects two results that would pair with "
                + "the same partner"), twice.getMessage());
        IllegalArgumentException malformed = assertThrows(IllegalArgumentException.class, () -> sel("topology"));
        assertTrue(malformed.getMessage().contains("'topology' is not a selector"), malformed.getMessage());
    }

    @Test
    void resultsWithoutRoundsGiveNoRatioAndSaySo() {
        String a = JmhJson.withSecondaries("X.run", "thrpt", "\"v\":\"a\"", new double[] {1, 2}, Map.of());
        String b = JmhJson.withSecondaries("X.run", "thrpt", "\"v\":\"b\"", new double[] {1, 2}, Map.of());
        PairedArms.Row row = PairedArms.compare(results(a, b), sel("v=a"), sel("v=b"), List.of()).rows().get(0);
        assertTrue(row.problem().contains("not a rounds run"), row.problem());
    }
}
