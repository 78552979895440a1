package loopbench.claims;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A published claim and how loopbench decides it: the decisive checks (all must be confirmed for CONFIRMED; any
 * refuted, after Holm's correction, makes it REFUTED), supporting checks (shown, never deciding), the charts, why
 * the statistic is the faithful one, where the processes run, and what changed against the rules of 2026-11-23.
 * CLAIMS.md's per-claim sections are generated from these ({@link CatalogMarkdown}).
 *
 * @param figure        the article's own figure for the claim, as the article gives it
 * @param experiment    what runs here to test it
 * @param why           why the statistic is the faithful one
 * @param placement     where the processes run (or "in process")
 * @param boundary      why the boundaries are where they are
 * @param figures       the measured figures worth seeing next to the article's (absolute values, per fork)
 * @param untestable    when the decisive checks have no data: why this machine cannot test the claim and what
 *                      would (the verdict is then NOT-TESTABLE-HERE, not MISSING); null for a claim always testable
 * @param notReproduced conditions of the article this machine cannot reproduce even when the claim is judged, or null
 * @param changes       what changed against the rules of 2026-11-23, with the reason (empty: unchanged)
 * @param peers         which real gateways the claim is about, for checks re-run with them in the stand-in's place
 *                      ({@link Peers}); null when it names none
 * @param earlier       the checks of the rule this one replaced, for runs made before it; null if never revised
 */
public record Claim(String id, String title, String statement, Article article, String figure, String experiment,
                   String why, String placement, String boundary, List<Check> decisive, List<Check> supporting,
                   List<Figure> figures, List<ChartSpec> charts, String untestable, String notReproduced,
                   List<String> changes, String peers, Earlier earlier) {

    /**
     * The checks, figures and charts a claim had before its rule was revised: a run whose id (the rounds engine's, a
     * UTC time first) sorts before {@code revisedAt} is judged and shown by them, as it was when it was made.
     */
    public record Earlier(String revisedAt, List<Check> decisive, List<Check> supporting, List<Figure> figures,
                          List<ChartSpec> charts) {
        public Earlier {
            if (!revisedAt.matches("\\d{8}T\\d{6}Z")) {
                throw new IllegalArgumentException("a revision time is a run id's time, yyyyMMdd'T'HHmmss'Z', was '"
                        + revisedAt + "'");
            }
            decisive = List.copyOf(decisive);
            supporting = List.copyOf(supporting);
            figures = List.copyOf(figures);
            charts = List.copyOf(charts);
        }
    }

    /**
     * The claim as the run {@code run} is judged: with the checks of its rule at the time (today's for a run made
     * after the last revision, and for results of plain JMH runs, which have no run id).
     */
    public Claim asJudged(String run) {
        if (earlier == null || run == null || run.compareTo(earlier.revisedAt()) >= 0) {
            return this;
        }
        return new Claim(id, title, statement, article, figure, experiment, why, placement, boundary,
                earlier.decisive(), earlier.supporting(), earlier.figures(), earlier.charts(), untestable,
                notReproduced, changes, peers, null);
    }

    /** A measured figure the report shows with its interval: a statistic of one configuration. */
    public record Figure(String label, Selection selection, Statistic statistic) {
    }

    public Claim {
        decisive = List.copyOf(decisive);
        supporting = List.copyOf(supporting);
        figures = List.copyOf(figures);
        charts = List.copyOf(charts);
        changes = List.copyOf(changes);
        if (decisive.isEmpty()) {
            throw new IllegalArgumentException(id + ": a claim needs at least one decisive check");
        }
        for (Check c : decisive) {
            if (c.region() == null) {
                throw new IllegalArgumentException(id + ": decisive check '" + c.label() + "' has no region");
            }
        }
    }

    static Builder builder(String id, String title) {
        return new Builder(id, title);
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

    /** The distinct groups of profiles/claims.jmh that produce what the claim reads, in order. */
    public List<Group> groups() {
        Set<Group> groups = new LinkedHashSet<>();
        selections().forEach(s -> groups.add(s.group()));
        return List.copyOf(groups);
    }

    /** The groups its decisive checks read. */
    public List<Group> decisiveGroups() {
        Set<Group> groups = new LinkedHashSet<>();
        decisive.forEach(c -> c.selections().forEach(s -> groups.add(s.group())));
        return List.copyOf(groups);
    }

    /** The rule in words, from the decisive checks' regions and margins. */
    public String rule() {
        StringBuilder s = new StringBuilder();
        if (decisive.size() == 1) {
            Check c = decisive.get(0);
            s.append("CONFIRMED if the 95% interval of ").append(c.label()).append(" lies ")
                    .append(c.region().words(Format::ratio)).append("; REFUTED if it lies wholly outside.");
        } else {
            s.append("CONFIRMED if every decisive interval lies inside its region (");
            List<String> parts = new ArrayList<>();
            for (Check c : decisive) {
                parts.add(c.label() + " " + c.region().words(Format::ratio));
            }
            s.append(String.join("; ", parts)).append("); REFUTED if any lies wholly outside its region with its ")
                    .append("p-value Holm-adjusted over the ").append(decisive.size()).append(" checks below 0.025.");
        }
        Set<String> margins = new LinkedHashSet<>();
        decisive.stream().filter(c -> c.margin() != null).forEach(c -> margins.add(c.margin().describe()));
        for (String m : margins) {
            s.append(" Equivalence margin ").append(m).append(": an interval wholly within it reads \"no effect ")
                    .append("beyond ").append(m).append("\" and counts against the claim.");
        }
        s.append(" Otherwise INCONCLUSIVE.");
        return s.toString();
    }

    /** Builds a claim field by field (the record has many). */
    static final class Builder {
        private final String id;
        private final String title;
        private String statement;
        private Article article;
        private String figure;
        private String experiment;
        private String why;
        private String placement;
        private String boundary;
        private List<Check> decisive = List.of();
        private List<Check> supporting = List.of();
        private List<Figure> figures = List.of();
        private List<ChartSpec> charts = List.of();
        private String untestable;
        private String notReproduced;
        private List<String> changes = List.of();
        private String peers;
        private Earlier earlier;

        private Builder(String id, String title) {
            this.id = id;
            this.title = title;
        }

        Builder claim(String statement) {
            this.statement = statement;
            return this;
        }

        Builder article(Article a, String figure) {
            this.article = a;
            this.figure = figure;
            return this;
        }

        Builder experiment(String text) {
            this.experiment = text;
            return this;
        }

        Builder why(String text) {
            this.why = text;
            return this;
        }

        Builder placement(String text) {
            this.placement = text;
            return this;
        }

        Builder boundary(String text) {
            this.boundary = text;
            return this;
        }

        Builder decisive(Check... checks) {
            this.decisive = List.of(checks);
            return this;
        }

        Builder supporting(Check... checks) {
            this.supporting = List.of(checks);
            return this;
        }

        Builder figures(Figure... f) {
            this.figures = List.of(f);
            return this;
        }

        Builder charts(ChartSpec... c) {
            this.charts = List.of(c);
            return this;
        }

        Builder untestable(String reason) {
            this.untestable = reason;
            return this;
        }

        Builder notReproduced(String text) {
            this.notReproduced = text;
            return this;
        }

        Builder changes(String... c) {
            this.changes = List.of(c);
            return this;
        }

        /**
         * The rule was revised at {@code revisedAt} (a run id's time): the checks, figures and charts given to this
         * builder hold from then on, these before.
         */
        Builder revisedFrom(String revisedAt, List<Check> earlierDecisive, List<Check> earlierSupporting,
                            List<Figure> earlierFigures, List<ChartSpec> earlierCharts) {
            this.earlier = new Earlier(revisedAt, earlierDecisive, earlierSupporting, earlierFigures, earlierCharts);
            return this;
        }

        Builder peers(String text) {
            this.peers = text;
            return this;
        }

        Claim build() {
            return new Claim(id, title, statement, article, figure, experiment, why, placement, boundary, decisive,
                    supporting, figures, charts, untestable, notReproduced, changes, peers, earlier);
        }
    }
}
