package loopbench.claims;

import loopbench.topology.Placement;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.annotations.Param;

import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The catalogue against profiles/claims.jmh and profiles/default.jmh: every claim ID once; every group the catalogue
 * names is a labelled line there with the catalogue's rounds and jar, measuring and pinning what the selections read;
 * every line serves a claim and pins every parameter its benchmark has, end to end one placement (pinned or explicit,
 * never shared); the default selection is a short run of the same groups; both profiles fit their time budgets by
 * the estimate their headers state.
 */
class ClaimCatalogTest {
    static final Path CLAIMS = Paths.get("profiles/claims.jmh");
    static final Path DEFAULT = Paths.get("profiles/default.jmh");
    /** The upgrade report's gate profile, the memory table's, the task/IO run's: every parameter pinned too. */
    static final Path UPGRADE = Paths.get("profiles/upgrade.jmh");
    static final Path MEMORY = Paths.get("profiles/memory.jmh");
    static final Path TASK_BALANCE = Paths.get("profiles/task-balance.jmh");
    static final List<String> IDS = List.of("C000-1", "C000-2", "C000-3", "C000-4", "C000-5", "C000-6", "C000-7",
            "C000-8", "C001-1", "C001-2", "C001-3", "C002-1", "C002-2", "C002-3", "C003-1", "C003-2", "C003-3",
            "C004-1", "N-1", "N-2");
    /** Minutes the claims profile may measure: 60 on 2 cores, less the build. */
    static final double CLAIMS_BUDGET = 56;
    /** Minutes the default selection may measure: about 9. */
    static final double DEFAULT_BUDGET = 9.1;

    @Test
    void everyClaimIdOnceInOrder() {
        assertEquals(IDS, ClaimCatalog.all().stream().map(Claim::id).toList());
    }

    @Test
    void everyGroupIsALabelledLineWithTheCataloguesRoundsAndJar() throws Exception {
        Map<String, ProfileLines.Line> lines = ProfileLines.byLabel(ProfileLines.read(CLAIMS));
        for (Group g : ClaimCatalog.GROUPS) {
            ProfileLines.Line l = lines.get(g.label());
            assertNotNull(l, "no line labelled [label=" + g.label() + "] in " + CLAIMS);
            assertEquals(g.rounds(), l.rounds(), g.label() + ": the catalogue's rounds are the profile's");
            assertEquals(g.jar(), l.jar(), g.label() + ": [jar=...]");
        }
        List<String> labels = ProfileLines.read(CLAIMS).stream().map(ProfileLines.Line::label).toList();
        assertEquals(new HashSet<>(labels).size(), labels.size(), "labels are unique: " + labels);
    }

    @Test
    void everySelectionIsMeasuredAndPinnedByItsGroupsLine() throws Exception {
        Map<String, ProfileLines.Line> lines = ProfileLines.byLabel(ProfileLines.read(CLAIMS));
        for (Claim c : ClaimCatalog.all()) {
            for (Selection s : c.selections()) {
                assertTrue(ClaimCatalog.GROUPS.contains(s.group()), c.id() + ": group " + s.group() + " is listed");
                ProfileLines.Line l = lines.get(s.group().label());
                String fqn = "loopbench.bench." + s.benchmark();
                assertTrue(l.options().getIncludes().stream().anyMatch(r -> Pattern.compile(r).matcher(fqn).find()),
                        l.label() + " runs " + fqn);
                for (Map.Entry<String, String> p : s.params().entrySet()) {
                    assertTrue(l.values(p.getKey()).contains(p.getValue()),
                            l.label() + " measures " + p.getKey() + "=" + p.getValue() + " (" + c.id() + ", "
                                    + s.label() + ")");
                }
            }
        }
    }

    @Test
    void everyLineServesAClaimAndTheCatalogueListsEveryGroupItUses() throws Exception {
        Set<Group> used = new LinkedHashSet<>();
        ClaimCatalog.all().forEach(c -> used.addAll(c.groups()));
        assertEquals(new HashSet<>(ClaimCatalog.GROUPS), used, "GROUPS is every group a claim reads");
        for (ProfileLines.Line l : ProfileLines.read(CLAIMS)) {
            assertTrue(used.stream().anyMatch(g -> g.label().equals(l.label())), "no claim reads " + l.label());
            assertTrue(l.rounds() >= 3, l.label() + ": at least 3 rounds (forks) for anything a verdict rests on");
        }
    }

    /** Every @Param of the benchmark class (and its superclasses), by name. */
    private static Set<String> params(String className) throws Exception {
        Set<String> names = new LinkedHashSet<>();
        for (Class<?> k = Class.forName("loopbench.bench." + className); k != null; k = k.getSuperclass()) {
            for (Field f : k.getDeclaredFields()) {
                if (f.isAnnotationPresent(Param.class)) {
                    names.add(f.getName());
                }
            }
        }
        return names;
    }

