package loopbench.claims;

import loopbench.stats.Holm;
import loopbench.stats.Region;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A claim's verdict from its checks.
 * <ol>
 *   <li>NOT-TESTABLE-HERE if the claim cannot be tested without results this machine did not produce (its decisive
 *       checks have no data and the claim says why; e.g. a link shaped to 1 Gbit/s needs network namespaces).</li>
 *   <li>REFUTED if any decisive check's p-value against the claimed region, Holm-adjusted over the claim's
 *       decisive checks, is below {@link Region#ALPHA}: one clear contradiction is enough, and Holm keeps a claim
 *       with many checks from being refuted by chance. An interval wholly within a check's equivalence margin is
 *       such a contradiction for a claim of an effect, and is worded "no effect beyond +-m".</li>
 *   <li>MISSING if a decisive check has no data (the report names the labelled profile lines).</li>
 *   <li>CONFIRMED if every decisive check is confirmed on its own (an intersection of one-sided tests needs no
 *       correction).</li>
 *   <li>INCONCLUSIVE otherwise: some interval straddles a boundary.</li>
 * </ol>
 * A verdict is provisional when a decisive check rests on fewer rounds than profiles/claims.jmh assigns
 * ({@link #provisional()}).
 */
public record ClaimResult(Claim claim, Verdict verdict, String reason, List<CheckResult> decisive,
                          double[] adjustedAgainst, List<CheckResult> supporting) {

    public static ClaimResult evaluate(Claim today, Measurements m) {
        Claim claim = today.asJudged(m.latestRun());
        List<CheckResult> decisive = claim.decisive().stream().map(c -> c.evaluate(m)).toList();
        List<CheckResult> supporting = claim.supporting().stream().map(c -> c.evaluate(m)).toList();
        double[] against = decisive.stream().mapToDouble(CheckResult::pAgainst).toArray();
        double[] adjusted = Holm.adjust(against);
        if (claim.untestable() != null && decisive.stream().allMatch(r -> r.status() == Verdict.MISSING)) {
            return new ClaimResult(claim, Verdict.NOT_TESTABLE_HERE, claim.untestable(), decisive, adjusted,
                    supporting);
        }
        List<String> refuted = new ArrayList<>();
        for (int i = 0; i < decisive.size(); i++) {
            if (adjusted[i] < Region.ALPHA) {
                CheckResult r = decisive.get(i);
                String region = r.check().region().describe(Format::ratio);
                refuted.add(r.check().label() + ": " + r.effect() + (r.equivalence() != null
                        ? ", against the claimed " + region : " lies outside the claimed region " + region)
                        + " (Holm-adjusted p = " + Format.p(adjusted[i]) + ")");
            }
        }
        if (!refuted.isEmpty()) {
            return new ClaimResult(claim, Verdict.REFUTED, String.join("; ", refuted), decisive, adjusted, supporting);
        }
        Set<String> producers = new LinkedHashSet<>();
        Set<String> configurations = new LinkedHashSet<>();
        for (CheckResult r : decisive) {
            r.missing().forEach(s -> {
                producers.add(s.group().producedBy());
                configurations.add(s.describe());
            });
        }
        if (!producers.isEmpty()) {
            return new ClaimResult(claim, Verdict.MISSING, "no results for " + String.join("; ", configurations)
                    + ". Produced by " + String.join("; ", producers), decisive, adjusted, supporting);
        }
        if (decisive.stream().allMatch(r -> r.status() == Verdict.CONFIRMED)) {
            return new ClaimResult(claim, Verdict.CONFIRMED, decisive.size() == 1
                    ? "the 95% interval lies inside the claimed region "
                    + decisive.get(0).check().region().describe(Format::ratio)
                    : "every decisive check's 95% interval lies inside its claimed region", decisive, adjusted,
                    supporting);
        }
        List<String> open = new ArrayList<>();
        for (int i = 0; i < decisive.size(); i++) {
            CheckResult r = decisive.get(i);
            if (r.status() == Verdict.REFUTED) {
                // outside at its own 95%, not after Holm's correction over the claim's decisive checks
                open.add(r.check().label() + ": " + r.effect() + " lies outside "
                        + r.check().region().describe(Format::ratio) + " at its own 95% level, not after Holm's "
                        + "correction over " + decisive.size() + " checks (adjusted p = " + Format.p(adjusted[i])
                        + ")");
            } else if (r.status() != Verdict.CONFIRMED) {
                String boundaries = String.join(" or ", r.check().region().boundaries().stream()
                        .map(Format::ratio).toList());
                RoundsPlan.Decider decider = RoundsPlan.decider(r);
                open.add(r.check().label() + ": " + r.effect() + (r.hasInterval() ? " straddles " + boundaries : "")
                        + (r.notes().isEmpty() ? "" : " (" + String.join("; ", r.notes()) + ")")
                        + (decider == null ? "" : "; " + decider.describe()));
            }
        }
        return new ClaimResult(claim, Verdict.INCONCLUSIVE, "inside the noise: " + String.join("; ", open), decisive,
                adjusted, supporting);
    }

    /**
     * "3 of 6 rounds" when the verdict rests on a decisive check with fewer rounds than profiles/claims.jmh assigns
     * to its group (a short run, e.g. the default selection), else null. Only verdicts that judged data can be.
     */
    public String provisional() {
        if (verdict == Verdict.MISSING || verdict == Verdict.NOT_TESTABLE_HERE) {
            return null;
        }
        for (CheckResult r : decisive) {
            if (r.provisional() != null) {
                return r.provisional();
            }
        }
        return null;
    }

    /** "CONFIRMED" or "CONFIRMED (provisional: 3 of 6 rounds)". */
    public String verdictText() {
        String p = provisional();
        return p == null ? verdict.label() : verdict.label() + " (provisional: " + p + ")";
    }

    /** The groups that produce every missing configuration of this claim (decisive and supporting). */
    public List<Group> missingGroups() {
        Set<Group> groups = new LinkedHashSet<>();
        decisive.forEach(r -> r.missing().forEach(s -> groups.add(s.group())));
        supporting.forEach(r -> r.missing().forEach(s -> groups.add(s.group())));
        return List.copyOf(groups);
    }
}
