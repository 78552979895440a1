package loopbench.claims;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * CLAIMS.md's per-claim part, generated from the catalogue so that each claim is defined once: between the markers
 * {@link #BEGIN} and {@link #END}, the articles, then per article each claim (statement, figure, experiment and its
 * groups, statistic and why, placement, rule, checks, what changed against the 2026-11-23 rules), then every change
 * in one list. The text around the markers is written by hand.
 */
public final class CatalogMarkdown {
    public static final String BEGIN = "<!-- BEGIN GENERATED FROM loopbench.claims.ClaimCatalog: do not edit; run "
            + "`java -jar target/loopbench.jar claims --catalog-markdown CLAIMS.md` -->";
    public static final String END = "<!-- END GENERATED -->";
    /** How to regenerate, for messages. */
    public static final String COMMAND = "./mvnw -B -q package -DskipTests && "
            + "java -jar target/loopbench.jar claims --catalog-markdown CLAIMS.md";

    private CatalogMarkdown() {
    }

    /** The generated part, markers excluded. */
    public static String render(List<Claim> claims) {
        StringBuilder s = new StringBuilder();
        s.append("## The articles\n\n");
        s.append("| article | author | date | setup |\n| --- | --- | --- | --- |\n");
        for (Article a : ClaimCatalog.ARTICLES) {
            s.append("| ").append(a.title()).append(" (").append(a.english()).append(") | ").append(a.author())
                    .append(" | ").append(a.date()).append(" | ").append(a.setup()).append(" |\n");
        }
        s.append('\n');
        Article current = null;
        for (Claim c : claims) {
            if (c.article() != current) {
                current = c.article();
                s.append("## ").append(current.english()).append("\n\n");
            }
            claim(s, c);
        }
        s.append("## Changes against the 2026-11-23 rules\n\n");
        s.append("The run of 2026-11-23 (docs/results/2026-11-23/claims/) was judged by the rules of its date. "
                + "Since then, decided before any data of the new runs:\n\n");
        for (String g : ClaimCatalog.GENERAL_CHANGES) {
            s.append("- ").append(g).append('\n');
        }
        for (Claim c : claims) {
            for (String ch : c.changes()) {
                s.append("- ").append(c.id()).append(": ").append(ch).append('\n');
            }
        }
        return s.toString();
    }

    private static void claim(StringBuilder s, Claim c) {
        s.append("### ").append(c.id()).append(' ').append(c.title()).append("\n\n");
        s.append("- **Claim.** ").append(c.statement()).append('\n');
        s.append("- **Article's figure.** ").append(c.figure()).append('\n');
        s.append("- **Experiment.** ").append(c.experiment()).append(" Groups of profiles/claims.jmh: ")
                .append(String.join(", ", c.groups().stream().map(g -> g.cite() + " (" + g.rounds() + " rounds"
                        + (g.jar() == null ? "" : ", jar " + g.jar()) + ")").toList())).append(".\n");
        List<String> stats = new ArrayList<>();
        for (Check k : c.decisive()) {
            stats.add(k.formula());
        }
        s.append("- **Statistic.** ").append(String.join("; ", stats)).append(". **Why:** ").append(c.why())
                .append('\n');
        s.append("- **Placement.** ").append(c.placement()).append(".\n");
        s.append("- **Rule.** ").append(c.rule()).append(' ').append(c.boundary()).append('\n');
        s.append("- **Decisive checks.**\n");
        for (Check k : c.decisive()) {
            s.append("  - ").append(k.label()).append(": ").append(k.region().describe(Format::ratio))
                    .append(k.margin() == null ? "" : ", margin " + k.margin().describe()).append(" (article: ")
                    .append(k.articleFigure()).append(")\n");
        }
        if (!c.supporting().isEmpty()) {
            s.append("- **Supporting (decide nothing).** ").append(String.join("; ",
                    c.supporting().stream().map(Check::label).toList())).append(".\n");
        }
        if (c.peers() != null) {
            s.append("- **Gateways beside (decide nothing).** ").append(c.peers()).append(".\n");
        }
        if (c.notReproduced() != null) {
            s.append("- **Not reproduced here.** ").append(c.notReproduced()).append(".\n");
        }
        if (c.untestable() != null) {
            s.append("- **Without the results it needs: NOT-TESTABLE-HERE.** ").append(c.untestable()).append('\n');
        }
        s.append("- **Changed since 2026-11-23.** ").append(c.changes().isEmpty()
                ? "Only what changed for every claim (placement, paired rounds; see the end of this file)."
                : String.join(" ", c.changes()) + " Also what changed for every claim.").append("\n\n");
    }

    /** The generated part of a file (between the markers), or null if it has no markers. */
    public static String generatedPart(String text) {
        int b = text.indexOf(BEGIN);
        int e = text.indexOf(END);
        if (b < 0 || e < b) {
            return null;
        }
        return text.substring(b + BEGIN.length(), e).strip() + "\n";
    }

    /**
     * Rewrites the generated part of {@code file}; true if it changed. An IllegalArgumentException if the file has
     * no markers.
     */
    public static boolean update(Path file, List<Claim> claims) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int b = text.indexOf(BEGIN);
        int e = text.indexOf(END);
        if (b < 0 || e < b) {
            throw new IllegalArgumentException(file + " has no generated part: put the lines \"" + BEGIN + "\" and \""
                    + END + "\" where it goes");
        }
        String updated = text.substring(0, b + BEGIN.length()) + "\n\n" + render(claims) + "\n" + text.substring(e);
        if (updated.equals(text)) {
            return false;
        }
        Files.writeString(file, updated, StandardCharsets.UTF_8);
        return true;
    }
}
