package loopbench.claims;

import loopbench.report.AtomicFile;
import loopbench.report.JmhResult;
import org.knowm.xchart.internal.chartpart.Chart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The claims report: every claim's verdict with its evidence, from JMH JSON results, as {@code DIR/report.md}
 * (charts as {@code DIR/charts/*.png}) and a self-contained {@code DIR/report.html} (the same content, charts
 * embedded). Opens with the machine, then a verdict table, then one section per claim: the claim and the
 * article's figure, the verdict and why, the checks with their 95% intervals, the measured figures, charts, flame
 * graphs when they were taken, and the commands that reproduce it.
 */
public final class ClaimsReport {
    public static final String MARKDOWN = "report.md";
    public static final String HTML = "report.html";
    public static final String CHARTS = "charts";

    private ClaimsReport() {
    }

    /** What was written. */
    public record Written(Path markdown, Path html, List<ClaimResult> results, Map<String, Path> charts) {
        public long count(Verdict v) {
            return results.stream().filter(r -> r.verdict() == v).count();
        }

        /** "3 CONFIRMED, 1 REFUTED, ..." */
        public String summary() {
            return Arrays.stream(Verdict.values()).filter(v -> count(v) > 0)
                    .map(v -> count(v) + " " + v.label()).collect(Collectors.joining(", "));
        }
    }

    /** Reads the JSON files (and their side files, flame graphs, machine.json) and writes the report into {@code out}. */
    public static Written write(List<Path> jsonFiles, Path out, List<Claim> claims) throws IOException {
        return write(Measurements.load(jsonFiles), out, claims);
    }

    public static Written write(Measurements m, Path out, List<Claim> claims) throws IOException {
        Path dir = out.toAbsolutePath().normalize();
        Files.createDirectories(dir.resolve(CHARTS));
        List<ClaimResult> results = claims.stream().map(c -> ClaimResult.evaluate(c, m)).toList();

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
                replace(file, png);
                pngs.put(spec.id(), png);
                chartFiles.put(spec.id(), file);
            }
        }

        ReportPage page = new ReportPage("loopbench: the claims, measured");
        page.paragraph("Each claim comes from a published article; each is tested here by the experiments of "
                + "`profiles/claims.jmh` (CLAIMS.md says how, claim by claim). A verdict rests on ratios of per-fork "
                + "means with 95% confidence intervals (Welch t on the logarithms; one-sample t against a constant), "
                + "compared with the region the claim predicts: **CONFIRMED** when every decisive interval lies inside "
                + "it, **REFUTED** when one lies outside (Holm-corrected over the claim's checks), **INCONCLUSIVE** when "
                + "an interval straddles the boundary (the effect is inside the noise), **NOT-TESTABLE-HERE** when this "
                + "machine cannot produce the conditions, **MISSING** when the results are not in the input (the profile "
                + "line that produces them is named).");
        page.paragraph("Input: " + (m.sources().isEmpty() ? "(results given directly)"
                : m.sources().stream().map(p -> "`" + p + "`").collect(Collectors.joining(", ")))
                + ". " + m.results().size() + " result(s). Verdicts: " + summary(results) + ".");
        if (!m.problems().isEmpty()) {
            page.bullets(m.problems().stream().map(p -> "unreadable side file: " + p).toList());
        }

        page.heading(2, "The machine", "machine");
        page.table(List.of("", "value", "source"),
                Machine.describe(m).stream().map(r -> List.of(r.what(), r.value(), r.source())).toList());

        page.heading(2, "Verdicts", "verdicts");
        List<List<String>> rows = new ArrayList<>();
        for (ClaimResult r : results) {
            CheckResult headline = headline(r);
            String effect = headline == null ? "-"
                    : (r.decisive().contains(headline) ? "" : "(supporting) ") + headline.check().label() + ": " + headline.effect();
            rows.add(List.of(r.claim().id(), r.claim().title(), r.claim().figure(), effect, r.verdict().label()));
        }
        page.table(List.of("claim", "", "article's figure", "measured effect (95% CI)", "verdict"), rows);

        for (ClaimResult r : results) {
            section(page, r, m, dir, pngs);
        }
        page.heading(2, "How to read the numbers", "method");
        page.bullets(List.of(
                "A ratio is of geometric means of per-fork means (each fork's mean over its measurement iterations); its "
                        + "95% interval comes from the spread of the fork means, so it includes fork-to-fork variation. "
                        + "Counters that are exact (bytes per request) give a point interval.",
                "p for / p against: one-sided p-values that the ratio lies inside / outside the claimed region; a check "
                        + "is confirmed when p for < 0.025 (its 95% interval lies inside), refuted when p against < 0.025. "
                        + "For a claim, the p-values against are Holm-adjusted over its decisive checks.",
                "Figures are means of the fork means with the half-width of their 95% t interval.",
                "Bars show the same means and intervals (whiskers); a configuration with no result has no bar.",
                "Timings come from a 2-core machine others may share: prefer the ratios, CPU per request and the exact "
                        + "counters to absolute throughput."));
        Path md = dir.resolve(MARKDOWN);
        Path html = dir.resolve(HTML);
        replace(md, page.markdown().getBytes(StandardCharsets.UTF_8));
        replace(html, page.html().getBytes(StandardCharsets.UTF_8));
        return new Written(md, html, results, chartFiles);
    }

    private static void section(ReportPage page, ClaimResult r, Measurements m, Path dir, Map<String, byte[]> pngs) {
        Claim c = r.claim();
        page.heading(2, c.id() + ": " + c.title(), c.id());
        page.verdict(r.verdict(), r.reason());
        page.paragraph("**Claim.** " + c.statement());
        page.paragraph("**Article.** " + c.article().cite() + ". Setup: " + c.article().setup() + ". **Its figure:** "
                + c.figure() + ".");
        page.paragraph("**Experiment.** " + c.experiment());
        page.paragraph(c.notTestable() == null ? "**Rule.** " + c.rule() : "**Not testable here:** " + c.notTestable());

        if (!r.decisive().isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            for (int i = 0; i < r.decisive().size(); i++) {
                CheckResult x = r.decisive().get(i);
                rows.add(List.of(x.check().label(), x.effect(), x.check().articleFigure(), x.check().region().describe(),
                        Format.p(x.pFor()), Format.p(x.pAgainst()) + " (" + Format.p(r.adjustedAgainst()[i]) + ")",
                        x.status().label(), forks(x), details(x)));
            }
            page.table(List.of("decisive check", "measured ratio [95% CI]", "article", "claimed", "p for",
                    "p against (Holm)", "status", "forks", "how"), rows);
        }
        List<CheckResult> supporting = r.supporting();
        if (!supporting.isEmpty()) {
            List<List<String>> rows = new ArrayList<>();
            for (CheckResult x : supporting) {
                rows.add(List.of(x.check().label(), x.effect(), x.check().articleFigure() == null ? "-" : x.check().articleFigure(),
                        forks(x), details(x)));
            }
            page.table(List.of("supporting check (decides nothing)", "measured ratio [95% CI]", "article", "forks", "how"), rows);
        }
        List<List<String>> figures = new ArrayList<>();
        for (Claim.Figure f : c.figures()) {
            JmhResult res = m.find(f.selection());
            double[] v = res == null ? null : f.statistic().forkValues(res, m);
            if (v == null) {
                continue;
            }
            Charts.Mean mean = Charts.Mean.of(v);
            String unit = f.statistic().unitFor(res);
            figures.add(List.of(f.label(), f.statistic().name(), Format.value(mean.mean(), unit),
                    "± " + Format.value(mean.halfWidth(), unit),
                    Arrays.stream(v).mapToObj(x -> Format.value(x, null)).collect(Collectors.joining(", "))));
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
        Set<String> seen = new LinkedHashSet<>();
        for (Selection s : c.selections()) {
            JmhResult res = m.find(s);
            if (res == null || !seen.add(res.key())) {
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
        List<String> missing = r.missingLines();
        if (!missing.isEmpty()) {
            page.paragraph("**Not measured in the input.** Produced by these lines of `profiles/claims.jmh`:");
            page.code(String.join("\n", missing));
        }
        page.paragraph("**Reproduce.** All claims: `./mvnw -Pjmh verify -Djmh.profile=profiles/claims.jmh` (report in "
                + "`target/jmh/claims/`). This claim alone:");
        page.code(reproduce(c));
    }

    /** The commands that re-measure one claim and report on it. */
    static String reproduce(Claim c) {
        StringBuilder s = new StringBuilder();
        List<String> files = new ArrayList<>();
        List<String> lines = c.profileLines();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String guard = "";
            if (line.startsWith("[jdk>=")) {
                guard = "   # JDK " + line.substring(6, line.indexOf(']')) + "+ only";
                line = line.substring(line.indexOf(']') + 1).trim();
            }
            String file = c.id() + (lines.size() > 1 ? "-" + (i + 1) : "") + ".json";
            files.add(file);
            s.append("java -jar target/benchmarks.jar ").append(line).append(" -rf json -rff ").append(file)
                    .append(guard).append('\n');
        }
        s.append("java -jar target/loopbench.jar claims ").append(String.join(" ", files)).append(" --claim ").append(c.id());
        return s.toString();
    }

    private static String forks(CheckResult x) {
        if (x.numeratorForks() == null) {
            return "-";
        }
        return x.denominatorForks() == null ? Integer.toString(x.numeratorForks().length)
                : x.numeratorForks().length + " vs " + x.denominatorForks().length;
    }

    private static String details(CheckResult x) {
        List<String> parts = new ArrayList<>();
        if (!x.method().isEmpty()) {
            parts.add(x.method());
        }
        if (x.numerator() != null) {
            parts.add(x.check().statistic().name() + " of " + x.numerator().key() + " / "
                    + (x.denominator() != null ? x.denominator().key() : x.check().denominatorDescription()));
        }
        if (x.status() == Verdict.MISSING) {
            parts.add("no result for " + x.missing().stream().map(Selection::describe).collect(Collectors.joining(", ")));
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
        return n.entrySet().stream().filter(e -> e.getValue() > 0)
                .map(e -> String.format(Locale.ROOT, "%d %s", e.getValue(), e.getKey().label()))
                .collect(Collectors.joining(", "));
    }

    private static void replace(Path target, byte[] content) throws IOException {
        AtomicFile.write(target, content);
    }
}
