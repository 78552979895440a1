package loopbench.memory;

import loopbench.claims.ChartSpec;
import loopbench.claims.Charts;
import loopbench.claims.Group;
import loopbench.claims.Measurements;
import loopbench.claims.Selection;
import loopbench.claims.SideFile;
import loopbench.claims.Statistic;
import loopbench.metrics.MemoryReport;
import loopbench.report.AtomicFile;
import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;
import org.knowm.xchart.internal.chartpart.Chart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The memory table of MemoryEndToEndBenchmark's results: what each allocator holds, by Netty line, server,
 * connections, body size and phase (steady, at the burst's end, after the burst), from the figures the servers
 * reported themselves ({@link MemoryReport}); every row names the Netty its server ran (from the trial's side
 * files), and a bar chart per server and phase shows the direct memory the allocator holds (XChart, drawn as the
 * claims report draws). Figures are means over forks, with how many forks they come from: a table of what was held,
 * not a verdict (claim N-1 judges one comparison of it, with its rounds).
 */
public final class MemoryTable {
    static final String BENCHMARK = "MemoryEndToEndBenchmark.requests";
    /** The columns: figure, and the metric it is read from (per process). */
    static final List<String> FIGURES = List.of(MemoryReport.ALLOCATOR_DIRECT_RESERVED,
            MemoryReport.ALLOCATOR_DIRECT_IN_USE, MemoryReport.NETTY_DIRECT, MemoryReport.JDK_DIRECT, MemoryReport.RSS,
            MemoryReport.HEAP_AFTER_GC);

    private MemoryTable() {
    }

    /** One configuration measured: its result, the server role it is about, and the Netty that server ran. */
    record Row(JmhResult result, String role, String netty) {
        String param(String name) {
            return result.param(name);
        }

        /** The mean over forks of a metric, or NaN. */
        double mean(String metric) {
            JmhResult.Metric m = result.metric(metric);
            if (m == null || m.rawData().length == 0) {
                return Double.NaN;
            }
            double[] f = m.forkMeans();
            double s = 0;
            for (double v : f) {
                s += v;
            }
            return s / f.length;
        }
    }

    /** What was written. */
    public record Written(Path markdown, List<Path> charts, int rows) {
    }

    /** Reads the results (and their side files) and writes {@code out/memory.md} and {@code out/charts/*.png}. */
    public static Written write(List<Path> jsonFiles, Path out) throws IOException {
        Measurements m = Measurements.load(jsonFiles);
        List<Row> rows = rows(m);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no " + BENCHMARK + " results in " + jsonFiles + " (run profiles/"
                    + "memory.jmh, or MemoryEndToEndBenchmark with -prof loopbench.bench.EndToEndProfiler)");
        }
        Files.createDirectories(out.resolve("charts"));
        List<Path> charts = new ArrayList<>();
        StringBuilder md = new StringBuilder("# What each allocator holds\n\n");
        md.append("From ").append(String.join(", ", jsonFiles.stream().map(Path::toString).toList()))
                .append(": MemoryEndToEndBenchmark, each figure as the server read it at the end of a measurement "
                        + "iteration (mean over forks; `burst's end`: at the end of the burst of 1 MiB bodies, before "
                        + "the light load). MiB; per connection in KiB.\n\n");
        for (String server : new TreeSet<>(rows.stream().map(r -> r.param("server")).toList())) {
            for (String phase : List.of("steady", "burst's end", "after-burst")) {
                List<Row> part = rows.stream().filter(r -> r.param("server").equals(server)
                        && r.param("phase").equals(phase.equals("burst's end") ? "after-burst" : phase)).toList();
                if (part.isEmpty()) {
                    continue;
                }
                boolean atBurstEnd = phase.equals("burst's end");
                md.append("## ").append(server).append(", ").append(phase).append("\n\n");
                table(md, part, atBurstEnd);
                Path png = chart(m, part, server, phase, atBurstEnd, out.resolve("charts"));
                if (png != null) {
                    charts.add(png);
                    md.append("\n![").append(server).append(' ').append(phase).append("](charts/")
                            .append(png.getFileName()).append(")\n");
                }
                md.append('\n');
            }
        }
        Path file = out.resolve("memory.md");
        AtomicFile.write(file, md.toString());
        return new Written(file, charts, rows.size());
    }

    /** Every MemoryEndToEndBenchmark result, ordered by server, phase, Netty, allocator, connections, body size. */
    static List<Row> rows(Measurements m) {
        List<Row> rows = new ArrayList<>();
        for (JmhResult r : m.results()) {
            if (!r.shortName().equals(BENCHMARK)) {
                continue;
            }
            String role = "proxy".equals(r.param("server")) ? EndToEndMetrics.PROXY : EndToEndMetrics.ECHO;
            rows.add(new Row(r, role, netty(m.sideFiles(r), role)));
        }
        rows.sort(Comparator.comparing((Row r) -> r.param("server")).thenComparing(r -> r.param("phase"))
                .thenComparing(Row::netty).thenComparing(r -> r.param("allocator"))
                .thenComparingInt(r -> Integer.parseInt(r.param("connections")))
                .thenComparingInt(r -> Integer.parseInt(r.param("bodySize"))));
        return rows;
    }

    /** The Netty versions the role's process ran in these trials (its side files' memory reports), or "?". */
    static String netty(List<SideFile> files, String role) {
        Set<String> versions = new LinkedHashSet<>();
        for (SideFile f : files) {
            String v = f.serverNetty(role);
            if (v != null) {
                versions.add(v);
            }
        }
        return versions.isEmpty() ? "?" : String.join("+", versions);
    }

    private static String metric(String role, String figure, boolean atBurstEnd) {
        return atBurstEnd ? EndToEndMetrics.memoryAtBurstEnd(role, figure) : EndToEndMetrics.memory(role, figure);
    }

    private static void table(StringBuilder md, List<Row> rows, boolean atBurstEnd) {
        md.append("| Netty | allocator | connections | body | ");
        FIGURES.forEach(f -> md.append(f).append(" | "));
        md.append("allocator.direct.reserved per connection (KiB) | rss per connection (KiB) | forks |\n|");
        md.append(" --- |".repeat(4)).append(" ---: |".repeat(FIGURES.size() + 3)).append('\n');
        for (Row r : rows) {
            int connections = Integer.parseInt(r.param("connections"));
            md.append("| ").append(r.netty()).append(" | ").append(r.param("allocator")).append(" | ")
                    .append(connections).append(" | ").append(bytes(Integer.parseInt(r.param("bodySize"))))
                    .append(" | ");
            for (String f : FIGURES) {
                md.append(mib(r.mean(metric(r.role(), f, atBurstEnd)))).append(" | ");
            }
            md.append(kib(r.mean(metric(r.role(), MemoryReport.ALLOCATOR_DIRECT_RESERVED, atBurstEnd)) / connections))
                    .append(" | ").append(kib(r.mean(metric(r.role(), MemoryReport.RSS, atBurstEnd)) / connections))
                    .append(" | ").append(r.result().forks()).append(" |\n");
        }
    }

    /** Bars of the direct memory the allocator holds: a category per connections and body size, a series per line. */
    private static Path chart(Measurements m, List<Row> rows, String server, String phase, boolean atBurstEnd,
                              Path dir) throws IOException {
        String figure = MemoryReport.ALLOCATOR_DIRECT_RESERVED;
        String role = rows.get(0).role();
        Statistic s = Statistic.metric(metric(role, figure, atBurstEnd), "direct memory the allocator holds", "B");
        List<ChartSpec.Bar> bars = new ArrayList<>();
        for (Row r : rows) {
            String category = r.param("connections") + " conn., " + bytes(Integer.parseInt(r.param("bodySize")));
            String series = "Netty " + r.netty() + " " + r.param("allocator");
            Group g = Group.of(r.result().group() == null ? "memory" : r.result().group(), 1);
            bars.add(new ChartSpec.Bar(category, series, new Selection(series + ", " + category, BENCHMARK,
                    r.result().params(), g)));
        }
        Chart<?, ?> chart = Charts.draw(new ChartSpec.Bars("memory-" + server + "-" + phase, "Direct memory the "
                + server + "'s allocator holds, " + phase, s, bars), m);
        if (chart == null) {
            return null;
        }
        Path png = dir.resolve("memory-" + server + "-" + phase.replaceAll("[^a-z-]", "") + ".png");
        Files.write(png, Charts.png(chart));
        return png;
    }

    static String bytes(int n) {
        return n % (1 << 20) == 0 ? n / (1 << 20) + " MiB" : n % 1024 == 0 ? n / 1024 + " KiB" : n + " B";
    }

    private static String mib(double b) {
        return Double.isNaN(b) ? "" : String.format(Locale.ROOT, "%.1f", b / (1 << 20));
    }

    private static String kib(double b) {
        return Double.isNaN(b) ? "" : String.format(Locale.ROOT, "%.1f", b / 1024);
    }

    /** Rows as a map, for tests: "server phase netty allocator connections body" to the allocator's reserved bytes. */
    static Map<String, Double> reserved(List<Row> rows) {
        Map<String, Double> m = new LinkedHashMap<>();
        for (Row r : rows) {
            m.put(String.join(" ", r.param("server"), r.param("phase"), r.netty(), r.param("allocator"),
                    r.param("connections"), r.param("bodySize")),
                    r.mean(EndToEndMetrics.memory(r.role(), MemoryReport.ALLOCATOR_DIRECT_RESERVED)));
        }
        return m;
    }
}
