package loopbench.bench;

import loopbench.metrics.ProcStat;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

import java.util.List;

/**
 * {@code -prof loopbench.bench.ProcCpuProfiler}: CPU time and context switches per operation of the whole
 * benchmark JVM (benchmark threads, event loops, executors, JIT and GC), read from /proc before and after
 * each iteration. Where timings are noisy (2 shared cores, no hardware counters), CPU per operation is the
 * steadier cost: it does not drop when another process steals the core.
 *
 * <p>Secondary results: {@code ·cpu.ns/op} (ns of CPU per operation), {@code ·ctxsw/op} (context switches
 * per operation) and {@code ·cpu.cores} (CPU time / wall time: how many cores the iteration kept busy).
 */
public final class ProcCpuProfiler implements InternalProfiler {
    private ProcStat.Snapshot before;

    @Override
    public String getDescription() {
        return "CPU ns and context switches per operation, from /proc (loopbench)";
    }

    @Override
    public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
        before = ProcStat.self();
    }

    @Override
    public List<? extends Result<?>> afterIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams,
                                                    IterationResult result) {
        ProcStat.Snapshot d = ProcStat.self().minus(before);
        long ops = result.getMetadata().getMeasuredOps();
        if (ops <= 0) {
            return List.of();
        }
        return List.of(
                new ScalarResult("cpu.ns/op", (double) d.cpuNanos() / ops, "ns/op", AggregationPolicy.AVG),
                new ScalarResult("ctxsw/op", (double) d.contextSwitches() / ops, "#/op", AggregationPolicy.AVG),
                new ScalarResult("cpu.cores", (double) d.cpuNanos() / d.nanoTime(), "cores", AggregationPolicy.AVG));
    }
}
