package loopbench.claims;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import loopbench.report.AtomicFile;
import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;
import org.knowm.xchart.internal.chartpart.Chart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The claims report: every claim's verdict with its evidence, from JMH JSON results, as {@code DIR/report.md}
 * (charts as {@code DIR/charts/*.png}), a self-contained {@code DIR/report.html} (the same content, charts
 * embedded) and {@code DIR/report.json} (verdicts and every check's figures, for tools and for the test that keeps
 * committed runs honest). Opens with the machine and where each process ran, then a verdict table, then one section
 * per claim: the claim and the article's figure, the verdict and why, the checks with their 95% intervals and how
 * they were computed (method, rounds or forks), the results read with their placement, the measured figures,
 * charts, flame graphs when they were taken, and the commands that reproduce it.
 */
public final class ClaimsReport {
    public static final String MARKDOWN = "report.md";
    public static final String HTML = "report.html";
    public static final String JSON = "report.json";
    public static final String CHARTS = "charts";

    private ClaimsReport() {
    }

    /** What was written. */
    public record Written(Path markdown, Path html, Path json, List<ClaimResult> results, Map<String, Path> charts) {
        public long count(Verdict v) {
            return results.stream().filter(r -> r.verdict() == v).count();
        }

        /** "3 CONFIRMED, 1 REFUTED, ..." */
        public String summary() {
            return ClaimsReport.summary(results);
        }
    }

    /** Reads the JSON files (and their side files, flame graphs, machine.json), writes the report into {@code out}. */
    public static Written write(List<Path> jsonFiles, Path out, List<Claim> claims) throws IOException {
        return write(Measurements.load(jsonFiles), out, claims, Peers.none());
    }

    /** As {@link #write(List, Path, List)}, with gateways measured apart shown beside the claims that name them. */
    public static Written write(List<Path> jsonFiles, Path out, List<Claim> claims, Peers peers) throws IOException {
        return write(Measurements.load(jsonFiles), out, claims, peers);
    }

    public static Written write(Measurements m, Path out, List<Claim> claims) throws IOException {
        return write(m, out, claims, Peers.none());
    }

    public static Written write(Measurements m, Path out, List<Claim> claims, Peers peers) throws IOException {
        Path dir = out.toAbsolutePath().normalize();
        Files.createDirectories(dir.resolve(CHARTS));
        List<ClaimResult> results = claims.stream().map(c -> ClaimResult.evaluate(c, m)).toList();
        // Each claim's gateways measured apart, evaluated once for the page and the JSON.
        Map<String, List<Peers.Row>> peerRows = new LinkedHashMap<>();
        claims.forEach(c -> peerRows.put(c.id(), peers.rows(c)));
        // Likewise each claim's cautions: a saturated load generator, servers still compiling (null if none).
        Map<String, Cautions> cautions = new LinkedHashMap<>();
        results.forEach(r -> cautions.put(r.claim().id(),
                new Cautions(saturatedGenerator(r, m), stillCompiling(r, m))));

        Map<String, byte[]> pngs = new LinkedHashMap<>();
        Map<String, Path> chartFiles = new LinkedHashMap<>();
        for (Claim c : claims) {
            for (ChartSpec spec : c.charts()) {
                if (pngs.containsKey(spec.id())) {
                    continue;
                }
                Chart<?, ?> chart = Charts.draw(spec, m);
                if (chart == null) {
                    continue;
                }
                byte[] png = Charts.png(chart);
                Path file = dir.resolve(CHARTS).resolve(spec.id() + ".png");
                AtomicFile.write(file, png);
                pngs.put(spec.id(), png);
                chartFiles.put(spec.id(), file);
            }
        }

        ReportPage page = new ReportPage("loopbench: the claims, measured");
        page.paragraph("Each claim comes from a published article; each is tested here by the experiments of "
                + "`profiles/claims.jmh` (CLAIMS.md says how, claim by claim). A verdict rests on ratios of per-fork "
                + "means with 95% confidence intervals: the paired t on per-round log ratios when both configurations "
                + "ran in the same randomized, interleaved rounds (forks matched by round), the one-sample t against "
                + "a constant, Welch's t for forks outside rounds. **CONFIRMED** when every decisive interval lies "
                + "inside its claimed region, **REFUTED** when one lies outside (Holm-corrected over the claim's "
                + "checks; an interval wholly within a stated equivalence margin reads \"no effect beyond ±m\"), "
                + "**INCONCLUSIVE** when an interval straddles a boundary (with the rounds that would decide it at "
                + "that run's estimate and noise), **NOT-TESTABLE-HERE** when this machine "
                + "did not produce the conditions, **MISSING** when the results are not in the input (the labelled "
                + "line of `profiles/claims.jmh` that produces them is named). A verdict is **provisional** when it "
                + "rests on fewer rounds than `profiles/claims.jmh` assigns.");
        page.paragraph("Input: " + (m.sources().isEmpty() ? "(results given directly)"
                : m.sources().stream().map(p -> "`" + p + "`").collect(Collectors.joining(", ")))
                + ". " + m.results().size() + " result(s)" + runs(m) + ". Verdicts: " + summary(results) + "."
                + (peers.isEmpty() ? "" : " Gateways measured apart (decide nothing): " + peers.targets().stream()
                .map(t -> t.name() + " (`" + relative(dir, t.source()) + "`)")
                .collect(Collectors.joining(", ")) + "."));
        List<String> notes = new ArrayList<>();
        m.problems().forEach(p -> notes.add("unreadable side file: " + p));
        int foreign = m.foreignSideFiles();
        if (foreign > 0) {
            notes.add(foreign + " side file(s) next to the input belong to no result read here (other runs, tests, "
                    + "other parameters) and were left out.");
        }
        if (m.runs().isEmpty() && !m.ownSideFiles().isEmpty()) {
            notes.add("The results carry no run id: their side files were matched by benchmark and parameters "
                    + "only.");
        }
        if (!notes.isEmpty()) {
            page.bullets(notes);
        }

        page.heading(2, "The machine", "machine");
        page.table(List.of("", "value", "source"),
                Machine.describe(m).stream().map(r -> List.of(r.what(), r.value(), r.source())).toList());
        List<List<String>> placements = placementRows(m, m.results().stream().filter(ClaimsReport::endToEnd).toList());
        if (!placements.isEmpty()) {
            page.paragraph("**Where each end-to-end process ran** (the `placement` parameter; the CPUs each process "
                    + "had, read back from /proc; its CPU use over the measurement, in CPUs), from the side files "
                    + "of each result's own run:");
            page.table(PLACEMENT_HEADER, placements);
        }

        page.heading(2, "Verdicts", "verdicts");
        List<List<String>> rows = new ArrayList<>();
        for (ClaimResult r : results) {
            CheckResult headline = headline(r);
            String effect = headline == null ? "-"
                    : (r.decisive().contains(headline) ? "" : "(supporting) ") + headline.check().label() + ": "
                    + headline.effect();
            String basis = headline == null ? "-" : headline.basisText()
                    + (r.provisional() == null ? "" : "; provisional: " + r.provisional());
            rows.add(List.of(r.claim().id(), r.claim().title(), r.claim().figure(), effect, r.verdict().label(),
                    basis));
        }
        page.table(List.of("claim", "", "article's figure", "measured effect (95% CI)", "verdict", "basis"), rows);

        for (ClaimResult r : results) {
            section(page, r, m, dir, pngs, peerRows.get(r.claim().id()), cautions.get(r.claim().id()));
        }
        page.heading(2, "How to read the numbers", "method");
        page.bullets(List.of(
                "A ratio is of geometric means of per-fork means (each fork's mean over its measurement iterations); "
                        + "its 95% interval comes from the spread of the per-round log ratios (paired) or of the "
                        + "fork means (Welch, one-sample), so it includes fork-to-fork variation. Counters that are "
                        + "exact (bytes per request) give a point interval.",
                "Paired: each round ran one fork of every configuration of a group, in random order; a round that "
                        + "one configuration lacks (a failed fork) has no pair and is dropped, and the method says how "
                        + "many were.",
                "p for / p against: one-sided p-values that the ratio lies inside / outside the claimed region; a "
                        + "check is confirmed when p for < 0.025 (its 95% interval lies inside), refuted when p "
                        + "against < 0.025. For a claim, the p-values against are Holm-adjusted over its decisive "
                        + "checks.",
                "Figures are means of the fork means with the half-width of their 95% t interval.",
                "Bars show the same means and intervals (whiskers); a configuration with no result has no bar.",
                "Timings come from a 2-core machine others may share: prefer the ratios, CPU per request and the "
                        + "exact counters to absolute throughput."));
        Path md = dir.resolve(MARKDOWN);
        Path html = dir.resolve(HTML);
        Path json = dir.resolve(JSON);
        AtomicFile.write(md, page.markdown().getBytes(StandardCharsets.UTF_8));
        AtomicFile.write(html, page.html().getBytes(StandardCharsets.UTF_8));
        AtomicFile.write(json, json(results, m, peers, dir, peerRows, cautions).getBytes(StandardCharsets.UTF_8));
        return new Written(md, html, json, results, chartFiles);
    }

    private static final List<String> PLACEMENT_HEADER = List.of("result", "placement", "CPUs each process had",
            "CPU use (CPUs)", "trials");

    /**
     * A caution when a decisive throughput check rests on end-to-end results whose load generator was saturated: its
     * throughput there is bounded by the generator's own CPU, so the check answers this machine's generator as much as
     * the claim. The verdict still follows its rule (written before the data); the caution says how to read it.
     */
    static String saturatedGenerator(ClaimResult r, Measurements m) {
        Set<String> arms = new LinkedHashSet<>();
        for (CheckResult x : r.decisive()) {
            if (!x.check().statistic().name().equals(ClaimCatalog.THROUGHPUT.name())) {
                continue;
            }
            for (Selection s : x.check().selections()) {
                JmhResult res = m.find(s);
                if (res != null && endToEnd(res) && Placement.of(res, m).saturated("client")) {
                    arms.add(s.label() + " (`" + s.group().label() + "`)");
                }
            }
        }
        if (arms.isEmpty()) {
            return null;
        }
        return "**Caution: the load generator was saturated** (it used 90% or more of its CPUs) in "
                + String.join(", ", arms) + ": the throughput there is bounded by the generator, so the decisive "
                + "throughput check measures the generator's pace as much as the servers'. The verdict follows its "
                + "rule, written before the data; read it as an answer about this machine's generator as much as about "
                + "the claim.";
    }

    /**
     * Benchmarks that measure a server before it settles, on purpose: a cold start (C002-2), and memory read right
     * after a burst (N-1). Their compiling servers are the experiment, not a flaw of it.
     */
    static final Set<String> NOT_STEADY_BY_DESIGN = Set.of("ProxyWarmupBenchmark", "MemoryEndToEndBenchmark");

    /** The share of a server's CPU its JIT compiler threads may take in a measured iteration before a caution. */
    static final double COMPILING_SHARE = 0.02;

    /**
     * A caution when a decisive check rests on end-to-end forks in whose measured iteration a server process was
     * still compiling: its JIT compiler threads ({@code e2e.ROLE.jit}) used more than {@value #COMPILING_SHARE} of
     * its CPU per request. Such a fork was not warm: its figures include the compiler's CPU and code that had not yet
     * reached its optimized form. Results measured before the figure existed have no caution, nor do the benchmarks
     * {@link #NOT_STEADY_BY_DESIGN}.
     */
    static String stillCompiling(ClaimResult r, Measurements m) {
        Set<String> found = new LinkedHashSet<>();
        for (CheckResult x : r.decisive()) {
            for (Selection s : x.check().selections()) {
                JmhResult res = NOT_STEADY_BY_DESIGN.contains(s.className()) ? null : m.find(s);
                for (String role : List.of(EndToEndMetrics.PROXY, EndToEndMetrics.ORIGIN, EndToEndMetrics.ECHO)) {
                    String forks = res == null ? null : compilingForks(res, role);
                    if (forks != null) {
                        found.add("the " + role + " of " + s.label() + " (`" + s.group().label() + "`) in " + forks);
                    }
                }
            }
        }
        if (found.isEmpty()) {
            return null;
        }
        return "**Caution: a server was still compiling when it was measured** (its JIT compiler threads used more "
                + "than " + Math.round(COMPILING_SHARE * 100) + "% of its CPU in the measured iteration): "
                + String.join(", ", found) + ". Those forks were not warm; a longer warm-up would measure the code the "
                + "server settles on. The verdict follows its rule, written before the data.";
    }

    /** "2 of 3 forks (up to 5% of its CPU)": the forks of {@code r} whose {@code role} was compiling, or null. */
    private static String compilingForks(JmhResult r, String role) {
        JmhResult.Metric jit = r.metric(EndToEndMetrics.jit(role));
        JmhResult.Metric cpu = r.metric(EndToEndMetrics.cpu(role));
        if (jit == null || cpu == null || jit.forkMeans().length != cpu.forkMeans().length) {
            return null;
        }
        double[] j = jit.forkMeans();
        double[] c = cpu.forkMeans();
        int forks = 0;
        double most = 0;
        for (int i = 0; i < j.length; i++) {
            double share = c[i] > 0 ? j[i] / c[i] : 0;
            if (share > COMPILING_SHARE) {
                forks++;
                most = Math.max(most, share);
            }
        }
        return forks == 0 ? null
                : String.format(Locale.ROOT, "%d of %d forks (up to %.0f%% of its CPU)", forks, j.length, most * 100);
    }

    /** A claim's cautions on the page and in report.json, each null when it does not apply. */
    record Cautions(String saturatedGenerator, String stillCompiling) {
    }

    private static String relative(Path dir, Path file) {
        return dir.relativize(file.toAbsolutePath().normalize()).toString();
    }

    private static boolean endToEnd(JmhResult r) {
        return r.param(ClaimCatalog.PLACEMENT) != null
                || r.secondaryNames().stream().anyMatch(n -> n.startsWith("e2e."));
    }

    private static List<List<String>> placementRows(Measurements m, List<JmhResult> results) {
        List<List<String>> rows = new ArrayList<>();
        for (JmhResult r : results) {
            Placement p = Placement.of(r, m);
            rows.add(List.of(resultName(r), p.paramText(), p.cpusText(), p.useText(), Integer.toString(p.trials())));
        }
        return rows;
    }

    /** "ProxyEndToEndBenchmark.requests {layer=4, ...} (group proxy-64)". */
    private static String resultName(JmhResult r) {
        return r.key() + (r.origin().isEmpty() ? "" : " (" + r.origin() + ")");
    }

    private static String runs(Measurements m) {
        Set<String> runs = m.runs();
        return runs.isEmpty() ? "" : " of run " + String.join(", ", runs);
    }

    private static void section(ReportPage page, ClaimResult r, Measurements m, Path dir, Map<String, byte[]> pngs,
                                List<Peers.Row> peerRows, Cautions cautions) {
        Claim c = r.claim();
        page.heading(2, c.id() + ": " + c.title(), c.id());
        page.verdict(r.verdict(), r.provisional() == null ? null : "provisional: " + r.provisional(), r.reason());
        if (cautions.saturatedGenerator() != null) {
            page.paragraph(cautions.saturatedGenerator());
        }
        if (cautions.stillCompiling() != null) {
            page.paragraph(cautions.stillCompiling());
        }
        if (c.notReproduced() != null && r.verdict() != Verdict.NOT_TESTABLE_HERE) {
            page.paragraph("**Not reproduced here:** " + c.notReproduced() + ".");
        }
        page.paragraph("**Claim.** " + c.statement());
        page.paragraph("**Article.** " + c.article().cite() + ". Setup: " + c.article().setup() + ". **Its figure:** "
                + c.figure() + ".");
        page.paragraph("**Experiment.** " + c.experiment());
        page.paragraph("**Why this statistic.** " + c.why());
        page.paragraph("**Placement.** " + c.placement() + ".");
        page.paragraph("**Rule.** " + c.rule() + " " + c.boundary());

        if (!r.decisive().isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            for (int i = 0; i < r.decisive().size(); i++) {
                CheckResult x = r.decisive().get(i);
                rows.add(List.of(x.check().label(), x.effect(), x.check().articleFigure(),
                        x.check().region().describe(Format::ratio), Format.p(x.pFor()),
                        Format.p(x.pAgainst()) + " (" + Format.p(r.adjustedAgainst()[i]) + ")", x.status().label(),
                        x.basisText(), details(x)));
            }
            page.table(List.of("decisive check", "measured ratio [95% CI]", "article", "claimed", "p for",
                    "p against (Holm)", "status", "method, rounds / forks", "what"), rows);
        }
        if (!r.supporting().isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            for (CheckResult x : r.supporting()) {
                rows.add(List.of(x.check().label(), x.effect(),
                        x.check().articleFigure() == null ? "-" : x.check().articleFigure(), x.basisText(),
                        details(x)));
            }
            page.table(List.of("supporting check (decides nothing)", "measured ratio [95% CI]", "article",
                    "method, rounds / forks", "what"), rows);
        }
        if (!peerRows.isEmpty()) {
            page.paragraph("**The real gateways in the stand-in's place (decide nothing).** The same checks with each "
                    + "gateway measured apart from this run, under the same load, in loopbench's L7 proxy's place: "
                    + "their own JMH runs, not this run's rounds, so the machine's drift between the runs lies in "
                    + "these intervals (Welch t on forks, or one-sample against a constant), and each gateway with "
                    + "its own settings (its JSON's `jvmArgs` and parameters say which).");
            List<List<String>> rows = new ArrayList<>();
            for (Peers.Row p : peerRows) {
                CheckResult x = p.result();
                rows.add(List.of(x.check().label(), p.gateway(), x.effect(),
                        x.check().articleFigure() == null ? "-" : x.check().articleFigure(), x.basisText(),
                        details(x)));
            }
            page.table(List.of("check", "gateway in the proxy's place", "measured ratio [95% CI]", "article",
                    "method, forks", "what"), rows);
        }
        List<List<String>> read = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Selection s : c.selections()) {
            JmhResult res = m.find(s);
            if (res == null || !seen.add(res.key() + res.origin()) || !endToEnd(res)) {
                continue;
            }
            Placement p = Placement.of(res, m);
            read.add(List.of(s.label() + " (`" + s.group().label() + "`)", p.paramText(), p.cpusText(), p.useText(),
                    Integer.toString(p.trials())));
        }
        if (!read.isEmpty()) {
            page.table(List.of("end-to-end result", "placement", "CPUs each process had", "CPU use (CPUs)",
                    "trials"), read);
        }
        List<List<String>> figures = new ArrayList<>();
        for (Claim.Figure f : c.figures()) {
            JmhResult res = m.find(f.selection());
            ForkValues v = res == null ? null : f.statistic().forkValues(res, m);
            if (v == null) {
                continue;
            }
            Charts.Mean mean = Charts.Mean.of(v.values());
            String unit = f.statistic().unitFor(res);
            figures.add(List.of(f.label(), f.statistic().name(), Format.value(mean.mean(), unit),
                    "± " + Format.value(mean.halfWidth(), unit), perFork(v)));
        }
        if (!figures.isEmpty()) {
            page.table(List.of("measured", "what", "mean", "95% CI", "per fork"), figures);
        }
        for (ChartSpec spec : c.charts()) {
            byte[] png = pngs.get(spec.id());
            if (png != null) {
                page.image(c.id() + ": " + spec.title(), CHARTS + "/" + spec.id() + ".png", png);
            }
        }
        List<String[]> flames = new ArrayList<>();
        Set<String> flameSeen = new LinkedHashSet<>();
        for (Selection s : c.selections()) {
            JmhResult res = m.find(s);
            if (res == null || !flameSeen.add(res.key())) {
                continue;
            }
            for (Path g : m.flameGraphs(res)) {
                String rel = dir.relativize(g.toAbsolutePath().normalize()).toString();
                flames.add(new String[] {s.label() + ": " + g.getFileName(), rel});
            }
        }
        if (!flames.isEmpty()) {
            page.links("**Flame graphs.**", flames);
        }
        List<Group> missing = r.missingGroups();
        if (!missing.isEmpty()) {
            page.paragraph("**Not measured in the input.** Produced by " + String.join("; ",
                    missing.stream().map(Group::producedBy).toList()) + ".");
        }
        page.paragraph("**Reproduce.** All claims: `./mvnw -Pjmh verify -Djmh.profile=profiles/claims.jmh` (report in "
                + "`target/jmh/claims/`). This claim alone (its groups of profiles/claims.jmh, then the report):");
        page.code(reproduce(c));
    }

    /** The commands that re-measure one claim (its labelled lines of profiles/claims.jmh) and report on it. */
    static String reproduce(Claim c) {
        String labels = c.groups().stream().map(Group::label).collect(Collectors.joining("|"));
        StringBuilder s = new StringBuilder();
        s.append("grep -E '\\[label=(").append(labels).append(")\\]' profiles/claims.jmh > ").append(c.id())
                .append(".jmh\n");
        s.append("./mvnw -Pjmh verify -Djmh.profile=").append(c.id()).append(".jmh\n");
        s.append("java -jar target/loopbench.jar claims target/jmh/results.json --claim ").append(c.id());
        List<String> jars = c.groups().stream().filter(g -> g.jar() != null).map(Group::label).toList();
        if (!jars.isEmpty()) {
            s.append("\n# ").append(String.join(", ", jars)).append(" run from the Netty 4.1 benchmarks jar: ")
                    .append(Group.NETTY_41_BUILD);
        }
        return s.toString();
    }

    private static String perFork(ForkValues v) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            parts.add((v.hasRounds() ? "r" + v.rounds()[i] + " " : "") + Format.value(v.values()[i], null));
        }
        return String.join(", ", parts);
    }

    private static String details(CheckResult x) {
        List<String> parts = new ArrayList<>();
        if (x.numerator() != null) {
            parts.add(x.check().statistic().name() + " of " + resultName(x.numerator()) + " / "
                    + (x.denominator() != null ? resultName(x.denominator()) : x.check().denominatorDescription()));
        }
        if (x.status() == Verdict.MISSING) {
            parts.add("no result for " + x.missing().stream().map(Selection::describe)
                    .collect(Collectors.joining(", ")));
        }
        parts.addAll(x.notes());
        return String.join("; ", parts);
    }

    /** The check a claim's summary row shows: its first decisive check with data, else its first with data. */
    static CheckResult headline(ClaimResult r) {
        for (CheckResult x : r.decisive()) {
            if (x.status() != Verdict.MISSING) {
                return x;
            }
        }
        for (CheckResult x : r.supporting()) {
            if (x.status() != Verdict.MISSING && !Double.isNaN(x.ratio())) {
                return x;
            }
        }
        return null;
    }

    static String summary(List<ClaimResult> results) {
        Map<Verdict, Long> n = new LinkedHashMap<>();
        for (Verdict v : Verdict.values()) {
            n.put(v, results.stream().filter(r -> r.verdict() == v).count());
        }
        long provisional = results.stream().filter(r -> r.provisional() != null).count();
        return n.entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> String.format(Locale.ROOT, "%d %s", e.getValue(), e.getKey().label()))
                .collect(Collectors.joining(", ")) + (provisional == 0 ? "" : " (" + provisional + " provisional)");
    }

    /** report.json: each claim's verdict, and each check's figures. */
    static String json(List<ClaimResult> results, Measurements m, Peers peers, Path dir,
                       Map<String, List<Peers.Row>> peerRows, Map<String, Cautions> cautions) {
        JsonObject root = new JsonObject();
        JsonArray runs = new JsonArray();
        m.runs().forEach(runs::add);
        root.add("runs", runs);
        if (!peers.isEmpty()) {
            // Relative to the report, so that a committed report can be regenerated from its committed inputs.
            JsonArray inputs = new JsonArray();
            peers.sources().forEach(p -> inputs.add(relative(dir, p)));
            root.add("peerInputs", inputs);
        }
        root.addProperty("summary", summary(results));
        JsonArray claims = new JsonArray();
        for (ClaimResult r : results) {
            JsonObject o = new JsonObject();
            o.addProperty("id", r.claim().id());
            o.addProperty("verdict", r.verdict().label());
            o.addProperty("provisional", r.provisional());
            o.addProperty("reason", r.reason());
            o.addProperty("saturatedGenerator", cautions.get(r.claim().id()).saturatedGenerator());
            o.addProperty("stillCompiling", cautions.get(r.claim().id()).stillCompiling());
            o.add("decisive", checks(r.decisive(), r.adjustedAgainst()));
            o.add("supporting", checks(r.supporting(), null));
            List<Peers.Row> rows = peerRows.get(r.claim().id());
            if (!rows.isEmpty()) {
                JsonArray a = checks(rows.stream().map(Peers.Row::result).toList(), null);
                for (int i = 0; i < a.size(); i++) {
                    a.get(i).getAsJsonObject().addProperty("gateway", rows.get(i).gateway());
                }
                o.add("peers", a);
            }
            claims.add(o);
        }
        root.add("claims", claims);
        return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().serializeSpecialFloatingPointValues()
                .create().toJson(root) + "\n";
    }

    private static JsonArray checks(List<CheckResult> checks, double[] holm) {
        JsonArray a = new JsonArray();
        for (int i = 0; i < checks.size(); i++) {
            CheckResult x = checks.get(i);
            JsonObject o = new JsonObject();
            o.addProperty("label", x.check().label());
            o.addProperty("status", x.status() == null ? null : x.status().label());
            o.addProperty("ratio", x.ratio());
            o.addProperty("lower", x.lower());
            o.addProperty("upper", x.upper());
            if (holm != null) {
                o.addProperty("pFor", x.pFor());
                o.addProperty("pAgainst", x.pAgainst());
                o.addProperty("pAgainstHolm", holm[i]);
            }
            o.addProperty("equivalence", x.equivalence());
            o.addProperty("method", x.basis() == null ? null : x.basis().method().name());
            o.addProperty("n", x.basis() == null ? 0 : x.basis().n());
            o.addProperty("dropped", x.basis() == null ? 0 : x.basis().dropped());
            o.addProperty("sdLog", x.basis() == null ? Double.NaN : x.basis().sdLog());
            o.addProperty("basis", x.basisText());
            RoundsPlan.Decider decider = RoundsPlan.decider(x);
            if (decider != null) { // an undecided check: the rounds that would decide it (-1: none feasible)
                o.addProperty("roundsToDecide", decider.needed());
            }
            a.add(o);
        }
        return a;
    }
}
