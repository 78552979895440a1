package loopbench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code table} and {@code compare}: what a CI job runs on the suite's JSON. */
class ReportCommandsTest {

    private static Path example() throws Exception {
        return Paths.get(ReportCommandsTest.class.getResource("/loopbench/report/example-jmh-result.json").toURI());
    }

    /** The example result with its score and B/op scaled, as a "current" run. */
    private static Path scaled(Path dir, double factor) throws Exception {
        String json = Files.readString(example());
        json = json.replace("\"score\" : 109.47", "\"score\" : " + 109.47 * factor)
                .replace("\"score\" : 96.14", "\"score\" : " + 96.14 * factor);
        return Files.writeString(dir.resolve("current-" + factor + ".json"), json);
    }

    @Test
    void tablePrintsMarkdown() throws Exception {
        CliArgumentsTest.Result r = CliArgumentsTest.run("table", example().toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("### ExampleBenchmark"), r::toString);
    }

    @Test
    void compareAgainstItselfPasses() throws Exception {
        CliArgumentsTest.Result r = CliArgumentsTest.run("compare", example().toString(), example().toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("WITHIN_NOISE") && r.out().contains("gate: PASS"), r::toString);
    }

    @Test
    void moreBytesPerOperationFailsTheGate(@TempDir Path dir) throws Exception {
        String current = scaled(dir, 1.5).toString();
        CliArgumentsTest.Result r = CliArgumentsTest.run("compare", example().toString(), current,
                "--metric", "gc.alloc.rate.norm", "--threshold", "5");
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.out().contains("REGRESSION") && r.out().contains("gate: FAIL (1 regression(s))"), r::toString);
    }

    @Test
    void badInputExits2() throws Exception {
        CliArgumentsTest.Result unknownMetric = CliArgumentsTest.run("compare", example().toString(),
                example().toString(), "--metric", "nope");
        assertEquals(2, unknownMetric.exitCode(), unknownMetric::toString);
        assertTrue(unknownMetric.err().contains("'nope'") && unknownMetric.err().contains("valid"), unknownMetric::toString);
        CliArgumentsTest.Result negative = CliArgumentsTest.run("compare", example().toString(),
                example().toString(), "--threshold", "-1");
        assertEquals(2, negative.exitCode(), negative::toString);
        CliArgumentsTest.Result missing = CliArgumentsTest.run("table", "/nonexistent.json");
        assertTrue(missing.exitCode() != 0 && missing.err().contains("nonexistent.json"), missing::toString);
    }

    /** picocli reads descriptions as format strings: a stray % makes it warn on stderr instead of printing help. */
    @Test
    void everyHelpFormatsCleanly() {
        for (String[] args : new String[][] {{"--help"}, {"table", "--help"}, {"compare", "--help"}, {"claims", "--help"},
                {"origin", "--help"}, {"echo", "--help"}, {"proxy", "--help"}}) {
            CliArgumentsTest.Result r = CliArgumentsTest.run(args);
            assertEquals(0, r.exitCode(), r::toString);
            assertTrue(!r.err().contains("WARN") && !r.out().contains("WARN"), r::toString);
        }
    }
}
