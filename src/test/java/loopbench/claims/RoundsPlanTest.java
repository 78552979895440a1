package loopbench.claims;

import loopbench.profile.ProfileLine;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rounds planner: its power formula on known cases, and the committed follow-up profile's rounds are what it
 * computes from the claims runs that profile was sized from (its header states the sizing; this holds the
 * header to the project's own computation).
 */
class RoundsPlanTest {

    @Test
    void roundsGrowWithNoiseAndShrinkWithDistance() {
        assertEquals(3, RoundsPlan.rounds(0, 0.1), "no noise: the minimum");
        assertEquals(-1, RoundsPlan.rounds(0.05, 0), "an estimate on its boundary: out of reach");
        // (t(0.975, R-1) + t(0.80, R-1)) * sd / sqrt(R) < d: with sd = d the normal-theory answer is
        // (1.960 + 0.842)^2 = 7.85, and the t quantiles at so few rounds push it to 10.
        assertEquals(10, RoundsPlan.rounds(0.1, 0.1));
        assertTrue(RoundsPlan.rounds(0.2, 0.1) > RoundsPlan.rounds(0.1, 0.1));
        assertTrue(RoundsPlan.rounds(0.1, 0.2) < RoundsPlan.rounds(0.1, 0.1));
    }

    @Test
    void theBisectionFindsWhatALinearSearchFinds() {
        for (double sd : new double[] {0.01, 0.05, 0.168, 0.4}) {
            for (double d : new double[] {0.005, 0.014, 0.05, 0.2, 1.0}) {
                int linear = -1;
                for (int r = 3; r <= RoundsPlan.MOST && linear < 0; r++) {
                    TDistribution t = new TDistribution(r - 1);
                    if ((t.inverseCumulativeProbability(0.975) + t.inverseCumulativeProbability(RoundsPlan.POWER))
                            * sd / Math.sqrt(r) < d) {
                        linear = r;
                    }
                }
                assertEquals(linear, RoundsPlan.rounds(sd, d), "sd " + sd + ", d " + d);
            }
        }
    }

    @Test
    void theFollowUpProfilesRoundsAreThePlanOfTheRunsBeforeIt() throws IOException {
        // Each follow-up line's label -> the claim it was sized for (N-2: both lines, the larger of its two checks),
        // from the three claims runs before the first follow-up or (C000-4, added later) the six before it;
        // side-by-side-64: the largest need among the claims it decides that 12 rounds can reach, from runs 10-11;
        // epoll41-side-by-side: C004-1's need from run 13, the only claims run with that line; page-200-amd:
        // C002-3's from the AMD host's seven runs (7-13).
        Map<String, String> sizedFor = Map.of("allocators-64", "C000-6", "aggregator", "C000-7", "page-200",
                "C002-3", "epoll41", "C004-1", "tasks41", "N-2", "tasks42", "N-2", "proxy-64", "C000-4");
        Map<String, Integer> fromThree = needed("2026-11-25/claims-run-1", "2026-11-25/claims-run-2",
                "2026-11-26/claims-run-3");
        Map<String, Integer> fromSix = needed("2026-11-25/claims-run-1", "2026-11-25/claims-run-2",
                "2026-11-26/claims-run-3", "2026-11-26/claims-run-4", "2026-11-26/claims-run-5",
                "2026-11-26/claims-run-6");
        Map<String, Integer> sideBySide = needed("2026-11-27/claims-run-10", "2026-11-27/claims-run-11");
        Map<String, Integer> epollSideBySide = needed("2026-11-27/claims-run-13");
        Map<String, Integer> amd = needed("2026-11-26/claims-run-7", "2026-11-26/claims-run-8",
                "2026-11-26/claims-run-9", "2026-11-27/claims-run-10", "2026-11-27/claims-run-11",
                "2026-11-27/claims-run-12", "2026-11-27/claims-run-13");
        int sideBySideRounds = List.of("C000-1", "C000-2", "C000-3", "C000-4", "C000-5", "C000-6").stream()
                .map(sideBySide::get).filter(r -> r <= 12).max(Integer::compare).orElseThrow();
        Map<String, Integer> profile = new TreeMap<>();
        Map<String, Integer> plan = new TreeMap<>();
        for (ProfileLine line : ProfileLine.read(Path.of("profiles/claims-follow-up.jmh"))) {
            profile.put(line.label(), line.rounds());
            if (line.label().equals("side-by-side-64")) {
                plan.put(line.label(), sideBySideRounds);
            } else if (line.label().equals("epoll41-side-by-side")) {
                plan.put(line.label(), epollSideBySide.get("C004-1"));
            } else if (line.label().equals("page-200-amd")) {
                plan.put(line.label(), amd.get("C002-3"));
            } else {
                String claim = sizedFor.get(line.label());
                plan.put(line.label(), (claim.equals("C000-4") ? fromSix : fromThree).get(claim));
            }
        }
        Set<String> labels = new TreeSet<>(sizedFor.keySet());
        labels.add("side-by-side-64");
        labels.add("epoll41-side-by-side");
        labels.add("page-200-amd");
        assertEquals(labels, profile.keySet(), "the follow-up's lines this test knows");
        assertEquals(plan, profile);
        assertEquals(12, sideBySide.get("C000-1"), "C000-1 sized the side-by-side line");
        assertEquals(23, epollSideBySide.get("C004-1"), "the profile's header gives C004-1's 23 rounds");
        assertEquals(27, amd.get("C002-3"), "the profile's header gives C002-3's 27 rounds");
    }

    /** Claim -> the rounds its hardest decisive check needs, planned from the given committed runs. */
    private static Map<String, Integer> needed(String... runDirs) throws IOException {
        List<VerdictHistory.Run> runs = new ArrayList<>();
        for (String r : runDirs) {
            runs.add(VerdictHistory.load(Path.of("docs/results", r)));
        }
        Map<String, Integer> needed = new TreeMap<>();
        for (RoundsPlan.Row row : RoundsPlan.plan(runs)) {
            // -1 is beyond reach: harder than any count
            needed.merge(row.claim(), row.needed() < 0 ? Integer.MAX_VALUE : row.needed(), Math::max);
        }
        return needed;
    }

    @Test
    void theNearestBoundaryIncludesTheEquivalenceMargin() throws IOException {
        List<VerdictHistory.Run> runs = List.of(VerdictHistory.load(Path.of("docs/results/2026-11-26/claims-run-3")));
        RoundsPlan.Row c0007 = RoundsPlan.plan(runs).stream().filter(r -> r.claim().equals("C000-7")).findFirst()
                .orElseThrow();
        // Run 3 measured 1.016, above the claim's boundary 1.01: the nearest boundary is 1.01 itself.
        assertEquals(1.01, c0007.nearest(), 1e-12);
        assertEquals(Math.log(c0007.meanRatio()) - Math.log(1.01), c0007.distance(), 1e-12);
        RoundsPlan.Row n2 = RoundsPlan.plan(runs).stream().filter(r -> r.check().startsWith("mean latency"))
                .findFirst().orElseThrow();
        // N-2's mean: region above 1.10, margin ±10%: 1.074 is nearest to 1.10.
        assertEquals(1.10, n2.nearest(), 1e-12);
    }
}
