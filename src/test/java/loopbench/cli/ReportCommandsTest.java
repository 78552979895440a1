package loopbench.cli;

import loopbench.testing.JmhJson;
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

    /** A JMH JSON file of one benchmark with 4 forks: score and B/op per fork times {@code factor}. */
    private static Path forks(Path dir, String name, double scoreFactor, double bytesFactor) throws Exception {
        double[] scores = {100, 101, 99.5, 100.4};
        double[] bytes = {1488, 1488, 1488.1, 1488};
        for (int i = 0; i < 4; i++) {
            scores[i] *= scoreFactor;
            bytes[i] *= bytesFactor;
        }
        return Files.writeString(dir.resolve(name + ".json"),
                JmhJson.array(JmhJson.result("FooBenchmark.run", "avgt", "\"size\":\"64\"", scores, bytes)));
    }

    @Test
    void tablePrintsMarkdown() throws Exception {
        CliArgumentsTest.Result r = CliArgumentsTest.run("table", example().toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("### ExampleBenchmark"), r::toString);
    }

    @Test
    void compareAgainstItselfPasses(@TempDir Path dir) throws Exception {
        String base = forks(dir, "base", 1, 1).toString();
        CliArgumentsTest.Result r = CliArgumentsTest.run("compare", base, base);
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("PASS") && r.out().contains("compare: PASS") && r.out().contains("B/op"),
                r::toString);
    }

    @Test
    void moreBytesPerOperationFailsTheGate(@TempDir Path dir) throws Exception {
        CliArgumentsTest.Result r = CliArgumentsTest.run("compare", forks(dir, "base", 1, 1).toString(),
                forks(dir, "more", 1, 1.02).toString(), "--metric", "gc.alloc.rate.norm", "--alloc-threshold", "1",
                "--json", dir.resolve("c.json").toString());
        assertEquals(1, r.exitCode(), r::toString);
        assertTrue(r.out().contains("REGRESSION") && r.out().contains("compare: FAIL (1 regression(s))"), r::toString);
        assertTrue(Files.readString(dir.resolve("c.json")).contains("\"verdict\":\"REGRESSION\""));
    }

    @Test
    void filesWithNoBenchmarkInCommonGiveNoVerdict(@TempDir Path dir) throws Exception {
        Path other = Files.writeString(dir.resolve("other.json"), JmhJson.array(
                JmhJson.result("BarBenchmark.run", "avgt", "", new double[] {1, 2}, null)));
        CliArgumentsTest.Result r = CliArgumentsTest.run("compare", forks(dir, "base", 1, 1).toString(),
                other.toString());
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.out().contains("ONLY_IN_BASELINE") && r.out().contains("no benchmark is in both files"),
                r::toString);
    }

    @Test
    void oneForkPerSideCannotSupportAVerdict() throws Exception {
        CliArgumentsTest.Result r = CliArgumentsTest.run("compare", example().toString(), example().toString());
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.out().contains("NO_VERDICT") && r.out().contains("cannot support a verdict")
                && r.out().contains("-f 2"), r::toString);
    }

    @Test
    void badInputExits2() throws Exception {
        CliArgumentsTest.Result unknownMetric = CliArgumentsTest.run("compare", example().toString(),
                example().toString(), "--metric", "nope");
        assertEquals(2, unknownMetric.exitCode(), unknownMetric::toString);
        assertTrue(unknownMetric.err().contains("'nope'") && unknownMetric.err().contains("valid"),
                unknownMetric::toString);
        CliArgumentsTest.Result negative = CliArgumentsTest.run("compare", example().toString(),
                example().toString(), "--threshold", "-1");
        assertEquals(2, negative.exitCode(), negative::toString);
        CliArgumentsTest.Result missing = CliArgumentsTest.run("table", "/nonexistent.json");
        assertTrue(missing.exitCode() != 0 && missing.err().contains("nonexistent.json"), missing::toString);
    }

    /** picocli reads descriptions as format strings: a stray % makes it warn on stderr instead of printing help. */
    @Test
    void everyHelpFormatsCleanly() {
        for (String[] args : new String[][] {{"--help"}, {"table", "--help"}, {"compare", "--help"}, {"gate", "--help"},
                {"claims", "--help"}, {"load", "--help"},
                {"origin", "--help"}, {"echo", "--help"}, {"proxy", "--help"}}) {
            CliArgumentsTest.Result r = CliArgumentsTest.run(args);
            assertEquals(0, r.exitCode(), r::toString);
            assertTrue(!r.err().contains("WARN") && !r.out().contains("WARN"), r::toString);
        }
    }
}
