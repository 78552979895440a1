package loopbench.bench;

import loopbench.report.EndToEndMetrics;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code -prof loopbench.bench.EndToEndProfiler}: the end-to-end benchmarks' per-iteration figures as JMH
 * secondary results: corrected latency percentiles (µs), CPU-µs and context switches per request of every
 * component (client, proxy, origin, echo: each its own process, read from /proc), bytes per request on each leg,
 * errors, and whether the load generator was saturated (names in {@link EndToEndMetrics}). Averaged over
 * iterations like any per-iteration figure, so they land in JMH's JSON next to the primary score. For other
 * benchmarks it adds nothing.
 */
public final class EndToEndProfiler implements InternalProfiler {

    @Override
    public String getDescription() {
        return "end-to-end benchmarks: latency, CPU and context switches per request per process, bytes per leg "
                + "(loopbench)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        // The trial takes its own snapshots in its @Setup(Level.Iteration); nothing to do here.
    }

    /** Called after the iteration's teardown, and after the trial's teardown for the last iteration. */
    @Override
    public List<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                    IterationResult result) {
        EndToEndTrial trial = EndToEndTrial.current();
        if (trial == null || !trial.benchmark().equals(benchmarkParams.getBenchmark())) {
            return List.of();
        }
        List<Result<?>> results = new ArrayList<>();
        for (Map.Entry<String, Double> e : trial.lastIterationMetrics().entrySet()) {
            double v = e.getValue();
            if (!Double.isNaN(v) && !Double.isInfinite(v)) {
                results.add(new ScalarResult(e.getKey(), v, EndToEndMetrics.unit(e.getKey()), AggregationPolicy.AVG));
            }
        }
        return results;
    }
}
