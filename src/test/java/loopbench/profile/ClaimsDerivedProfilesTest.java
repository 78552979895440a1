package loopbench.profile;

import loopbench.claims.ClaimCatalog;
import loopbench.claims.Group;
import loopbench.claims.NullExperiments;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Profiles that run the claims' own experiments. The null proof: each line of profiles/claims-null.jmh has the
 * rounds, the benchmark, the JMH options and the parameters of the profiles/claims.jmh line it mimics, with one value
 * of each parameter that line varies (its twins are two forks of that one configuration). The follow-up: each line of
 * profiles/claims-follow-up.jmh is its claims.jmh line (same label) with more rounds (than the line had when the
 * follow-up ran) and nothing else changed.
 */
class ClaimsDerivedProfilesTest {
    /** Null line -> the claims line it mimics. */
    private static final Map<String, String> MIMICS =
            Map.of("null-aggregator", "aggregator", "null-proxy", "proxy-64");
    private static final Pattern LINE =
            Pattern.compile("^\\[label=([^]]+)] \\[rounds=(\\d+)] (?:\\[twins] )?(\\S+) (.*)$");

    @Test
    void eachNullLineIsItsClaimsLineWithOneArm() throws IOException {
        Map<String, Matcher> nulls = lines(Path.of("profiles/claims-null.jmh"));
        Map<String, Matcher> claims = lines(Path.of("profiles/claims.jmh"));
        assertEquals(MIMICS.keySet(), nulls.keySet(), "the null lines this test knows");
        for (Map.Entry<String, String> m : MIMICS.entrySet()) {
            Matcher n = nulls.get(m.getKey());
            Matcher c = claims.get(m.getValue());
            if (ClaimCatalog.RETIRED.stream().anyMatch(g -> g.label().equals(m.getValue()))) {
                // the null proof was made on a line claims.jmh gave up later; the proof keeps its line
                assertNull(c, m.getValue() + " is retired from claims.jmh");
                continue;
            }
            assertNotNull(c, "claims line " + m.getValue());
            String what = m.getKey() + " vs " + m.getValue();
            assertEquals(c.group(2), n.group(2), what + ": rounds");
            assertEquals(c.group(3), n.group(3), what + ": benchmark");
            Map<String, List<String>> np = params(n.group(4));
            Map<String, List<String>> cp = params(c.group(4));
            assertEquals(cp.keySet(), np.keySet(), what + ": the parameters pinned");
            for (String p : np.keySet()) {
                assertTrue(cp.get(p).containsAll(np.get(p)),
                        what + ": -p " + p + "=" + np.get(p) + " not in " + cp.get(p));
                if (!p.equals("layer")) { // the one parameter a null line may keep several values of: layer
                    assertEquals(1, np.get(p).size(), what + ": -p " + p + " has one value");
                }
            }
            assertEquals(options(c.group(4)), options(n.group(4)), what + ": JMH options");
        }
    }

    @Test
    void theSideBySideNullLineIsSideBySide64WithTwoTwinArms() throws IOException {
        String arms = "-p arms=" + NullExperiments.SIDE_BY_SIDE_ARMS + " ";
        assertNullLineIsItsClaimsLineBut("profiles/claims-null-side-by-side.jmh", "null-side-by-side",
                "side-by-side-64", "-p arms=", c -> c.replaceFirst("-p arms=\\S+ ", arms), "for its arms");
    }

    @Test
    void theAggregatorSideBySideNullLineIsItsClaimsLineWithEqualLimits() throws IOException {
        assertNullLineIsItsClaimsLineBut("profiles/claims-null-aggregator-side-by-side.jmh",
                "null-aggregator-side-by-side", "aggregator-side-by-side",
                "-p smallLimit=2000 -p largeLimit=100000000 ",
                c -> c.replace("-p largeLimit=100000000 ", "-p largeLimit=2000 "),
                "for its large limit, the small one's");
    }

    @Test
    void theEpollSideBySideNullLineIsItsClaimsLineWithTwoTwinServers() throws IOException {
        String arms = "-p arms=" + NullExperiments.EPOLL_TWIN_ARMS + " ";
        assertNullLineIsItsClaimsLineBut("profiles/claims-null-epoll41-side-by-side.jmh", "null-epoll41-side-by-side",
                "epoll41-side-by-side", "-p arms=", c -> c.replaceFirst("-p arms=\\S+ ", arms), "for its arms");
    }

