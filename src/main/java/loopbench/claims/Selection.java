package loopbench.claims;

import loopbench.report.JmhResult;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One configuration a claim needs: a benchmark method ({@code Class.method}) with some of its parameters pinned, and
 * the group of {@code profiles/claims.jmh} that measures it. A result matches when it is of that method and has
 * every pinned parameter at the pinned value (parameters not named here are free, so that a benchmark may gain a
 * parameter without breaking the claims); when results carry the rounds engine's group, the selection's own group
 * is preferred (the same configuration may run in two groups, each paired with its own neighbours).
 */
public record Selection(String label, String benchmark, Map<String, String> params, Group group) {

    public Selection {
        if (!benchmark.matches("[A-Za-z0-9_]+\\.[A-Za-z0-9_]+")) {
            throw new IllegalArgumentException("benchmark must be Class.method, was " + benchmark);
        }
        params = Collections.unmodifiableMap(new TreeMap<>(params));
    }

    /** {@code Selection.of("L4", "X.m", group, "layer", "4", "threadModel", "reuse-server-thread")}. */
    public static Selection of(String label, String benchmark, Group group, String... keyValues) {
        if (keyValues.length % 2 != 0) {
            throw new IllegalArgumentException("parameters come in name, value pairs");
        }
        Map<String, String> p = new TreeMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            p.put(keyValues[i], keyValues[i + 1]);
        }
        return new Selection(label, benchmark, p, group);
    }

    /** The same configuration with one parameter changed, under another label. */
    public Selection with(String newLabel, String param, String value) {
        Map<String, String> p = new TreeMap<>(params);
        p.put(param, value);
        return new Selection(newLabel, benchmark, p, group);
    }

    /** The same configuration measured by another group. */
    public Selection in(Group other) {
        return new Selection(label, benchmark, params, other);
    }

    /** The benchmark's class, e.g. {@code ProxyEndToEndBenchmark}. */
    public String className() {
        return benchmark.substring(0, benchmark.indexOf('.'));
    }

    /** Same method, every pinned parameter at its value (the group is not looked at). */
    public boolean matches(JmhResult r) {
        if (!r.shortName().equals(benchmark)) {
            return false;
        }
        for (Map.Entry<String, String> p : params.entrySet()) {
            if (!p.getValue().equals(r.param(p.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The results that measure this selection, in input order: those of its group (or of a follow-up line of it,
     * {@link ClaimCatalog#FOLLOW_UP_LABELS}) when any result carries that group, else the matches that carry no group
     * (plain JMH runs, external targets); twins of null experiments never. A match measured by another group is not
     * this selection's: a run without the selection's group (a profile of a few groups) would otherwise read a
     * configuration that merely pins fewer parameters, e.g. Netty 4.1's edge-triggered forks for a 4.2 selection that
     * names no epoll mode.
     */
    public List<JmhResult> matchesIn(List<JmhResult> results) {
        List<JmhResult> ungrouped = new ArrayList<>();
        List<JmhResult> ofGroup = new ArrayList<>();
        for (JmhResult r : results) {
            if (r.twin() == null && matches(r)) {
                if (r.group() == null) {
                    ungrouped.add(r);
                } else if (group.label().equals(r.group())
                        || group.label().equals(ClaimCatalog.FOLLOW_UP_LABELS.get(r.group()))) {
                    ofGroup.add(r);
                }
            }
        }
        return ofGroup.isEmpty() ? ungrouped : ofGroup;
    }

    /** {@code Class.method {k=v, ...}}. */
    public String describe() {
        return benchmark + (params.isEmpty() ? "" : " " + params.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ", "{", "}")));
    }
}
