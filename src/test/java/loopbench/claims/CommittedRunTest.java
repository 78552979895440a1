package loopbench.claims;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The real run committed under {@code docs/results/DATE/claims/}: {@code claims docs/results/DATE/claims/*.json}
 * must give the verdicts its committed report shows, claim by claim. A change to a rule, a check or the statistics
 * that would turn a committed verdict shows up here, so the committed report cannot silently go stale.
 */
class CommittedRunTest {
    private static final Path RESULTS = Path.of("docs", "results");
    /** A verdict row of report.md: "| C000-1 | title | figure | effect | VERDICT |". */
    private static final Pattern ROW = Pattern.compile("^\\| (C\\d{3}-\\d) \\|.*\\| ([A-Z-]+) \\|$", Pattern.MULTILINE);

    /** The newest dated run that has a claims report. */
    private static Path newestRun() throws IOException {
        assertTrue(Files.isDirectory(RESULTS), "no " + RESULTS.toAbsolutePath());
        try (Stream<Path> dates = Files.list(RESULTS)) {
            return dates.filter(d -> Files.isRegularFile(d.resolve("claims").resolve(ClaimsReport.MARKDOWN)))
                    .max(Comparator.comparing(Path::toString))
                    .map(d -> d.resolve("claims"))
                    .orElseThrow(() -> new AssertionError("no docs/results/DATE/claims/report.md"));
        }
    }

    static Map<String, String> verdictRows(String markdown) {
        Map<String, String> verdicts = new LinkedHashMap<>();
        Matcher m = ROW.matcher(markdown);
        while (m.find()) {
            verdicts.put(m.group(1), m.group(2));
        }
        return verdicts;
    }

    @Test
    void theCommittedJsonRegeneratesTheCommittedVerdicts(@TempDir Path out) throws Exception {
        Path run = newestRun();
        List<Path> json;
        try (Stream<Path> files = Files.list(run)) {
            json = files.filter(f -> f.getFileName().toString().endsWith(".json"))
                    .filter(f -> !f.getFileName().toString().equals("machine.json")).sorted().toList();
        }
        assertFalse(json.isEmpty(), "no JMH JSON in " + run);
        Map<String, String> committed = verdictRows(Files.readString(run.resolve(ClaimsReport.MARKDOWN)));
        assertEquals(ClaimCatalog.all().size(), committed.size(), "one committed verdict row per claim: " + committed);

        ClaimsReport.Written again = ClaimsReport.write(json, out, ClaimCatalog.all());
        Map<String, String> regenerated = new LinkedHashMap<>();
        for (ClaimResult r : again.results()) {
            regenerated.put(r.claim().id(), r.verdict().label());
        }
        assertEquals(committed, regenerated, "verdicts regenerated from " + json);
        assertEquals(committed, verdictRows(Files.readString(again.markdown())), "the regenerated report's rows");
        assertEquals(0, again.count(Verdict.MISSING), "the committed run measured every claim: " + again.summary());
    }
}
