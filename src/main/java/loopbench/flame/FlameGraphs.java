package loopbench.flame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Where flame graphs go, one directory per benchmark and parameter combination, one HTML file per event and
 * process role inside it: {@code
 * ROOT/PipelineCostBenchmark.exchange-bodySize=1024-layer=7-method=GET/cpu-benchmark.html},
 * {@code ROOT/ProxyEndToEndBenchmark.requests-.../cpu-proxy.html}. The profiler writes there and the claims report
 * finds them there: one naming rule for both.
 */
public final class FlameGraphs {
    /** The role of the benchmark's own JVM (an in-process benchmark). */
    public static final String BENCHMARK_ROLE = "benchmark";
    /** Notes of a profiling session (what was written, fallbacks), next to the graphs. */
    public static final String NOTES_FILE = "flame.txt";
    /** The directory under a suite's output directory. */
    public static final String SUITE_DIR = "flame";

    private FlameGraphs() {
    }

    /**
     * The directory name of one benchmark and parameter combination: {@code Class.method} (package dropped), then
     * {@code -name=value} per parameter in name order; characters a file name should not have become '_'.
     */
    public static String directoryName(String benchmark, Map<String, String> params) {
        String shortName = shortName(benchmark);
        String p = new TreeMap<>(params).entrySet().stream().map(e -> "-" + e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining());
        return (shortName + p).replaceAll("[^A-Za-z0-9._=,:+-]", "_");
    }

    /** {@code event-role.html}, e.g. {@code cpu-proxy.html}; a second process of the same role gets {@code -2}. */
    public static String fileName(String event, String role, int instance) {
        return event + "-" + role + (instance > 1 ? "-" + instance : "") + ".html";
    }

    /** The flame graphs of one benchmark and parameter combination under {@code root}, by file name. */
    public static List<Path> find(Path root, String benchmark, Map<String, String> params) throws IOException {
        Path dir = root.resolve(directoryName(benchmark, params));
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (var files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".html")).sorted().toList();
        }
    }

    /** {@code loopbench.bench.X.m} or {@code X.m} -> {@code X.m}. */
    static String shortName(String benchmark) {
        int last = benchmark.lastIndexOf('.');
        int previous = last <= 0 ? -1 : benchmark.lastIndexOf('.', last - 1);
        return benchmark.substring(previous + 1);
    }
}
