package loopbench.claims;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The verdicts of several claims runs side by side, read from their report.json files: per claim, each run's verdict
 * with its first decisive check's ratio and interval, and how often two runs that both measured a claim agree. This is
 * how a run's reproducibility is stated ("two runs agree on N of M"), from the committed reports alone.
 */
public final class VerdictHistory {

    /** Claims from the articles have IDs starting with this; the others come from Netty's issue tracker (N-...). */
    static final String ARTICLE_PREFIX = "C";

    /** One claim's answer in one run: its verdict and its first decisive check with a figure (null if none). */
    public record Entry(String verdict, CheckFigures first) {
        /**
         * Whether the run measured the claim: a verdict other than MISSING on a figure. A NOT-TESTABLE-HERE without
         * one (the run did not hold the experiment) is no answer to compare.
         */
        boolean measured() {
            return !Verdict.MISSING.label().equals(verdict) && first != null;
        }

        String cell() {
            if (Verdict.MISSING.label().equals(verdict)) {
                return "-";
            }
            return first == null ? verdict : verdict + " " + Format.ratio(first.ratio()) + " ["
                    + Format.ratio(first.lower()) + ", " + Format.ratio(first.upper()) + "]";
        }
    }

    /** One decisive check's figures in one run, as report.json gives them (NaN where it has none). */
    public record CheckFigures(String label, double ratio, double lower, double upper, double sdLog, int n) {
    }

    /**
     * One claims run: its name (the record's folder), the CPU it ran on (from {@value Machine#FILE} beside its
     * report or one folder up, where the suite writes it; "unknown" without one), each claim's entry in the report's
     * order, and every decisive check's figures by claim.
     */
    public record Run(String name, String host, Map<String, Entry> claims, Map<String, List<CheckFigures>> decisive) {
    }

    /** Two runs' agreement over the claims both measured (see {@link Entry#measured()}). */
    public record Agreement(Run a, Run b, int same, int measured, int sameArticles, int measuredArticles) {
        String sentence() {
            return String.format(Locale.ROOT, "%s and %s agree on %d of the %d claims both measured (%d of %d from the "
                    + "articles)", a.name(), b.name(), same, measured, sameArticles, measuredArticles);
        }
    }

    private VerdictHistory() {
    }

