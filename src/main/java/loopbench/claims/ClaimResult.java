package loopbench.claims;

import loopbench.stats.Holm;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A claim's verdict from its checks.
 * <ol>
 *   <li>NOT-TESTABLE-HERE if the claim says so (its checks are still measured and shown).</li>
 *   <li>REFUTED if any decisive check's p-value against the claimed region, Holm-adjusted over the claim's
 *       decisive checks, is below {@link Region#ALPHA}: one clear contradiction is enough, and Holm keeps a claim
 *       with many checks from being refuted by chance.</li>
 *   <li>MISSING if a decisive check has no data (the report names the profile lines).</li>
 *   <li>CONFIRMED if every decisive check is confirmed on its own (an intersection of one-sided tests needs no
 *       correction).</li>
 *   <li>INCONCLUSIVE otherwise: some interval straddles its boundary.</li>
 * </ol>
 */
public record ClaimResult(Claim claim, Verdict verdict, String reason, List<CheckResult> decisive,
                          double[] adjustedAgainst, List<CheckResult> supporting) {

    public static ClaimResult evaluate(Claim claim, Measurements m) {
        List<CheckResult> decisive = claim.decisive().stream().map(c -> c.evaluate(m)).toList();
        List<CheckResult> supporting = claim.supporting().stream().map(c -> c.evaluate(m)).toList();
        double[] against = decisive.stream().mapToDouble(CheckResult::pAgainst).toArray();
        double[] adjusted = Holm.adjust(against);
        if (claim.notTestable() != null) {
            return new ClaimResult(claim, Verdict.NOT_TESTABLE_HERE, claim.notTestable(), decisive, adjusted, supporting);
        }
        List<String> refuted = new ArrayList<>();
        for (int i = 0; i < decisive.size(); i++) {
            if (adjusted[i] < Region.ALPHA) {
                CheckResult r = decisive.get(i);
                refuted.add(r.check().label() + ": " + r.effect() + " lies outside the claimed region "
                        + r.check().region().describe() + " (Holm-adjusted p = " + Format.p(adjusted[i]) + ")");
            }
        }
        if (!refuted.isEmpty()) {
            return new ClaimResult(claim, Verdict.REFUTED, String.join("; ", refuted), decisive, adjusted, supporting);
        }
        Set<String> lines = new LinkedHashSet<>();
        for (CheckResult r : decisive) {
            r.missing().forEach(s -> lines.add(s.profileLine()));
        }
        if (!lines.isEmpty()) {
            return new ClaimResult(claim, Verdict.MISSING, "no results for " + String.join("; ", missingConfigurations(decisive))
                    + ". Produced by profiles/claims.jmh: " + String.join(" | ", lines.stream().map(l -> "`" + l + "`").toList()),
                    decisive, adjusted, supporting);
        }
        if (decisive.stream().allMatch(r -> r.status() == Verdict.CONFIRMED)) {
            return new ClaimResult(claim, Verdict.CONFIRMED, decisive.size() == 1
                    ? "the 95% interval lies inside the claimed region " + decisive.get(0).check().region().describe()
                    : "every decisive check's 95% interval lies inside its claimed region", decisive, adjusted, supporting);
        }
        List<String> open = new ArrayList<>();
        for (CheckResult r : decisive) {
            if (r.status() != Verdict.CONFIRMED) {
                open.add(r.check().label() + ": " + r.effect() + (r.hasInterval()
                        ? " straddles " + Format.ratio(r.check().region().boundary())
                        : "") + (r.notes().isEmpty() ? "" : " (" + String.join("; ", r.notes()) + ")"));
            }
        }
        return new ClaimResult(claim, Verdict.INCONCLUSIVE, "inside the noise: " + String.join("; ", open), decisive,
                adjusted, supporting);
    }

    private static List<String> missingConfigurations(List<CheckResult> decisive) {
        Set<String> s = new LinkedHashSet<>();
        decisive.forEach(r -> r.missing().forEach(x -> s.add(x.describe())));
        return List.copyOf(s);
    }

    /** The profile lines that produce every missing configuration of this claim (decisive and supporting). */
    public List<String> missingLines() {
        Set<String> lines = new LinkedHashSet<>();
        decisive.forEach(r -> r.missing().forEach(s -> lines.add(s.profileLine())));
        supporting.forEach(r -> r.missing().forEach(s -> lines.add(s.profileLine())));
        return List.copyOf(lines);
    }
}
