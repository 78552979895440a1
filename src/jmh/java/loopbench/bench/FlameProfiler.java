package loopbench.bench;

import loopbench.flame.AsyncProfilerLibrary;
import loopbench.flame.FlameEvent;
import loopbench.flame.FlameGraphs;
import loopbench.process.ServerProcess;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.profile.ProfilerException;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.TextResult;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code -prof loopbench.bench.FlameProfiler} (options {@code :event=cpu|alloc|lock|wall;dir=DIR}, default
 * {@code event=cpu;dir=target/flame}): an async-profiler flame graph of every benchmark, over its measurement
 * iterations, with no library path to type: the native library comes from the async-profiler jar inside
 * benchmarks.jar ({@link AsyncProfilerLibrary}). In-process benchmarks get a graph of their own JVM
 * ({@code cpu-benchmark.html}); end-to-end benchmarks get one per server process they start
 * ({@code cpu-proxy.html}, {@code cpu-origin.html}, {@code cpu-echo.html}), not of the load generator. Where perf
 * events are not allowed, {@code cpu} falls back to {@code itimer} and says so. Graphs go to
 * {@code DIR/<Class.method>-<param=value>.../} ({@link FlameGraphs}), where the claims report finds them; a fork
 * overwrites the previous fork's graphs. {@code ./mvnw -Pjmh verify -Dflame=cpu} adds this to every run of a suite.
 */
public final class FlameProfiler implements InternalProfiler {
    private final FlameEvent event;
    private final Path root;
    private FlameSession session;
    private int measured;

    public FlameProfiler() throws ProfilerException {
        this("");
    }

    public FlameProfiler(String options) throws ProfilerException {
        Map<String, String> o = parse(options);
        try {
            event = FlameEvent.parse(o.getOrDefault("event", FlameEvent.CPU.cliName()));
        } catch (IllegalArgumentException e) {
            throw new ProfilerException(e.getMessage());
        }
        root = Paths.get(o.getOrDefault("dir", "target/flame")).toAbsolutePath();
    }

    static Map<String, String> parse(String options) throws ProfilerException {
        Map<String, String> o = new TreeMap<>();
        if (options == null || options.isBlank()) {
            return o;
        }
        for (String part : options.split(";")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf('=');
            String key = eq < 0 ? part.trim() : part.substring(0, eq).trim();
            if (eq < 0 || !(key.equals("event") || key.equals("dir"))) {
                throw new ProfilerException("bad option '" + part + "'; valid: event="
                        + FlameEvent.validValues().replace(", ", "|")
                        + ";dir=DIR (default event=cpu;dir=target/flame)");
            }
            o.put(key, part.substring(eq + 1).trim());
        }
        return o;
    }

    Path root() {
        return root;
    }

    FlameEvent event() {
        return event;
    }

    @Override
    public String getDescription() {
        return "async-profiler flame graphs (cpu, alloc, lock, wall) of the benchmark JVM or of the server processes "
                + "it starts (loopbench)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        if (iterationParams.getType() != IterationType.MEASUREMENT || session != null) {
            return;
        }
        Map<String, String> params = new TreeMap<>();
        for (String k : benchmarkParams.getParamsKeys()) {
            params.put(k, benchmarkParams.getParam(k));
        }
        Path dir = root.resolve(FlameGraphs.directoryName(benchmarkParams.getBenchmark(), params));
        session = new FlameSession(event, dir, AsyncProfilerLibrary.locate(), ServerProcess::live);
        try {
            session.start();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public List<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                    IterationResult result) {
        if (iterationParams.getType() != IterationType.MEASUREMENT || session == null
                || ++measured < iterationParams.getCount()) {
            return List.of();
        }
        try {
            List<String> lines = session.finish();
            return List.of(new TextResult(String.join("\n", lines) + "\n", "flame")); // one block per fork
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            session = null;
        }
    }
}
