package loopbench.claims;

import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * C002-2's cold share: the first second's rate over the rate of the last 5 s, each per-second entry weighted by its
 * own duration. The series ends with whatever was left of the run (1-3 ms); counted as a whole second it dragged the
 * warm rate down and the share up.
 */
class ColdShareTest {
    private static final Path COMMITTED = Path.of("docs", "results", "2026-11-23", "claims");

    @Test
    void aPartialLastSecondCountsForItsOwnDuration(@TempDir Path dir) throws Exception {
        // First second 1,005 ms with 402 requests (400/s); then 1,000/s; the last entry 2 ms with 2 requests.
        long[] requests = {402, 800, 1000, 1000, 1000, 1000, 1000, 1000, 2};
        double[] durations = {1.005, 1, 1, 1, 1, 1, 1, 1, 0.002};
        Fixtures f = new Fixtures();
        f.result(ClaimCatalog.COLD_L7, "ss", "s/op").forks(30).add();
        f.side(ClaimCatalog.COLD_L7, 0, requests, durations, Fixtures.distribution(1), null, null, null);
        Measurements m = f.measurements(dir);
        SideFile side = m.sideFiles(m.results().get(0)).get(0);
        assertEquals(0.4, ClaimCatalog.coldShare(side), 1e-12);
        // Counted as whole seconds, the last five entries average 800/s: a share of 0.5025.
        double countedWhole = 402 / ((1000 + 1000 + 1000 + 1000 + 2) / 5.0);
        assertEquals(0.5025, countedWhole, 1e-3);
    }

    @Test
    void theCommittedColdStartsRecomputeTo0point0191(@TempDir Path out) throws Exception {
        // docs/results/2026-11-23/claims: three cold L7 forks; its report says 0.0206 [0.0136, 0.0311], computed with
        // the per-second entries counted as whole seconds. Weighted by their durations: 0.0191.
        Measurements m = Measurements.load(List.of(COMMITTED.resolve("results.json")));
        JmhResult l7 = m.results().stream().filter(r -> r.shortName().equals(ClaimCatalog.WARMUP_E2E)
                && "7".equals(r.param("layer"))).findFirst().orElseThrow();
        List<SideFile> files = m.sideFiles(l7);
        assertEquals(3, files.size(), "one side file per fork of that run");
        double[] share = files.stream().mapToDouble(ClaimCatalog::coldShare).toArray();
        // fork 10568 ended with a 1 ms entry of 19 requests: 0.0199 counted whole, 0.0161 by duration.
        assertEquals(0.01608, share[1], 5e-5);
        double geometricMean = Math.exp((Math.log(share[0]) + Math.log(share[1]) + Math.log(share[2])) / 3);
        assertEquals(0.0191, geometricMean, 5e-5);
        String committed = Files.readString(COMMITTED.resolve("report.md"));
        assertTrue(committed.contains("0.0206 [0.0136, 0.0311]"), "the committed record is left as it was");
        JmhResult l4 = m.results().stream().filter(r -> r.shortName().equals(ClaimCatalog.WARMUP_E2E)
                && "4".equals(r.param("layer"))).findFirst().orElseThrow();
        double[] l4Share = m.sideFiles(l4).stream().mapToDouble(ClaimCatalog::coldShare).toArray();
        assertEquals(0.155, l4Share[0], 5e-4, "0.19 counted whole");
        assertEquals(0.079, l4Share[2], 5e-4, "0.10 counted whole");
        assertTrue(m.foreignSideFiles() > 0, "the committed folder also holds other runs' and tests' side files");
        assertTrue(EndToEndMetrics.SIDE_FILE_DIR.equals("e2e"));
    }
}
