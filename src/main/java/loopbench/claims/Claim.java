package loopbench.claims;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A published claim and how loopbench decides it: the decisive checks (all must be confirmed for CONFIRMED; any
 * refuted, after Holm's correction, makes it REFUTED), supporting checks (shown, never deciding), the charts, and,
 * for a claim this machine cannot test, the reason.
 *
 * @param figure       the article's own figure for the claim, as the article gives it
 * @param experiment   what runs here to test it
 * @param rule         how the measurement turns into a verdict, in words (the checks' regions are the rule)
 * @param figures      the measured figures worth seeing next to the article's (absolute values, per fork)
 * @param notTestable  why this machine cannot test it and what would, or null
 */
public record Claim(String id, String title, String statement, Article article, String figure, String experiment,
                    String rule, List<Check> decisive, List<Check> supporting, List<Figure> figures,
                    List<ChartSpec> charts, String notTestable) {

    /** A measured figure the report shows with its interval: a statistic of one configuration. */
    public record Figure(String label, Selection selection, Statistic statistic) {
    }

    public Claim {
        decisive = List.copyOf(decisive);
        supporting = List.copyOf(supporting);
        figures = List.copyOf(figures);
        charts = List.copyOf(charts);
        if (notTestable == null && decisive.isEmpty()) {
            throw new IllegalArgumentException(id + ": a testable claim needs at least one decisive check");
        }
        for (Check c : decisive) {
            if (c.region() == null) {
                throw new IllegalArgumentException(id + ": decisive check '" + c.label() + "' has no region");
            }
        }
    }

    /** Every configuration the claim reads, decisive checks first. */
    public List<Selection> selections() {
        List<Selection> s = new ArrayList<>();
        decisive.forEach(c -> s.addAll(c.selections()));
        supporting.forEach(c -> s.addAll(c.selections()));
        figures.forEach(f -> s.add(f.selection()));
        charts.forEach(c -> s.addAll(c.selections()));
        return s;
    }

    /** The distinct profile lines that produce what the claim reads, in order. */
    public List<String> profileLines() {
        Set<String> lines = new LinkedHashSet<>();
        selections().forEach(s -> lines.add(s.profileLine()));
        return List.copyOf(lines);
    }
}