    /**
     * {@code profile}'s one line is labelled {@code nullLabel}, has the rounds of claims.jmh's {@code claimsLabel}
     * line (which contains {@code changed}) and is that line's text through {@code change}.
     */
    private static void assertNullLineIsItsClaimsLineBut(String profile, String nullLabel, String claimsLabel,
                                                         String changed, UnaryOperator<String> change, String what)
            throws IOException {
        List<ProfileLine> nulls = ProfileLine.read(Path.of(profile));
        ProfileLine c = byLabel(ProfileLine.read(Path.of("profiles/claims.jmh"))).get(claimsLabel);
        assertEquals(1, nulls.size(), profile + ": one line");
        ProfileLine n = nulls.get(0);
        assertEquals(nullLabel, n.label());
        assertEquals(c.rounds(), n.rounds(), "the rounds of " + claimsLabel);
        assertTrue(c.text().contains(changed), c.text());
        assertEquals(change.apply(c.text()), n.text(), claimsLabel + "'s line but " + what);
    }

    @Test
    void eachFollowUpLineIsItsClaimsLineWithMoreRounds() throws IOException {
        Map<String, ProfileLine> followUp = byLabel(ProfileLine.read(Path.of("profiles/claims-follow-up.jmh")));
        Map<String, ProfileLine> claims = byLabel(ProfileLine.read(Path.of("profiles/claims.jmh")));
        assertEquals(List.of("allocators-64", "aggregator", "page-200", "epoll41", "tasks41", "tasks42", "proxy-64",
                "side-by-side-64", "epoll41-side-by-side", "page-200-amd"),
                List.copyOf(followUp.keySet()), "the follow-up's groups");
        for (ProfileLine f : followUp.values()) {
            if (ClaimCatalog.RETIRED.stream().anyMatch(g -> g.label().equals(f.label()))) {
                // a line claims.jmh gave up later (its claims moved to side-by-side-64): the record keeps it
                assertNull(claims.get(f.label()), f.label() + " is retired from claims.jmh");
                continue;
            }
            // a line that runs a group again under a label of its own (page-200-amd: page-200 for the other host)
            String label = ClaimCatalog.FOLLOW_UP_LABELS.getOrDefault(f.label(), f.label());
            ProfileLine c = claims.get(label);
            assertNotNull(c, "claims line " + label);
            // More rounds than the line had when the follow-up ran, before claims.jmh's one resize (which gave
            // page-200 the follow-up's own 8), and never fewer than it has now.
            Group g = ClaimCatalog.GROUPS.stream().filter(x -> x.label().equals(label)).findFirst().orElseThrow();
            int then = g.firstRounds();
            assertTrue(f.rounds() > then, f.label() + ": more rounds than claims.jmh's " + then + " at the time");
            assertTrue(f.rounds() >= c.rounds(), f.label() + ": no fewer rounds than claims.jmh's " + c.rounds());
            assertEquals(new ProfileLine(0, c.text(), c.minJdk(), c.args(), c.label(), 0, c.jar(), c.twins()),
                    new ProfileLine(0, f.text(), f.minJdk(), f.args(), label, 0, f.jar(), f.twins()),
                    f.label() + ": the same line but for its rounds");
        }
    }

    private static Map<String, ProfileLine> byLabel(List<ProfileLine> lines) {
        Map<String, ProfileLine> m = new LinkedHashMap<>();
        lines.forEach(l -> m.put(l.label(), l));
        return m;
    }

    private static Map<String, Matcher> lines(Path file) throws IOException {
        Map<String, Matcher> byLabel = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            Matcher m = LINE.matcher(line.replaceAll("\\[jdk>=\\d+] |\\[jar=[^]]+] ", ""));
            if (m.matches()) {
                byLabel.put(m.group(1), m);
            }
        }
        return byLabel;
    }

    private static Map<String, List<String>> params(String rest) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        String[] words = rest.split(" ");
        for (int i = 0; i + 1 < words.length; i++) {
            if (words[i].equals("-p")) {
                String[] kv = words[i + 1].split("=", 2);
                params.put(kv[0], Arrays.asList(kv[1].split(",")));
            }
        }
        return params;
    }

    /** Everything but the -p pairs. */
    private static List<String> options(String rest) {
        List<String> options = new ArrayList<>();
        String[] words = rest.split(" ");
        for (int i = 0; i < words.length; i++) {
            if (words[i].equals("-p")) {
                i++;
            } else {
                options.add(words[i]);
            }
        }
        return options;
    }
}
