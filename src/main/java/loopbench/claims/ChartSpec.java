package loopbench.claims;

import java.util.List;

/** A chart of a claim, drawn by {@link Charts} from the results it names. {@link #id()} is its PNG's file name. */
public sealed interface ChartSpec {

    String id();

    String title();

    /** The configurations the chart reads. */
    List<Selection> selections();

    /** One bar: a configuration, where it goes; {@code statistic} overrides the chart's (null: the chart's). */
    record Bar(String category, String series, Selection selection, Statistic statistic) {
        public Bar(String category, String series, Selection selection) {
            this(category, series, selection, null);
        }
    }

    /** A line of an XY chart: a configuration whose results (or side files) make the series. */
    record Line(String series, Selection selection) {
    }

    /** A bar that is not measured here: the article's own figure, drawn without a whisker. */
    record Reference(String category, String series, double value) {
    }

    /**
     * Bars of a statistic (mean of the fork values) with 95% confidence whiskers (t interval of that mean), grouped
     * by category, one colour per series.
     */
    record Bars(String id, String title, Statistic statistic, List<Bar> bars, List<Reference> references)
            implements ChartSpec {
        public Bars(String id, String title, Statistic statistic, List<Bar> bars) {
            this(id, title, statistic, bars, List.of());
        }

        @Override
        public List<Selection> selections() {
            return bars.stream().map(Bar::selection).toList();
        }
    }

    /** Measured throughput (with whiskers) against the predicted bound, per strategy, on a log scale. */
    record BoundBars(String id, String title, List<Bar> strategies) implements ChartSpec {
        @Override
        public List<Selection> selections() {
            return strategies.stream().map(Bar::selection).toList();
        }
    }

    /**
     * Requests per second of each fork (from the side files), each per-second entry at its own rate: a cold start's
     * warm-up.
     */
    record WarmupCurve(String id, String title, List<Line> lines) implements ChartSpec {
        @Override
        public List<Selection> selections() {
            return lines.stream().map(Line::selection).toList();
        }
    }

    /**
     * Latency against percentile, the x axis stretched as 1/(1 - percentile) on a log scale (HdrHistogram's
     * percentile plot), one series per fork of each configuration (from the side files).
     */
    record PercentilePlot(String id, String title, List<Line> lines) implements ChartSpec {
        @Override
        public List<Selection> selections() {
            return lines.stream().map(Line::selection).toList();
        }
    }
}
