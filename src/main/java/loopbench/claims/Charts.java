package loopbench.claims;

import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Draws a {@link ChartSpec} from the measurements with XChart, and encodes it as PNG. A chart whose results are
 * all missing is not drawn (null); a bar whose result is missing is left out.
 */
public final class Charts {
    static final int WIDTH = 800;
    static final int HEIGHT = 450;
    /** Per-second entries shorter than this are not drawn on a warm-up curve (a partial last second). */
    static final double MIN_ENTRY_SECONDS = 0.5;

    static {
        // Charts are drawn on servers and in CI: never ask for a display.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    private Charts() {
    }

    /** The chart, or null when none of its results is there. */
    public static Chart<?, ?> draw(ChartSpec spec, Measurements m) {
        if (spec instanceof ChartSpec.Bars b) {
            return bars(b, m);
        }
        if (spec instanceof ChartSpec.BoundBars b) {
            return boundBars(b, m);
        }
        if (spec instanceof ChartSpec.WarmupCurve w) {
            return warmup(w, m);
        }
        if (spec instanceof ChartSpec.PercentilePlot p) {
            return percentiles(p, m);
        }
        throw new IllegalArgumentException("unknown chart " + spec);
    }

    public static byte[] png(Chart<?, ?> chart) throws IOException {
        return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
    }

    /** The mean of per-fork values and the half-width of its 95% t interval (0 with one fork). */
    record Mean(double mean, double halfWidth) {
        static Mean of(double[] values) {
            SummaryStatistics s = new SummaryStatistics();
            for (double v : values) {
                s.addValue(v);
            }
            double half = 0;
            if (s.getN() >= 2 && s.getStandardDeviation() > 0) {
                half = new TDistribution(s.getN() - 1).inverseCumulativeProbability(0.975)
                        * s.getStandardDeviation() / Math.sqrt(s.getN());
            }
            return new Mean(s.getMean(), half);
        }
    }

    private static Chart<?, ?> bars(ChartSpec.Bars spec, Measurements m) {
        Set<String> categories = new LinkedHashSet<>();
        Map<String, Map<String, Mean>> bySeries = new LinkedHashMap<>();
        String unit = null;
        for (ChartSpec.Bar bar : spec.bars()) {
            Statistic statistic = bar.statistic() != null ? bar.statistic() : spec.statistic();
            double[] v = values(statistic, m.find(bar.selection()), m);
            if (v == null || v.length == 0) {
                continue;
            }
            unit = unit != null ? unit : statistic.unitFor(m.find(bar.selection()));
            categories.add(bar.category());
            bySeries.computeIfAbsent(bar.series(), k -> new LinkedHashMap<>()).put(bar.category(), Mean.of(v));
        }
        if (bySeries.isEmpty()) {
            return null;
        }
        for (ChartSpec.Reference ref : spec.references()) {
            categories.add(ref.category());
            bySeries.computeIfAbsent(ref.series(), k -> new LinkedHashMap<>()).put(ref.category(),
                    new Mean(ref.value(), 0));
        }
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
                .xAxisTitle("").yAxisTitle(axis(spec.statistic().name(), unit)).build();
        style(chart.getStyler());
        chart.getStyler().setLegendVisible(bySeries.size() > 1);
        chart.getStyler().setOverlapped(false);
        chart.getStyler().setYAxisMin(0.0);
        List<String> cats = new ArrayList<>(categories);
        bySeries.forEach((series, values) -> {
            List<Double> y = new ArrayList<>();
            List<Double> err = new ArrayList<>();
            for (String c : cats) {
                Mean mean = values.get(c);
                y.add(mean == null ? null : mean.mean());
                err.add(mean == null ? null : mean.halfWidth());
            }
            chart.addSeries(series, cats, y, err);
        });
        return chart;
    }

    private static Chart<?, ?> boundBars(ChartSpec.BoundBars spec, Measurements m) {
        List<String> cats = new ArrayList<>();
        List<Double> measured = new ArrayList<>();
        List<Double> bound = new ArrayList<>();
        Statistic primary = Statistic.primary("throughput");
        Statistic predicted = Statistic.metric(EndToEndMetrics.PREDICTED_BOUND, "predicted bound", "req/s");
        for (ChartSpec.Bar bar : spec.strategies()) {
            JmhResult r = m.find(bar.selection());
            double[] v = values(primary, r, m);
            if (v == null) {
                continue;
            }
            double[] b = values(predicted, r, m);
            Mean mean = Mean.of(v);
            cats.add(bar.category());
            measured.add(mean.mean());
            bound.add(b == null ? null : Mean.of(b).mean());
        }
        if (cats.isEmpty()) {
            return null;
        }
        CategoryChart chart = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
                .xAxisTitle("").yAxisTitle("requests/s (log scale)").build();
        style(chart.getStyler());
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setYAxisLogarithmicDecadeOnly(false);
        // Points, not bars: a bar starts at 0, which a log axis cannot show; and no whiskers (XChart draws a
        // category chart's whiskers from 0 on a log axis): the intervals are in the report's tables.
        chart.getStyler().setDefaultSeriesRenderStyle(CategorySeries.CategorySeriesRenderStyle.Scatter);
        chart.getStyler().setMarkerSize(10);
        // XChart's log axis can clip the top point: give it the range explicitly.
        double max = 0;
        double min = Double.MAX_VALUE;
        for (List<Double> l : List.of(measured, bound)) {
            for (Double v : l) {
                if (v != null && v > 0) {
                    max = Math.max(max, v);
                    min = Math.min(min, v);
                }
            }
        }
        chart.getStyler().setYAxisMax(max * 1.5);
        chart.getStyler().setYAxisMin(min / 1.5);
        chart.addSeries("measured", cats, measured).setMarker(SeriesMarkers.CIRCLE);
        chart.addSeries("predicted bound", cats, bound).setMarker(SeriesMarkers.DIAMOND);
        return chart;
    }

