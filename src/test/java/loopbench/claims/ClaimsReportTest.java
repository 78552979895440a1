package loopbench.claims;

import loopbench.flame.FlameGraphs;
import loopbench.report.EndToEndMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report as written: every claim once, the machine first, self-contained HTML, relative links. */
class ClaimsReportTest {

    private static long count(String text, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(text);
        long n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void everyClaimHasExactlyOneSectionAndOneVerdictRow(@TempDir Path dir) throws Exception {
        Path json = Fixtures.everything().write(dir.resolve("run"));
        ClaimsReport.Written w = ClaimsReport.write(List.of(json), dir.resolve("out"), ClaimCatalog.all());
        String md = Files.readString(w.markdown());
        String html = Files.readString(w.html());
        assertEquals(20, ClaimCatalog.all().size());
        for (Claim c : ClaimCatalog.all()) {
            String id = Pattern.quote(c.id());
            assertEquals(1, count(md, "^## " + id + ": "), c.id() + " section in report.md");
            assertEquals(1, count(md, "^\\| " + id + " \\|"), c.id() + " verdict row in report.md");
            assertEquals(1, count(html, "<h2 id=\"" + id + "\">"), c.id() + " section in report.html");
            assertEquals(1, count(html, "<tr><td>" + id + "</td>"), c.id() + " verdict row in report.html");
        }
        assertEquals(0, w.count(Verdict.MISSING), w::summary);
        assertTrue(md.indexOf("## The machine") < md.indexOf("## Verdicts"), "the report opens with the machine");
        assertTrue(md.contains("recorded by the suite") || md.contains("where this report was generated"));
        assertTrue(md.contains("the results' JSON (JMH)"));
    }

    @Test
    void theHtmlHasNoExternalReferences(@TempDir Path dir) throws Exception {
        Path json = Fixtures.everything().write(dir.resolve("run"));
        Path graph = dir.resolve("run").resolve(FlameGraphs.SUITE_DIR)
                .resolve(FlameGraphs.directoryName("loopbench.bench." + ClaimCatalog.L4_RST.benchmark(),
                        ClaimCatalog.L4_RST.params()))
                .resolve("cpu-proxy.html");
        Files.createDirectories(graph.getParent());
        Files.writeString(graph, "<html>flame</html>");
        ClaimsReport.Written w = ClaimsReport.write(List.of(json), dir.resolve("out"), ClaimCatalog.all());
        String html = Files.readString(w.html(), StandardCharsets.UTF_8);

        List<String> bad = new ArrayList<>();
        Matcher attr = Pattern.compile("(?i)\\b(src|href|action|poster|data)\\s*=\\s*\"([^\"]*)\"").matcher(html);
        int images = 0;
        int links = 0;
        while (attr.find()) {
            String name = attr.group(1).toLowerCase();
            String value = attr.group(2);
            if (name.equals("src")) {
                images++;
                if (!value.startsWith("data:image/png;base64,")) {
                    bad.add("src=" + value);
                }
            } else if (name.equals("href")) {
                links++;
                if (value.contains("://") || value.startsWith("//") || value.startsWith("/") || value.contains(":")) {
                    bad.add("href=" + value);
                }
            } else {
                bad.add(name + "=" + value);
            }
        }
        assertTrue(bad.isEmpty(), () -> "external references: " + bad);
        assertFalse(Pattern.compile("(?i)<(script|link|iframe|object|embed)\\b").matcher(html).find(),
                "no scripts, stylesheets or frames");
        assertFalse(Pattern.compile("(?i)url\\(|@import|https?://").matcher(html).find(), "no URLs at all");
        assertTrue(images >= 10, "charts are embedded: " + images);
        assertTrue(links >= 1, "the flame graph is linked");
        // The flame graph link is relative to the report and resolves.
        Matcher href = Pattern.compile("href=\"([^\"]*cpu-proxy.html)\"").matcher(html);
        assertTrue(href.find(), "a link to the flame graph");
        assertTrue(Files.isRegularFile(w.html().getParent().resolve(href.group(1))), href.group(1));
    }

    @Test
    void theMarkdownLinksItsChartsRelatively(@TempDir Path dir) throws Exception {
        Path json = Fixtures.everything().write(dir.resolve("run"));
        ClaimsReport.Written w = ClaimsReport.write(List.of(json), dir.resolve("out"), ClaimCatalog.all());
        String md = Files.readString(w.markdown());
        Matcher img = Pattern.compile("!\\[[^]]*]\\(([^)]+)\\)").matcher(md);
        int n = 0;
        while (img.find()) {
            n++;
            Path png = w.markdown().getParent().resolve(img.group(1));
            assertTrue(img.group(1).startsWith(ClaimsReport.CHARTS + "/") && Files.isRegularFile(png), img.group(1));
        }
        assertEquals(w.charts().size(), Files.list(w.markdown().getParent().resolve(ClaimsReport.CHARTS)).count());
        assertTrue(n >= w.charts().size(), "every chart is shown at least once");
    }

    @Test
    void aMissingClaimNamesItsLabelledLineAndReproduceCommands(@TempDir Path dir) throws Exception {
        Fixtures f = new Fixtures().thrpt(ClaimCatalog.DIRECT, 100, 101, 99);
        ClaimsReport.Written w = ClaimsReport.write(List.of(f.write(dir)), dir.resolve("out"),
                List.of(ClaimCatalog.byId().get("C000-1").asJudged(Fixtures.RUN)));
        String md = Files.readString(w.markdown());
        assertTrue(md.contains("**Verdict: MISSING**"), md);
        assertTrue(md.contains("**Not measured in the input.** Produced by the line labelled `proxy-64` of "
                + "profiles/claims.jmh"), md);
        assertTrue(md.contains("grep -E '\\[label=(proxy-64|direct-64|pipeline)\\]' profiles/claims.jmh > C000-1.jmh\n"
                + "./mvnw -Pjmh verify -Djmh.profile=C000-1.jmh\n"
                + "java -jar target/loopbench.jar claims target/jmh/results.json --claim C000-1"), md);
    }

    @Test
    void aClaimOnTheNetty41JarSaysHowToBuildIt() {
        ClaimResult r = ClaimResult.evaluate(ClaimCatalog.byId().get("C004-1"), Measurements.of(List.of(), List.of()));
        assertEquals(Verdict.MISSING, r.verdict());
        assertTrue(r.reason().contains("`epoll41-side-by-side`") && r.reason().contains("[jar=netty-4.1]")
                && r.reason().contains(Group.NETTY_41_BUILD), r::reason);
        assertTrue(ClaimsReport.reproduce(r.claim()).contains(Group.NETTY_41_BUILD));
    }

    @Test
    void eachEndToEndResultShowsItsPlacementCpusAndCpuUseInTheMachineSectionAndBesideIt(@TempDir Path dir)
            throws Exception {
        Path json = Fixtures.everything().write(dir.resolve("run"));
        ClaimsReport.Written w = ClaimsReport.write(List.of(json), dir.resolve("out"), ClaimCatalog.all());
        String md = Files.readString(w.markdown());
        String machine = md.substring(md.indexOf("## The machine"), md.indexOf("## Verdicts"));
        assertTrue(machine.contains("**Where each end-to-end process ran**"), machine);
        assertTrue(machine.contains("| pinned | client 0, origin 0, proxy 1 | client 0.60 of 1 CPU, origin 0.35 of 1 "
                + "CPU, proxy 0.95 of 1 CPU (saturated) | 3 |"), machine);
        String c0001 = md.substring(md.indexOf("## C000-1:"), md.indexOf("## C000-2:"));
        assertTrue(c0001.contains("| L4 reuse-server-thread (`proxy-64`) | pinned | client 0, origin 0, proxy 1 |"),
                c0001);
        assertTrue(c0001.contains("paired t on per-round log ratios, 3 pairs"), c0001);
        assertTrue(c0001.contains("L4 proxy CPU use (of its CPU) | proxy CPU use | 0.950 CPUs"), c0001);
    }

    @Test
    void aVerdictOnFewerRoundsThanTheProfileAssignsIsProvisional(@TempDir Path dir) throws Exception {
        // direct-64 has 3 rounds in profiles/claims.jmh (proxy-64 6): C000-1 pairs them on at most 3; these have 2.
        Fixtures f = new Fixtures();
        f.result(ClaimCatalog.DIRECT, "thrpt", "ops/s").forks(100_000, 99_000).inRounds(1, 2).add();
        f.result(ClaimCatalog.L4_RST, "thrpt", "ops/s").forks(96_000, 95_500).inRounds(1, 2).add();
        ClaimsReport.Written w = ClaimsReport.write(List.of(f.write(dir)), dir.resolve("out"),
                List.of(ClaimCatalog.byId().get("C000-1").asJudged(Fixtures.RUN)));
        ClaimResult r = w.results().get(0);
        assertEquals(Verdict.CONFIRMED, r.verdict(), r::reason);
        assertEquals("2 of 3 rounds", r.provisional());
        String md = Files.readString(w.markdown());
        assertTrue(md.contains("**Verdict: CONFIRMED (provisional: 2 of 3 rounds)**"), md);
        assertTrue(md.contains("| CONFIRMED | paired t on per-round log ratios, 2 pairs; provisional: 2 of 3 rounds |"),
                md);
        String json = Files.readString(w.json());
        assertTrue(json.contains("\"provisional\": \"2 of 3 rounds\""), json);
        assertTrue(w.summary().endsWith("(1 provisional)"), w.summary());
    }

    @Test
    void aPairedVerdictOnAllTheRoundsOfItsShorterGroupIsNotProvisional(@TempDir Path dir) throws Exception {
        Fixtures f = new Fixtures();
        f.result(ClaimCatalog.DIRECT, "thrpt", "ops/s").forks(100_000, 99_000, 101_000).inRounds(1, 2, 3).add();
        f.result(ClaimCatalog.L4_RST, "thrpt", "ops/s").forks(96_000, 95_500, 96_500, 95_000, 96_000, 95_800)
                .inRounds(1, 2, 3, 4, 5, 6).add();
        ClaimsReport.Written w = ClaimsReport.write(List.of(f.write(dir)), dir.resolve("out"),
                List.of(ClaimCatalog.byId().get("C000-1").asJudged(Fixtures.RUN)));
        ClaimResult r = w.results().get(0);
        assertEquals(3, r.decisive().get(0).basis().n(), "three pairs: direct-64 runs three rounds");
        assertNull(r.provisional(), "direct-64's 3 rounds are all it is asked for");
    }

    @Test
    void aThroughputVerdictOnASaturatedGeneratorCarriesACaution(@TempDir Path dir) throws Exception {
        // A committed run: C004-1's generator used 0.95-0.98 of its CPU in every arm; C000-1's (proxy-64) 0.5-0.6.
        Path run = Path.of("docs/results/2026-11-25/claims-run-2/results.json");
        ClaimsReport.Written w = ClaimsReport.write(List.of(run), dir.resolve("out"),
                List.of(ClaimCatalog.byId().get("C004-1"), ClaimCatalog.byId().get("C000-1").asJudged(Fixtures.RUN)));
        String md = Files.readString(w.markdown());
        String c0041 = section(md, "C004-1");
        String c0001 = section(md, "C000-1");
        assertTrue(c0041.contains("**Caution: the load generator was saturated** (it used 90% or more of its CPUs) "
                + "in 4.1 ET+ET (`epoll41`), 4.1 LT+LT (`epoll41`): the throughput there is bounded by the generator"),
                c0041);
        assertFalse(c0001.contains("Caution: the load generator"), c0001);
        String json = Files.readString(w.markdown().resolveSibling(ClaimsReport.JSON));
        assertEquals(1, Pattern.compile("\"saturatedGenerator\"").matcher(json).results().count(), json);
    }

    /**
     * A fork whose proxy's JIT compiler threads took more than 2% of its CPU in the measured iteration was not warm:
     * the claims its checks decide carry a caution naming the arm, the forks and the largest share; where every fork
     * was quiet, or the figure was not recorded (runs from before it existed), none.
     */
    @Test
    void aVerdictOnForksStillCompilingCarriesACaution(@TempDir Path dir) throws Exception {
        Fixtures f = new Fixtures();
        String cpu = EndToEndMetrics.cpu(EndToEndMetrics.PROXY);
        String jit = EndToEndMetrics.jit(EndToEndMetrics.PROXY);
        f.result(ClaimCatalog.L4_RST, "thrpt", "ops/s").forks(50_000, 51_000, 49_000).inRounds(1, 2, 3)
                .secondaryForks(cpu, "us", 16, 16.5, 15.5).secondaryForks(jit, "us", 0.1, 0, 0.2).add();
        f.result(ClaimCatalog.L7_RST, "thrpt", "ops/s").forks(40_000, 41_000, 39_000).inRounds(1, 2, 3)
                .secondaryForks(cpu, "us", 24, 30, 23).secondaryForks(jit, "us", 0.2, 1.5, 0.9).add();
        f.result(ClaimCatalog.DIRECT, "thrpt", "ops/s").forks(100_000, 99_000, 101_000).inRounds(1, 2, 3).add();
        ClaimsReport.Written w = ClaimsReport.write(List.of(f.write(dir)), dir.resolve("out"),
                List.of(ClaimCatalog.byId().get("C000-2"), ClaimCatalog.byId().get("C000-1").asJudged(Fixtures.RUN)));
        String md = Files.readString(w.markdown());
        String c0002 = section(md, "C000-2");
        assertTrue(c0002.contains("**Caution: a server was still compiling when it was measured** (its JIT compiler "
                + "threads used more than 2% of its CPU in the measured iteration): the proxy of L7 "
                + "reuse-server-thread (`proxy-64`) in 2 of 3 forks (up to 5% of its CPU)"), c0002);
        assertFalse(c0002.contains("of L4 reuse-server-thread"), "L4's forks were quiet (at most 1.3%): " + c0002);
        assertFalse(section(md, "C000-1").contains("still compiling"),
                "C000-1 reads direct (no JIT figure) and L4 (quiet)");
        String json = Files.readString(w.json());
        assertEquals(1, Pattern.compile("\"stillCompiling\"").matcher(json).results().count(), json);
    }

    /** A cold start compiles by design: C002-2's cold proxy, however busy its JIT, carries no such caution. */
    @Test
    void aColdStartIsNotCautionedForCompiling(@TempDir Path dir) throws Exception {
        Fixtures f = new Fixtures();
        for (Selection cold : List.of(ClaimCatalog.COLD_L4, ClaimCatalog.COLD_L7)) {
            f.result(cold, "thrpt", "ops/s").forks(20_000, 21_000, 19_000).inRounds(1, 2, 3)
                    .secondaryForks(EndToEndMetrics.cpu(EndToEndMetrics.PROXY), "us", 60, 70, 65)
                    .secondaryForks(EndToEndMetrics.jit(EndToEndMetrics.PROXY), "us", 20, 25, 22).add();
        }
        Measurements m = Measurements.load(List.of(f.write(dir)));
        ClaimResult r = ClaimResult.evaluate(ClaimCatalog.byId().get("C002-2"), m);
        assertFalse(r.decisive().isEmpty());
        assertNull(ClaimsReport.stillCompiling(r, m), "a cold start is the experiment");
    }

    /** The report's section of one claim, up to the next heading of its level. */
    private static String section(String md, String id) {
        int start = md.indexOf("## " + id + ":");
        assertTrue(start >= 0, id + " has a section");
        int end = md.indexOf("\n## ", start + 1);
        return end < 0 ? md.substring(start) : md.substring(start, end);
    }
}
