package loopbench.claims;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Verdicts of several runs side by side: cells, agreement counts, and the committed runs behind README's figure. */
class VerdictHistoryTest {

    /** A report.json as the claims report writes it, cut to what the history reads. */
    private static Path report(Path dir, String name, String... claims) throws IOException {
        Path run = Files.createDirectories(dir.resolve(name));
        Files.writeString(run.resolve(ClaimsReport.JSON), "{\"runs\": [], \"summary\": \"\", \"claims\": ["
                + String.join(",", claims) + "]}");
        return run;
    }

    private static String claim(String id, String verdict, double ratio) {
        String check = Double.isNaN(ratio)
                ? "{\"label\": \"x / y\", \"ratio\": NaN, \"lower\": NaN, \"upper\": NaN}"
                : "{\"label\": \"x / y\", \"ratio\": " + ratio + ", \"lower\": " + (ratio - 0.1) + ", \"upper\": "
                        + (ratio + 0.1) + "}";
        return "{\"id\": \"" + id + "\", \"verdict\": \"" + verdict + "\", \"decisive\": [" + check + "]}";
    }

    @Test
    void agreementCountsOnlyClaimsBothRunsMeasured(@TempDir Path dir) throws IOException {
        VerdictHistory.Run a = VerdictHistory.load(report(dir, "run-a",
                claim("C000-1", "REFUTED", 0.6), claim("C000-2", "INCONCLUSIVE", 1.19),
                claim("C003-1", "NOT-TESTABLE-HERE", Double.NaN), claim("N-1", "REFUTED", 0.2),
                claim("N-2", "MISSING", Double.NaN)));
        VerdictHistory.Run b = VerdictHistory.load(report(dir, "run-b",
                claim("C000-1", "REFUTED", 0.58), claim("C000-2", "CONFIRMED", 1.3),
                claim("C003-1", "CONFIRMED", 1.02), claim("N-1", "REFUTED", 0.19),
                claim("N-2", "REFUTED", 1.01)));
        VerdictHistory.Agreement x = VerdictHistory.agreement(a, b);
        // C003-1 (no figure in run-a) and N-2 (MISSING in run-a) are not compared.
        assertEquals(3, x.measured());
        assertEquals(2, x.same());
        assertEquals(2, x.measuredArticles());
        assertEquals(1, x.sameArticles());
        assertEquals("run-a and run-b agree on 2 of the 3 claims both measured (1 of 2 from the articles)",
                x.sentence());

        String md = VerdictHistory.markdown(List.of(a, b));
        assertTrue(md.startsWith("| claim | | first decisive check | run-a | run-b | same verdict |\n"), md);
        assertTrue(md.contains("| C000-1 | An L4 proxy costs only ~3% of throughput | x / y | REFUTED 0.600 [0.500, "
                + "0.700] | REFUTED 0.580 [0.480, 0.680] | yes |"), md);
        assertTrue(md.contains("| INCONCLUSIVE 1.190 [1.090, 1.290] | CONFIRMED 1.300 [1.200, 1.400] | **no** |"), md);
        assertTrue(md.contains("| NOT-TESTABLE-HERE | CONFIRMED 1.020 [0.920, 1.120] | - |"), md);
        assertTrue(md.contains("| - | REFUTED 1.010 [0.910, 1.110] | - |"), md);
        assertTrue(md.endsWith("- " + x.sentence() + "\n"), md);
    }

