package loopbench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code claims}: a report from a real JMH JSON, and bad usage. */
class ClaimsCommandTest {

    /** A real run: PipelineCostBenchmark, layer=direct,4,7, GET of 1 KiB, 3 forks x 3 iterations (a busy machine). */
    private static Path real() throws Exception {
        return Paths.get(ClaimsCommandTest.class.getResource("/loopbench/claims/pipeline-cost-3-forks.json").toURI());
    }

    @Test
    void aRealRunGetsItsVerdictsAndTheRestNameTheirProfileLines(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("report");
        CliArgumentsTest.Result r = CliArgumentsTest.run("claims", real().toString(), "--out", out.toString());
        assertEquals(0, r.exitCode(), r::toString);
        // The L7 proxy's byte counts are exact: its extra request header is a certain verdict.
        assertTrue(r.out().contains("C000-8  CONFIRMED"), r::toString);
        assertTrue(r.out().contains("C003-1  NOT-TESTABLE-HERE"), r::toString);
        assertTrue(r.out().contains("C000-3  MISSING"), r::toString);
        assertTrue(r.out().contains("20 claims"), r::toString);
        String md = Files.readString(out.resolve("report.md"));
        assertTrue(md.contains("Produced by the line labelled `side-by-side-64` of profiles/claims.jmh"),
                "a missing claim names its labelled profile line");
        assertTrue(Files.isRegularFile(out.resolve("report.json")));
        assertTrue(Files.isRegularFile(out.resolve("report.html")));
        assertTrue(Files.isRegularFile(out.resolve("charts/proxy-bytes.png")));
    }

