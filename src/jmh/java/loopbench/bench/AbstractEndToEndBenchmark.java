package loopbench.bench;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.Transport;
import loopbench.load.LoadSpec;
import loopbench.topology.Role;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What every end-to-end benchmark shares: an {@link EndToEndTrial} per trial (server processes plus the load
 * generator, started in {@link #start} on the CPUs {@code placement} gives each, stopped in teardown or when the
 * setup fails), snapshots at every iteration's ends, and requests per second as the score, timed by JMH. Add
 * {@code -prof loopbench.bench.EndToEndProfiler} for the per-component figures (CPU, context switches, latency,
 * bytes per request).
 *
 * <p>Iterations of 2 s: short enough for a matrix, long enough to hold thousands of requests; 5 warm-up
 * iterations, because the JIT of a fresh proxy process needs about 10 s on the L7 path (profiles and claims warm
 * up longer where a figure depends on it).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
public abstract class AbstractEndToEndBenchmark extends AbstractPlacedBenchmark {
    /** The load generator's transport (epoll: its timers and I/O cost least) and event loops. */
    @Param({"epoll"})
    public String clientTransport;

    @Param({"1"})
    public int clientIoThreads;

    protected EndToEndTrial trial;

    @Setup(Level.Trial)
    public final void startTrial(BenchmarkParams params) throws Exception {
        startTrial(EndToEndTrial.begin(params));
    }

    final void startTrial(EndToEndTrial t) throws Exception {
        trial = t;
        trial.setUp(() -> {
            place(trial, components());
            start(trial);
        });
    }

    /** {@code spec} on the load generator's event-loop parameters. */
    protected LoadSpec onClientLoops(LoadSpec spec) {
        return spec.withEventLoops(Transport.parse(clientTransport), Allocator.ADAPTIVE, BufferType.DIRECT,
                clientIoThreads);
    }

    /**
     * The components of this benchmark's runs: the first is the one {@code placement=pinned} gives CPUs of its own
     * (the proxy; without one, the server).
     */
    protected abstract List<Role> components();

    /** Starts the servers and the load for this trial's parameters. */
    protected abstract void start(EndToEndTrial trial) throws Exception;

    @Setup(Level.Iteration)
    public final void iterationStarted(IterationParams params) {
        trial.iterationStarted(params);
    }

    @TearDown(Level.Iteration)
    public final void iterationEnded() {
        trial.iterationEnded();
    }

    @TearDown(Level.Trial)
    public final void stopTrial() {
        trial.close();
    }
}
