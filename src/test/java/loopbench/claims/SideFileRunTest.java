package loopbench.claims;

import com.google.gson.JsonObject;
import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The side-file folder is shared by every run that writes into it (nobody clears it). A result reads only the side
 * files of its own run and arm; the others are counted and the report says so.
 */
class SideFileRunTest {
    private static final long[] SERIES = {300, 600, 800, 900, 1000, 1000, 1000, 1000, 1000, 1000};

    @Test
    void aResultReadsOnlyItsOwnRunsSideFiles(@TempDir Path dir) throws Exception {
        Fixtures f = new Fixtures();
        f.result(ClaimCatalog.COLD_L7, "ss", "s/op").forks(30, 30).inRounds(1, 2).add();
        // This run's two forks...
        f.side(ClaimCatalog.COLD_L7, 11, SERIES, null, Fixtures.distribution(1), Fixtures.RUN, 1, null)
                .side(ClaimCatalog.COLD_L7, 12, SERIES, null, Fixtures.distribution(1), Fixtures.RUN, 2, null);
        // ...an earlier run's fork of the same configuration, a test's file without a run, another arm's.
        f.side(ClaimCatalog.COLD_L7, 5, new long[] {1, 1, 1, 1, 1, 1, 1, 1, 1, 1000}, null, Fixtures.distribution(1),
                        "run-0", 1, null)
                .side(ClaimCatalog.COLD_L7, 6, SERIES, Fixtures.distribution(1))
                .side(ClaimCatalog.COLD_L7, 13, SERIES, null, Fixtures.distribution(1), Fixtures.RUN, 3, "other arm");
        Measurements m = f.measurements(dir);
        JmhResult r = m.results().get(0);
        List<SideFile> own = m.sideFiles(r);
        assertEquals(List.of(11L, 12L), own.stream().map(SideFile::fork).toList());
        assertEquals(3, m.foreignSideFiles());
        ForkValues v = ClaimCatalog.COLD_SHARE.forkValues(r, m);
        assertEquals(2, v.size(), "two forks, two values: nothing pooled from other runs");
        assertEquals(List.of(1, 2), List.of(v.rounds()[0], v.rounds()[1]));

        ClaimsReport.Written w = ClaimsReport.write(m, dir.resolve("out"), List.of(ClaimCatalog.byId().get("C002-2")));
        String md = Files.readString(w.markdown());
        assertTrue(md.contains("3 side file(s) next to the input belong to no result read here"), md);
        assertTrue(md.contains("of run " + Fixtures.RUN), md);
    }

    /**
     * Two gateways measured with the same parameters (nginx and HAProxy as layer=external, plain JMH runs without a
     * run id) differ only in their command templates: each result reads the side files of its own gateway, and an
     * older side file that names no template is taken by both, as before.
     */
    @Test
    void eachExternalGatewayReadsOnlyItsOwnSideFiles(@TempDir Path dir) throws Exception {
        Selection s = ClaimCatalog.COLD_L7;
        Fixtures f = new Fixtures();
        String property = "-D" + EndToEndMetrics.EXTERNAL_PROXY_PROPERTY + "=";
        f.result(s, "ss", "s/op").forks(30).jvmArg(property + "nginx -c a.conf").add();
        f.result(s, "ss", "s/op").forks(30).jvmArg(property + "haproxy -f b.cfg").add();
        List<JmhResult> results = f.results();
        SideFile nginx = side(dir, s, 1, "nginx -c a.conf");
        SideFile haproxy = side(dir, s, 2, "haproxy -f b.cfg");
        SideFile older = side(dir, s, 3, null);
        assertEquals("nginx -c a.conf", nginx.externalTemplate());
        assertTrue(nginx.matches(results.get(0)));
        assertFalse(nginx.matches(results.get(1)));
        assertTrue(haproxy.matches(results.get(1)));
        assertFalse(haproxy.matches(results.get(0)));
        assertTrue(older.matches(results.get(0)) && older.matches(results.get(1)));
    }

    /**
     * The same line on Netty 4.1 and 4.2 (two groups of one run, the same benchmark, parameters and arm label): each
     * result reads the side files of its own group only (they name the Netty each server ran).
     */
    @Test
    void twoGroupsWithTheSameArmEachReadTheirOwnSideFiles(@TempDir Path dir) throws Exception {
        Selection s = ClaimCatalog.COLD_L7;
        Fixtures f = new Fixtures();
        f.result(s, "ss", "s/op").forks(30).rounds(Fixtures.RUN, "line-41", "a01", 1).add();
        f.result(s, "ss", "s/op").forks(30).rounds(Fixtures.RUN, "line-42", "a01", 1).add();
        List<JmhResult> results = f.results();
        SideFile of41 = grouped(dir, s, 1, "line-41");
        SideFile of42 = grouped(dir, s, 2, "line-42");
        assertTrue(of41.matches(results.get(0)));
        assertFalse(of41.matches(results.get(1)));
        assertTrue(of42.matches(results.get(1)));
        assertFalse(of42.matches(results.get(0)));
    }

    private static SideFile grouped(Path dir, Selection s, int fork, String group) throws Exception {
        JsonObject o = Fixtures.sideFile(s, fork);
        o.addProperty("run", Fixtures.RUN);
        o.addProperty("group", group);
        o.addProperty("arm", "a01");
        o.addProperty("round", 1);
        o.add("load", new JsonObject());
        return SideFile.read(Files.writeString(dir.resolve("grouped-" + fork + ".json"), o.toString()));
    }

    private static SideFile side(Path dir, Selection s, int fork, String template) throws Exception {
        JsonObject o = Fixtures.sideFile(s, fork);
        o.add("load", new JsonObject());
        JsonObject stack = new JsonObject();
        JsonObject proxy = new JsonObject();
        if (template != null) {
            proxy.addProperty(EndToEndMetrics.EXTERNAL, template);
        }
        stack.add("proxy", proxy);
        o.add("stack", stack);
        Path file = Files.writeString(dir.resolve("side-" + fork + ".json"), o.toString());
        return SideFile.read(file);
    }

    @Test
    void resultsWithoutARunIdReadOnlySideFilesWithoutOne(@TempDir Path dir) throws Exception {
        Fixtures f = new Fixtures();
        f.result(ClaimCatalog.COLD_L7, "ss", "s/op").forks(30).add();
        f.side(ClaimCatalog.COLD_L7, 1, SERIES, Fixtures.distribution(1))
                .side(ClaimCatalog.COLD_L7, 2, SERIES, null, Fixtures.distribution(1), "run-9", 1, null);
        Measurements m = f.measurements(dir);
        assertEquals(List.of(1L), m.sideFiles(m.results().get(0)).stream().map(SideFile::fork).toList());
        String md = Files.readString(ClaimsReport.write(m, dir.resolve("out"),
                List.of(ClaimCatalog.byId().get("C002-2"))).markdown());
        assertTrue(md.contains("The results carry no run id"), md);
    }
}