    @Test
    void oneClaimOnly(@TempDir Path dir) throws Exception {
        CliArgumentsTest.Result r = CliArgumentsTest.run("claims", real().toString(), "--out", dir.toString(),
                "--claim", "C000-8,C000-2");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("2 claims") && !r.out().contains("C000-1 "), r::toString);
    }

    @Test
    void catalogMarkdownRewritesTheGeneratedPartOfTheFileItIsGiven(@TempDir Path dir) throws Exception {
        Path md = Files.writeString(dir.resolve("CLAIMS.md"), "# x\n" + loopbench.claims.CatalogMarkdown.BEGIN + "\n"
                + loopbench.claims.CatalogMarkdown.END + "\n");
        CliArgumentsTest.Result r = CliArgumentsTest.run("claims", "--catalog-markdown", md.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("generated part rewritten (20 claims)"), r::toString);
        assertTrue(Files.readString(md).contains("### C004-1 Edge-triggered epoll is fastest"));
        String missing = dir.resolve("no.md").toString();
        CliArgumentsTest.Result none = CliArgumentsTest.run("claims", "--catalog-markdown", missing);
        assertEquals(2, none.exitCode(), none::toString);
        assertTrue(none.err().contains("'" + dir.resolve("no.md") + "'"), none::toString);
        Path unmarked = Files.writeString(dir.resolve("plain.md"), "no markers");
        CliArgumentsTest.Result plain = CliArgumentsTest.run("claims", "--catalog-markdown", unmarked.toString());
        assertEquals(2, plain.exitCode(), plain::toString);
        assertTrue(plain.err().contains("BEGIN GENERATED"), plain::toString);
    }

    @Test
    void nullJudgesTwinFamiliesAndExitsZero(@TempDir Path dir) throws Exception {
        // No twins in a plain run: every family is "not measured", and the files are written.
        CliArgumentsTest.Result r = CliArgumentsTest.run("claims", "--null", real().toString(), "--out",
                dir.toString());
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("null-aggregator  not measured")
                && r.out().contains("null-side-by-side not measured")
                && r.out().contains("null-aggregator-side-by-side not measured")
                && r.out().contains("null-epoll41-side-by-side not measured")
                && r.out().contains("0 of 5 null lines")
                && r.out().contains("decisive checks: 0 of 0 (7 not measured)"),
                r::toString);
        assertTrue(Files.isRegularFile(dir.resolve("null.json")) && Files.isRegularFile(dir.resolve("null.md")));
    }

    @Test
    void badUsageExits2NamingTheValidValues(@TempDir Path dir) throws Exception {
        CliArgumentsTest.Result unknown = CliArgumentsTest.run("claims", real().toString(), "--out", dir.toString(),
                "--claim", "C999-9");
        assertEquals(2, unknown.exitCode(), unknown::toString);
        assertTrue(unknown.err().contains("'C999-9'") && unknown.err().contains("C000-1")
                && unknown.err().contains("C004-1"),
                unknown::toString);

        CliArgumentsTest.Result none = CliArgumentsTest.run("claims");
        assertEquals(2, none.exitCode(), none::toString);
        assertTrue(none.err().contains("RESULTS.json"), none::toString);

        Path notJmh = Files.writeString(dir.resolve("x.json"), "{\"hello\": 1}");
        CliArgumentsTest.Result wrong = CliArgumentsTest.run("claims", notJmh.toString(), "--out",
                dir.resolve("o").toString());
        assertEquals(2, wrong.exitCode(), wrong::toString);
        assertTrue(wrong.err().contains("x.json") && wrong.err().contains("-rf json"), wrong::toString);

        Path file = Files.writeString(dir.resolve("a-file"), "");
        CliArgumentsTest.Result outIsFile = CliArgumentsTest.run("claims", real().toString(), "--out", file.toString());
        assertEquals(2, outIsFile.exitCode(), outIsFile::toString);

        // --peers takes its files comma-separated: a second file after a space would be read as results
        String nginx = "docs/results/2026-11-26/c002-gateways/nginx-ProxyEndToEndBenchmark.requests.json";
        CliArgumentsTest.Result spaced = CliArgumentsTest.run("claims", real().toString(), "--out",
                dir.resolve("p").toString(), "--peers",
                "docs/results/2026-11-26/c002-gateways/loopbench-l7-ProxyEndToEndBenchmark.requests.json", nginx);
        assertEquals(2, spaced.exitCode(), spaced::toString);
        assertTrue(spaced.err().contains("'" + nginx + "'") && spaced.err().contains("--peers A.json,B.json"),
                spaced::toString);

        CliArgumentsTest.Result missing = CliArgumentsTest.run("claims", dir.resolve("nope.json").toString());
        assertEquals(1, missing.exitCode(), missing::toString);
        assertTrue(missing.err().contains("no such file") && missing.err().contains("nope.json"), missing::toString);
    }

    @Test
    void acrossSetsCommittedRunsSideBySideAndRefusesWhatIsNotAReport(@TempDir Path dir) throws Exception {
        CliArgumentsTest.Result r = CliArgumentsTest.run("claims", "--across",
                "docs/results/2026-11-25/claims-run-1", "docs/results/2026-11-26/claims-run-3/report.json");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("| claim | | first decisive check | claims-run-1 | claims-run-3 | same verdict |")
                && r.out().contains("- claims-run-1 and claims-run-3 agree on "), r::toString);
        CliArgumentsTest.Result empty = CliArgumentsTest.run("claims", "--across", dir.toString(),
                "docs/results/2026-11-25/claims-run-1");
        assertEquals(2, empty.exitCode(), empty::toString);
        assertTrue(empty.err().contains(dir.resolve("report.json").toString()), empty::toString);
        CliArgumentsTest.Result mixed = CliArgumentsTest.run("claims", real().toString(), "--across",
                "docs/results/2026-11-25/claims-run-1", "docs/results/2026-11-25/claims-run-2");
        assertEquals(2, mixed.exitCode(), mixed::toString);
        assertTrue(mixed.err().contains("--across"), mixed::toString);
    }

    @Test
    void planRoundsSizesANextRunFromFinishedOnes() {
        CliArgumentsTest.Result r = CliArgumentsTest.run("claims", "--plan-rounds",
                "docs/results/2026-11-25/claims-run-1", "docs/results/2026-11-25/claims-run-2",
                "docs/results/2026-11-26/claims-run-3");
        assertEquals(0, r.exitCode(), r::toString);
        assertTrue(r.out().contains("| C000-6 | L7 proxy CPU per request, unpooled / pooled | 1.082, 1.056, 1.034 | "
                + "1.057 | 0.0593 | 1.010 | 0.0454 | 16 | 4 |"), r::toString);
        CliArgumentsTest.Result both = CliArgumentsTest.run("claims", "--plan-rounds",
                "docs/results/2026-11-25/claims-run-1", "--across", "docs/results/2026-11-25/claims-run-1",
                "docs/results/2026-11-25/claims-run-2");
        assertEquals(2, both.exitCode(), both::toString);
        assertTrue(both.err().contains("give it alone"), both::toString);
    }
}