    /** Runs from different hardware say so above the table and the plan; runs from one host print as before. */
    @Test
    void runsFromDifferentHostsAreNamedWithTheirCpu(@TempDir Path dir) throws IOException {
        Path a = report(dir, "run-a", claim("C000-1", "REFUTED", 0.6));
        Path b = report(dir, "run-b", claim("C000-1", "REFUTED", 0.58));
        Path c = report(dir.resolve("jmh"), "claims", claim("C000-1", "REFUTED", 0.61));
        Files.writeString(a.resolve(Machine.FILE), "{\"cpuModel\": \"Intel(R) Xeon(R) Processor\", \"cores\": 2}");
        Files.writeString(b.resolve(Machine.FILE), "{\"cpuModel\": \"Intel(R) Xeon(R) Processor\", \"cores\": 2}");
        // As the suite leaves it: target/jmh/machine.json beside target/jmh/claims/report.json.
        Files.writeString(dir.resolve("jmh").resolve(Machine.FILE), "{\"cpuModel\": \"AMD EPYC\", \"cores\": 2}");
        List<VerdictHistory.Run> same = List.of(VerdictHistory.load(a), VerdictHistory.load(b));
        List<VerdictHistory.Run> mixed = List.of(VerdictHistory.load(a), VerdictHistory.load(c));
        assertEquals("AMD EPYC", mixed.get(1).host());
        assertEquals("", VerdictHistory.hostsNote(same));
        assertTrue(VerdictHistory.markdown(same).startsWith("| claim |"), VerdictHistory.markdown(same));
        String note = "Not all on one host (CPU from each run's machine.json): run-a Intel(R) Xeon(R) Processor; "
                + "claims AMD EPYC.";
        assertTrue(VerdictHistory.markdown(mixed).startsWith(note), VerdictHistory.markdown(mixed));
        assertTrue(RoundsPlan.markdown(mixed, RoundsPlan.plan(mixed)).contains(note));
        Path none = report(dir, "run-none", claim("C000-1", "REFUTED", 0.6));
        assertEquals("unknown", VerdictHistory.load(none).host());
    }

    @Test
    void whatIsNotAClaimsReportIsAnErrorNamingIt(@TempDir Path dir) throws IOException {
        NoSuchFileException none = assertThrows(NoSuchFileException.class, () -> VerdictHistory.load(dir));
        assertTrue(none.getMessage().contains(dir.resolve("report.json").toString()), none.getMessage());
        Path jmh = Files.writeString(dir.resolve("results.json"), "[{\"benchmark\": \"x\"}]");
        IOException wrong = assertThrows(IOException.class, () -> VerdictHistory.load(jmh));
        assertTrue(wrong.getMessage().contains("results.json is not a claims report.json"), wrong.getMessage());
        Path empty = Files.writeString(dir.resolve("other.json"), "{\"summary\": \"x\"}");
        IOException noClaims = assertThrows(IOException.class, () -> VerdictHistory.load(empty));
        assertTrue(noClaims.getMessage().contains("no \"claims\" array"), noClaims.getMessage());
    }

    /** README's "Two runs agree on A to B of the C verdicts" is what every committed claims run says. */
    @Test
    void readmesAgreementFigureIsTheCommittedRuns() throws IOException {
        List<Path> runs;
        try (var files = Files.find(Path.of("docs/results"), 2, (p, a) -> a.isDirectory()
                && p.getFileName().toString().matches("claims-run-\\d+"))) {
            runs = files.sorted().toList();
        }
        assertTrue(runs.size() >= 2, "committed claims runs: " + runs);
        String readme = Files.readString(Path.of("README.md"));
        for (Path run : runs) {
            assertTrue(readme.contains("(" + run + "/"), "README links " + run);
        }
        Matcher m = Pattern.compile("Two runs agree on (\\d+) to (\\d+) of the (\\d+) verdicts").matcher(readme);
        assertTrue(m.find(), "README states how often two runs agree");
        List<VerdictHistory.Run> loaded = new ArrayList<>();
        for (Path run : runs) {
            loaded.add(VerdictHistory.load(run));
        }
        List<VerdictHistory.Agreement> pairs = VerdictHistory.agreements(loaded);
        Map<String, Integer> stated = Map.of("min", Integer.parseInt(m.group(1)), "max",
                Integer.parseInt(m.group(2)), "of", Integer.parseInt(m.group(3)));
        Map<String, Integer> measured = Map.of(
                "min", pairs.stream().mapToInt(VerdictHistory.Agreement::same).min().orElseThrow(),
                "max", pairs.stream().mapToInt(VerdictHistory.Agreement::same).max().orElseThrow(),
                "of", pairs.stream().mapToInt(VerdictHistory.Agreement::measured).max().orElseThrow());
        assertEquals(measured, stated, VerdictHistory.markdown(loaded));
    }
}