    @Test
    void everyLinePinsEveryParameterOfItsBenchmarkAndEndToEndLinesAPlacement() throws Exception {
        for (Path profile : List.of(CLAIMS, DEFAULT, UPGRADE, MEMORY, TASK_BALANCE)) {
            for (ProfileLines.Line l : ProfileLines.read(profile)) {
                Set<String> pinned = l.params().keySet();
                List<String> unpinned = new ArrayList<>(params(l.className()));
                unpinned.removeAll(pinned);
                assertTrue(unpinned.isEmpty(), profile + " " + l.label() + " leaves " + unpinned + " unpinned");
                if (l.endToEnd()) {
                    List<String> placement = l.values(ClaimCatalog.PLACEMENT);
                    assertEquals(1, placement.size(), profile + " " + l.label() + " pins one placement: " + placement);
                    Placement p = Placement.parse(placement.get(0)); // named or explicit; throws on anything else
                    assertFalse(Placement.SHARED.equals(p.name()), profile + " " + l.label() + " places its "
                            + "processes (pinned or explicit), not shared");
                }
            }
        }
    }

    @Test
    void theDefaultSelectionIsAShortRunOfTheSameGroups() throws Exception {
        Map<String, ProfileLines.Line> claims = ProfileLines.byLabel(ProfileLines.read(CLAIMS));
        for (ProfileLines.Line d : ProfileLines.read(DEFAULT)) {
            ProfileLines.Line c = claims.get(d.label());
            assertNotNull(c, d.label() + " of " + DEFAULT + " is a group of " + CLAIMS);
            assertEquals(c.args().split("\\s+")[0], d.args().split("\\s+")[0], d.label() + ": the same benchmark");
            assertEquals(c.params(), d.params(), d.label() + ": the same parameters");
            assertTrue(d.rounds() >= 3 && d.rounds() <= c.rounds(), d.label() + ": 3 to " + c.rounds() + " rounds");
            assertTrue(d.forkSeconds() <= c.forkSeconds(), d.label() + ": iterations no longer than the claims'");
        }
    }

    /**
     * The articles' claims (C...): the upgrade's questions from Netty's tracker (N-...) need the suite built against
     * Netty 4.1 or a burst with a settling time, which the default run (under 10 minutes, one build) leaves out.
     */
    @Test
    void theDefaultSelectionCoversTheDecisiveGroupsOfAtLeastHalfTheArticlesClaims() throws Exception {
        Set<String> labels = ProfileLines.byLabel(ProfileLines.read(DEFAULT)).keySet();
        List<Claim> articles = ClaimCatalog.all().stream().filter(c -> c.id().startsWith("C")).toList();
        List<String> answered = new ArrayList<>();
        for (Claim c : articles) {
            if (c.decisiveGroups().stream().allMatch(g -> labels.contains(g.label()))) {
                answered.add(c.id());
            }
        }
        assertTrue(answered.size() * 2 >= articles.size(), "a provisional verdict for at least half the articles' "
                + "claims: " + answered);
    }

    /** The "Estimated N min" a profile's header states. */
    private static double stated(Path profile) throws Exception {
        Matcher m = Pattern.compile("(\\d+\\.\\d) min of measurement").matcher(Files.readString(profile));
        assertTrue(m.find(), profile + " states its estimate as 'N.N min of measurement'");
        return Double.parseDouble(m.group(1));
    }

    @Test
    void bothProfilesFitTheirBudgetsByTheEstimateTheirHeadersState() throws Exception {
        List<ProfileLines.Line> claims = ProfileLines.read(CLAIMS);
        double minutes = ProfileLines.minutes(claims, false);
        assertEquals(minutes, stated(CLAIMS), 0.051, "the header of " + CLAIMS + " states the estimate");
        assertTrue(minutes <= CLAIMS_BUDGET, CLAIMS + ": " + minutes + " min of measurement");
        assertTrue(Files.readString(CLAIMS).contains("adds " + String.format(java.util.Locale.ROOT, "%.1f",
                ProfileLines.minutes(claims, true)) + " min"), "the JDK 21+ lines' share is stated");
        double defaults = ProfileLines.minutes(ProfileLines.read(DEFAULT), false);
        assertEquals(defaults, stated(DEFAULT), 0.051, "the header of " + DEFAULT + " states the estimate");
        assertTrue(defaults <= DEFAULT_BUDGET, DEFAULT + ": " + defaults + " min of measurement");
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
        for (String f : List.of("README.md", "CLAIMS.md", "profiles/claims.jmh", "profiles/default.jmh")) {
            if (Files.readString(Paths.get(f)).contains("../shared")) {
                outside.add(f);
            }
        }
        assertFalse(!outside.isEmpty(), "files pointing at ../shared: " + outside);
    }
}
