package loopbench.bench;

import loopbench.load.LoadSpec;
import loopbench.load.Target;
import loopbench.origin.WorkStrategy;
import loopbench.process.MeasuredProcess;
import loopbench.report.EndToEndMetrics;
import loopbench.topology.Role;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

import java.time.Duration;
import java.util.List;

/**
 * How much throughput does a blocking call in a Netty handler cost, and does offloading it win it back?
 * (claims C001-1, C001-2, C001-3)
 *
 * <p>The article behind C001 ("为什么sleep会让Netty的性能大降", 2021) loaded Netty's HTTP hello world with
 * {@code ab -k -c 1000}: about 84k req/s on 2 cores, about 1.5k req/s once the handler slept 10 ms, because the
 * handler runs on the event loop, which the sleep blocks. Here: the origin ({@code loopbench origin}, its own JVM,
 * {@code ioThreads} event loops) spends {@code workMs} per request the way {@code strategy} says, loaded by 1,000
 * keep-alive connections from this JMH fork (closed loop, one request in flight each, as ab -k does).
 *
 * <p>Beside the measured req/s, the secondary result {@code e2e.bound} is the bound the article's argument
 * predicts: {@code block-event-loop}: event-loop threads x 1000 / workMs (each loop serves one request per
 * workMs); {@code pipeline-executor}: min(executor threads, connections) x 1000 / workMs (each connection is
 * pinned to one executor thread); {@code offload-executor}: executor threads x 1000 / workMs; {@code timer} and
 * {@code virtual-thread}: connections x 1000 / workMs (nothing blocks a thread; only concurrency bounds it). No
 * bound at {@code workMs = 0} (C001-1's hello world: CPU bounds it).
 *
 * <p>What to expect: at 10 ms, block-event-loop and the executor strategies sit at their bounds (200, 400 and 400
 * req/s with the defaults); timer and virtual threads reach tens of thousands, bounded by the CPU of the two cores
 * rather than by the sleep. At 0 ms, every strategy but block-event-loop pays a thread hand-off per request.
 * {@code virtual-thread} needs JDK 21+: it is not in the default parameters (the suite's profiles run it only
 * on JDK 21+).
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar BlockingWorkEndToEndBenchmark -p workMs=10
 * -prof loopbench.bench.EndToEndProfiler}
 */
public class BlockingWorkEndToEndBenchmark extends AbstractEndToEndBenchmark {
    @Param({"0", "10"})
    public int workMs;

    @Param({"block-event-loop", "pipeline-executor", "offload-executor", "timer"})
    public String strategy;

    @Param({"1000"})
    public int connections;

    /** The origin's event loops. */
    @Param({"2"})
    public int ioThreads;

    /** The origin's DefaultEventExecutorGroup threads (pipeline-executor, offload-executor). */
    @Param({"4"})
    public int executorThreads;

    /** The origin gets CPUs of its own. */
    @Override
    protected List<Role> components() {
        return List.of(Role.ORIGIN, Role.CLIENT);
    }

    @Override
    protected void start(EndToEndTrial trial) throws Exception {
        WorkStrategy s = WorkStrategy.parse(strategy).ensureSupported();
        MeasuredProcess origin = trial.startServer(EndToEndMetrics.ORIGIN, "origin", List.of(
                "--work-ms", Integer.toString(workMs), "--work-strategy", strategy,
                "--io-threads", Integer.toString(ioThreads), "--executor-threads", Integer.toString(executorThreads)));
        trial.predictedBound(predictedBound(s, workMs, ioThreads, executorThreads, connections));
        trial.startLoad(onClientLoops(LoadSpec.closedLoop(Target.parse("http://" + origin.hostPort() + "/"))
                .withConnections(connections)
                .withDuration(Duration.ofHours(1)) // a bound; the trial ends it long before
                // 1,000 connections at 200 req/s wait 5 s per request: no timeout before a minute
                .withTimeout(Duration.ofSeconds(60))));
    }

    /** The throughput bound (req/s) the blocking argument predicts; NaN when nothing blocks ({@code workMs} 0). */
    static double predictedBound(WorkStrategy strategy, int workMs, int ioThreads, int executorThreads,
            int connections) {
        if (workMs <= 0) {
            return Double.NaN;
        }
        double perThread = 1000.0 / workMs;
        switch (strategy) {
            case NONE:
            case BLOCK_EVENT_LOOP:
                return ioThreads * perThread;
            case PIPELINE_EXECUTOR:
                return Math.min(executorThreads, connections) * perThread;
            case OFFLOAD_EXECUTOR:
                return executorThreads * perThread;
            case VIRTUAL_THREAD:
            case TIMER:
                return connections * perThread;
            default:
                throw new AssertionError(strategy);
        }
    }

    /** One completed request. */
    @Benchmark
    public long requests() {
        return trial.nextCompleted();
    }
}