    private static Chart<?, ?> warmup(ChartSpec.WarmupCurve spec, Measurements m) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
                .xAxisTitle("seconds since the load started").yAxisTitle("requests/s").build();
        style(chart.getStyler());
        for (ChartSpec.Line line : spec.lines()) {
            JmhResult r = m.find(line.selection());
            if (r == null) {
                continue;
            }
            for (SideFile f : m.sideFiles(r)) {
                List<SideFile.Second> seconds = f.perSecond();
                if (seconds.isEmpty()) {
                    continue;
                }
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                double elapsed = 0;
                for (SideFile.Second s : seconds) {
                    elapsed += s.durationSeconds();
                    // Each entry at its end, at its own rate; a run's last entry is what was left of it (often a few
                    // milliseconds): too short for a rate, and as a count it would plot as a drop to zero.
                    if (s.durationSeconds() >= MIN_ENTRY_SECONDS) {
                        x.add(elapsed);
                        y.add(s.rate());
                    }
                }
                XYSeries series = chart.addSeries(line.series() + " " + f.trial(), x, y);
                series.setMarker(SeriesMarkers.NONE);
            }
        }
        return chart.getSeriesMap().isEmpty() ? null : chart;
    }

    private static Chart<?, ?> percentiles(ChartSpec.PercentilePlot spec, Measurements m) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(spec.title())
                .xAxisTitle("percentile").yAxisTitle("latency (µs)").build();
        style(chart.getStyler());
        // x = log10(1 / (1 - percentile)): 0 is the median's left end (0%), 1 is 90%, 2 is 99%, 3 is 99.9%; XChart's
        // own log axis ignores a label function, so the axis is linear in the logarithm, labelled at whole decades.
        chart.getStyler().setxAxisTickLabelsFormattingFunction(Charts::percentileLabel);
        for (ChartSpec.Line line : spec.lines()) {
            JmhResult r = m.find(line.selection());
            if (r == null) {
                continue;
            }
            for (SideFile f : m.sideFiles(r)) {
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (SideFile.Percentile p : f.latencyDistribution("corrected")) {
                    if (p.fraction() < 1.0) {
                        x.add(Math.log10(1 / (1 - p.fraction())));
                        y.add(p.micros());
                    }
                }
                if (!x.isEmpty()) {
                    chart.addSeries(line.series() + " " + f.trial(), x, y).setMarker(SeriesMarkers.NONE);
                }
            }
        }
        return chart.getSeriesMap().isEmpty() ? null : chart;
    }

    /**
     * The x of the percentile plot, log10(1/(1 - p)), back as a percentile: 1 -> "90%", 3 -> "99.9%", 2.5 ->
     * "99.684%". Every tick gets a distinct label, even the ones XChart computes outside the axis (x < 0 gives a
     * negative percentage, never drawn): XChart 3.8 looks for a tick spacing until all labels are unique, forever if
     * two never are.
     */
    static String percentileLabel(double x) {
        if (Math.abs(x) < 1e-9) {
            return "0%";
        }
        double p = (1 - Math.pow(10, -x)) * 100;
        int decimals = Math.max(1, (int) Math.ceil(Math.abs(x) - 1e-9)); // one more digit per decade: 90, 99.0, 99.90
        String s = String.format(Locale.ROOT, "%." + decimals + "f", p);
        s = s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
        return s + "%";
    }

    /** A statistic's per-fork values for a result, or null (no result, or it lacks the statistic). */
    private static double[] values(Statistic statistic, JmhResult r, Measurements m) {
        ForkValues v = r == null ? null : statistic.forkValues(r, m);
        return v == null ? null : v.values();
    }

    private static String axis(String name, String unit) {
        return unit == null || unit.isEmpty() ? name : name + " (" + unit + ")";
    }

    private static void style(Styler styler) {
        styler.setChartBackgroundColor(java.awt.Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartTitleFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.BOLD, 15));
        styler.setLegendFont(new java.awt.Font(java.awt.Font.SANS_SERIF, java.awt.Font.PLAIN, 11));
    }
}