    /** A run from its record folder (holding report.json) or from a report.json file. */
    public static Run load(Path dirOrReport) throws IOException {
        Path file = Files.isDirectory(dirOrReport) ? dirOrReport.resolve(ClaimsReport.JSON) : dirOrReport;
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString(), null, "no claims report here; give a folder holding "
                    + ClaimsReport.JSON + " (as the claims report writes it) or the file itself");
        }
        Path named = file.toAbsolutePath().normalize();
        String name = named.getParent() == null ? named.toString() : named.getParent().getFileName().toString();
        JsonObject root;
        try {
            root = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
        } catch (JsonParseException | IllegalStateException e) {
            throw new IOException(file + " is not a claims report.json (" + e.getMessage() + ")", e);
        }
        if (!root.has("claims") || !root.get("claims").isJsonArray()) {
            throw new IOException(file + " is not a claims report.json: it has no \"claims\" array");
        }
        Map<String, Entry> claims = new LinkedHashMap<>();
        Map<String, List<CheckFigures>> decisive = new LinkedHashMap<>();
        for (JsonElement e : root.getAsJsonArray("claims")) {
            JsonObject c = e.getAsJsonObject();
            String id = c.get("id").getAsString();
            List<CheckFigures> checks = new ArrayList<>();
            if (c.has("decisive")) {
                for (JsonElement x : c.getAsJsonArray("decisive")) {
                    JsonObject o = x.getAsJsonObject();
                    checks.add(new CheckFigures(o.get("label").getAsString(), number(o, "ratio"), number(o, "lower"),
                            number(o, "upper"), number(o, "sdLog"), o.has("n") ? o.get("n").getAsInt() : 0));
                }
            }
            decisive.put(id, checks);
            CheckFigures first = checks.stream().filter(f -> !Double.isNaN(f.ratio())).findFirst().orElse(null);
            claims.put(id, new Entry(c.get("verdict").getAsString(), first));
        }
        return new Run(name, host(named.getParent()), claims, decisive);
    }

    private static String host(Path reportDir) {
        List<Path> where = new ArrayList<>(List.of(reportDir));
        if (reportDir.getParent() != null) {
            where.add(reportDir.getParent()); // target/jmh/machine.json beside target/jmh/claims/report.json
        }
        for (Path dir : where) {
            Machine.Snapshot m = Machine.Snapshot.read(dir.resolve(Machine.FILE));
            if (m != null && m.cpuModel() != null) {
                return m.cpuModel();
            }
        }
        return "unknown";
    }

    /**
     * A sentence naming each run's host when they are not all the same, else empty: effects and noise measured on
     * different hardware need not agree, and a plan or a comparison across them should say so.
     */
    public static String hostsNote(List<Run> runs) {
        if (runs.stream().map(Run::host).distinct().count() < 2) {
            return "";
        }
        return "Not all on one host (CPU from each run's " + Machine.FILE + "): " + String.join("; ",
                runs.stream().map(r -> r.name() + " " + r.host()).toList()) + ". Effects and noise measured on "
                + "different hardware need not agree.\n\n";
    }

    private static double number(JsonObject o, String name) {
        return o.has(name) && !o.get(name).isJsonNull() ? o.get(name).getAsDouble() : Double.NaN;
    }

    /** Every pair of runs, in the order given. */
    public static List<Agreement> agreements(List<Run> runs) {
        List<Agreement> out = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            for (int j = i + 1; j < runs.size(); j++) {
                out.add(agreement(runs.get(i), runs.get(j)));
            }
        }
        return out;
    }

    static Agreement agreement(Run a, Run b) {
        int same = 0;
        int measured = 0;
        int sameArticles = 0;
        int measuredArticles = 0;
        for (Map.Entry<String, Entry> e : a.claims().entrySet()) {
            Entry y = b.claims().get(e.getKey());
            if (y == null || !e.getValue().measured() || !y.measured()) {
                continue;
            }
            boolean agree = e.getValue().verdict().equals(y.verdict());
            boolean article = e.getKey().startsWith(ARTICLE_PREFIX);
            measured++;
            same += agree ? 1 : 0;
            measuredArticles += article ? 1 : 0;
            sameArticles += article && agree ? 1 : 0;
        }
        return new Agreement(a, b, same, measured, sameArticles, measuredArticles);
    }

    /**
     * The Markdown page: a table with a row per claim (of the first run, then any only later runs have) and a column
     * per run, "-" where a run did not judge the claim; then each pair's agreement.
     */
    public static String markdown(List<Run> runs) {
        if (runs.isEmpty()) {
            throw new IllegalArgumentException("no runs to compare");
        }
        Map<String, Claim> catalog = ClaimCatalog.byId();
        Map<String, String> titles = new LinkedHashMap<>();
        for (Run r : runs) {
            for (String id : r.claims().keySet()) {
                titles.putIfAbsent(id, catalog.containsKey(id) ? catalog.get(id).title() : "(not in this catalogue)");
            }
        }
        StringBuilder b = new StringBuilder(hostsNote(runs));
        b.append("| claim | | first decisive check |");
        runs.forEach(r -> b.append(' ').append(r.name()).append(" |"));
        b.append(" same verdict |\n|").append(" --- |".repeat(4 + runs.size())).append('\n');
        for (Map.Entry<String, String> t : titles.entrySet()) {
            String id = t.getKey();
            List<Entry> row = runs.stream().map(r -> r.claims().get(id)).toList();
            String check = row.stream().filter(e -> e != null && e.first() != null).map(e -> e.first().label())
                    .reduce((first, later) -> later).orElse("");
            b.append("| ").append(id).append(" | ").append(t.getValue()).append(" | ").append(check).append(" |");
            row.forEach(e -> b.append(' ').append(e == null ? "-" : e.cell()).append(" |"));
            List<String> verdicts = row.stream().filter(e -> e != null && e.measured()).map(Entry::verdict).toList();
            b.append(' ').append(verdicts.size() < 2 ? "-" : verdicts.stream().distinct().count() == 1 ? "yes"
                    : "**no**").append(" |\n");
        }
        List<Agreement> pairs = agreements(runs);
        if (!pairs.isEmpty()) {
            b.append('\n');
            pairs.forEach(p -> b.append("- ").append(p.sentence()).append('\n'));
        }
        return b.toString();
    }
}
