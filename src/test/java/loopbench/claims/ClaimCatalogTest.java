package loopbench.claims;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The catalog against profiles/claims.jmh and CLAIMS.md: every claim ID once, every line a claim names is in the
 * profile and measures what the claim reads, every line of the profile serves a claim, 3 forks or more.
 */
class ClaimCatalogTest {
    private static final Path PROFILE = Paths.get("profiles/claims.jmh");
    static final List<String> IDS = List.of("C000-1", "C000-2", "C000-3", "C000-4", "C000-5", "C000-6", "C000-7",
            "C000-8", "C001-1", "C001-2", "C001-3", "C002-1", "C002-2", "C002-3", "C003-1", "C003-2", "C003-3", "C004-1");

    /** The runs of the profile: its non-blank lines that are not comments, as written. */
    private static List<String> lines() throws java.io.IOException {
        return Files.readAllLines(PROFILE).stream().map(String::trim).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
    }

    @Test
    void everyClaimIdOnceInOrder() {
        assertEquals(IDS, ClaimCatalog.all().stream().map(Claim::id).toList());
    }

    @Test
    void everyLineAClaimNamesIsInTheProfileAndPinsWhatItReads() throws Exception {
        List<String> profile = lines();
        for (Claim c : ClaimCatalog.all()) {
            for (Selection s : c.selections()) {
                assertTrue(profile.contains(s.profileLine()), c.id() + " names a line not in " + PROFILE + ": " + s.profileLine());
                String line = s.profileLine().replaceFirst("^\\[jdk>=\\d+]\\s*", "");
                CommandLineOptions o = new CommandLineOptions(line.split("\\s+"));
                String fqn = "loopbench.bench." + s.benchmark();
                assertTrue(o.getIncludes().stream().anyMatch(r -> Pattern.compile(r).matcher(fqn).find()),
                        s.profileLine() + " runs " + fqn);
                for (Map.Entry<String, String> p : s.params().entrySet()) {
                    var values = o.getParameter(p.getKey());
                    assertTrue(values.hasValue() && values.get().contains(p.getValue()),
                            s.profileLine() + " measures " + p.getKey() + "=" + p.getValue() + " (" + c.id() + ")");
                }
            }
        }
    }

    @Test
    void everyLineOfTheProfileServesAClaimWithThreeForksOrMore() throws Exception {
        Set<String> used = new HashSet<>();
        ClaimCatalog.all().forEach(c -> used.addAll(c.profileLines()));
        for (String line : lines()) {
            assertTrue(used.contains(line), "no claim reads " + line);
            CommandLineOptions o = new CommandLineOptions(line.replaceFirst("^\\[jdk>=\\d+]\\s*", "").split("\\s+"));
            assertTrue(o.getForkCount().hasValue() && o.getForkCount().get() >= 3, "3 forks or more: " + line);
        }
    }

    @Test
    void claimsMdDescribesEveryClaimAndNothingPointsOutsideTheProject() throws Exception {
        String claims = Files.readString(Paths.get("CLAIMS.md"));
        for (String id : IDS) {
            assertEquals(1, Pattern.compile("^### " + id + "\\b", Pattern.MULTILINE).matcher(claims).results().count(),
                    "one section for " + id + " in CLAIMS.md");
        }
        String readme = Files.readString(Paths.get("README.md"));
        assertTrue(readme.contains("(CLAIMS.md)"), "README links CLAIMS.md");
        List<String> outside = new ArrayList<>();
        for (String f : List.of("README.md", "CLAIMS.md", "profiles/claims.jmh")) {
            if (Files.readString(Paths.get(f)).contains("../shared")) {
                outside.add(f);
            }
        }
        assertFalse(!outside.isEmpty(), "files pointing at ../shared: " + outside);
    }
}
