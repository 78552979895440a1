package loopbench.claims;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** CLAIMS.md's per-claim part is the catalogue's: generated, never edited by hand. */
class CatalogMarkdownTest {

    @Test
    void claimsMdsGeneratedPartIsTheCataloguesOwn() throws Exception {
        String text = Files.readString(Paths.get("CLAIMS.md"));
        String part = CatalogMarkdown.generatedPart(text);
        assertNotNull(part, "CLAIMS.md has the markers " + CatalogMarkdown.BEGIN + " ... " + CatalogMarkdown.END);
        assertEquals(CatalogMarkdown.render(ClaimCatalog.all()), part,
                "CLAIMS.md's generated part differs from loopbench.claims.ClaimCatalog; regenerate it with: "
                        + CatalogMarkdown.COMMAND);
    }

    @Test
    void everyClaimSaysWhyItsStatisticPlacementRuleAndWhatChanged() {
        String md = CatalogMarkdown.render(ClaimCatalog.all());
        for (Claim c : ClaimCatalog.all()) {
            int at = md.indexOf("### " + c.id() + " ");
            int end = md.indexOf("\n### ", at + 1);
            String section = md.substring(at, end < 0 ? md.length() : end);
            for (String part : new String[] {"**Statistic.**", "**Why:**", "**Placement.**", "**Rule.**",
                    "**Decisive checks.**", "**Changed since 2026-11-23.**", "Groups of profiles/claims.jmh: `"}) {
                assertTrue(section.contains(part), c.id() + " says " + part + ":\n" + section);
            }
        }
        assertTrue(md.contains("C000-2: Statistic: requests/s L7 / L4"), "the list of changes names each");
        assertTrue(md.contains("no effect beyond \u00b12%"), "the equivalence wording is stated");
    }

    @Test
    void updateRewritesOnlyBetweenTheMarkers(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("CLAIMS.md");
        Files.writeString(f, "# Hand-written\n\n" + CatalogMarkdown.BEGIN + "\nstale\n" + CatalogMarkdown.END
                + "\n\nTail.\n");
        assertTrue(CatalogMarkdown.update(f, ClaimCatalog.all()));
        String text = Files.readString(f);
        assertTrue(text.startsWith("# Hand-written\n\n" + CatalogMarkdown.BEGIN + "\n\n## The articles"), text);
        assertTrue(text.endsWith(CatalogMarkdown.END + "\n\nTail.\n"), text);
        assertFalse(text.contains("stale"));
        assertFalse(CatalogMarkdown.update(f, ClaimCatalog.all()), "a second run changes nothing");
        Path none = Files.writeString(dir.resolve("other.md"), "no markers");
        assertThrows(IllegalArgumentException.class, () -> CatalogMarkdown.update(none, ClaimCatalog.all()));
    }
}
