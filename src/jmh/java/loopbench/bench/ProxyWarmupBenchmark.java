package loopbench.bench;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.Transport;
import loopbench.load.LoadGenerator;
import loopbench.load.LoadResult;
import loopbench.load.LoadSpec;
import loopbench.load.PerSecond;
import loopbench.load.Target;
import loopbench.metrics.ProcStat;
import loopbench.process.MeasuredProcess;
import loopbench.report.EndToEndMetrics;
import loopbench.topology.Role;
import org.openjdk.jmh.annotations.Benchmark;
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

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * How does a JVM proxy do in its first seconds, cold? (claim C002-2)
 *
 * <p>The article behind C002 (Zuul vs nginx, ab -c 200) saw Zuul serve 367 req/s with 2 failed requests while
 * cold, then about 1,000 req/s, nginx's rate, once the JIT had warmed it up. Here: an origin that is already warm
 * (the generator loads it directly for {@code originWarmupSeconds} first), then, in the measured invocation, a
 * freshly started proxy process ({@code layer} 4 or 7, its own cold JVM) under a closed loop of
 * {@code connections} connections for {@code seconds} seconds.
 *
 * <p>The answer is the warm-up curve: requests/s, errors and p99 latency per second of the run, in the side file
 * next to the suite's results ({@code e2e/ProxyWarmupBenchmark.coldProxy-...json}, the load generator's
 * {@code perSecond} series), and as secondary results: {@code e2e.warmup.firstSecond} (req/s in the first second),
 * {@code e2e.warmup.errors} (requests that failed while cold: this benchmark does not fail on them, they are what
 * it measures) and {@code e2e.warmup.secondsTo90} (the first second whose rate reached 90% of the rate of the last
 * 5 seconds). The score itself is the wall time from starting the cold proxy process to the end of its run
 * (about {@code seconds} plus the JVM's start-up): a single shot, one per fork.
 *
 * <p>What to expect: the first second at a fraction of the steady rate (interpreted code, then C1, then C2
 * compiling on the same two cores the load runs on), L7 slower to get there than L4 (more code to compile);
 * errors only if something is wrong, since Netty accepts and queues while cold.
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar ProxyWarmupBenchmark -prof loopbench.bench.EndToEndProfiler}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 0)
@Measurement(iterations = 1)
public class ProxyWarmupBenchmark extends AbstractPlacedBenchmark {
    /**
     * 4 or 7; or external (by name): the gateway {@code -Dloopbench.external.proxy='COMMAND'} starts (a command
     * template, see {@link ProxyEndToEndBenchmark}), cold in the same way: its first seconds, start-up in the score.
     */
    @Param({"4", "7"})
    public String layer;

    @Param({"30"})
    public int seconds;

    @Param({"64"})
    public int connections;

    @Param({"1024"})
    public int bodySize;

    @Param({"nio"})
    public String transport;

    @Param({"2"})
    public int ioThreads;

    /** How long the origin (and this JVM's load generator) is warmed up before the cold proxy starts. */
    @Param({"10"})
    public int originWarmupSeconds;

    @Param({"epoll"})
    public String clientTransport;

    private EndToEndTrial trial;
    private MeasuredProcess origin;

    @Setup(Level.Trial)
    public void warmOrigin(BenchmarkParams params) throws Exception {
        warmOrigin(EndToEndTrial.begin(params));
    }

    void warmOrigin(EndToEndTrial t) throws Exception {
        trial = t;
        trial.setUp(() -> {
            if (ProxyEndToEndBenchmark.EXTERNAL.equals(layer)) {
                ProxyEndToEndBenchmark.externalProxy(); // a missing or bad template fails before anything starts
            }
            place(trial, List.of(Role.PROXY, Role.CLIENT, Role.ORIGIN));
            origin = trial.startServer(EndToEndMetrics.ORIGIN, "origin",
                    List.of("--body-size", Integer.toString(bodySize),
                    "--transport", transport, "--io-threads", "1"));
            LoadResult warm = LoadGenerator.start(spec(origin.hostPort(), originWarmupSeconds)).awaitResult();
            if (warm.errorsTotal() > 0) {
                throw new IllegalStateException("the origin failed requests while warming up:\n" + warm.summary()
                        + trial.serverLogs());
            }
        });
    }

    private LoadSpec spec(String hostPort, int durationSeconds) {
        return LoadSpec.closedLoop(Target.parse("http://" + hostPort + "/"))
                .withConnections(connections)
                .withDuration(Duration.ofSeconds(durationSeconds))
                .withEventLoops(Transport.parse(clientTransport), Allocator.ADAPTIVE, BufferType.DIRECT, 1);
    }

    EndToEndTrial trial() {
        return trial;
    }

    /** Starts a cold proxy and loads it for {@code seconds}; returns the requests it served. */
    @Benchmark
    public long coldProxy() throws Exception {
        MeasuredProcess proxy = ProxyEndToEndBenchmark.EXTERNAL.equals(layer)
                ? trial.startExternal(EndToEndMetrics.PROXY, ProxyEndToEndBenchmark.externalProxy(), origin)
                : trial.startServer(EndToEndMetrics.PROXY, "proxy", List.of("--backend", origin.hostPort(),
                        "--layer", layer, "--transport", transport, "--io-threads", Integer.toString(ioThreads)));
        ProcStat.Snapshot proxyStart = proxy.procStat();
        ProcStat.Snapshot originStart = origin.procStat();
        ProcStat.Snapshot clientStart = ProcStat.self();
        LoadResult r = LoadGenerator.start(spec(proxy.hostPort(), seconds)).awaitResult();
        Map<String, ProcStat.Snapshot> deltas = Map.of(
                EndToEndMetrics.PROXY, proxy.procStat().minus(proxyStart),
                EndToEndMetrics.ORIGIN, origin.procStat().minus(originStart));
        Map<String, Double> m = trial.metrics(r, deltas);
        Map<String, ProcStat.Snapshot> all = new LinkedHashMap<>(deltas);
        all.put(EndToEndMetrics.CLIENT, ProcStat.self().minus(clientStart));
        trial.measuredCpu(all, m);
        m.put(EndToEndMetrics.WARMUP_ERRORS, (double) r.errorsTotal());
        List<PerSecond> series = r.perSecond();
        m.put(EndToEndMetrics.WARMUP_FIRST_SECOND, series.isEmpty() ? 0 : series.get(0).requestsPerSecond());
        m.put(EndToEndMetrics.WARMUP_SECONDS_TO_90, secondsTo90(series));
        trial.iterationMetrics(m, r);
        return r.requests();
    }

    /**
     * The first second (1-based) whose rate reached 90% of the mean rate of the last 5 whole seconds; NaN if the
     * run is too short to say.
     */
    static double secondsTo90(List<PerSecond> series) {
        List<PerSecond> whole = series.stream().filter(s -> s.durationSeconds() >= 0.99).toList();
        if (whole.size() < 6) {
            return Double.NaN;
        }
        double steady = whole.subList(whole.size() - 5, whole.size()).stream()
                .mapToDouble(PerSecond::requestsPerSecond).average().orElse(0);
        for (PerSecond s : whole) {
            if (s.requestsPerSecond() >= 0.9 * steady) {
                return s.second();
            }
        }
        return Double.NaN;
    }

    @TearDown(Level.Iteration)
    public void stopProxy() {
        MeasuredProcess proxy = trial.component(EndToEndMetrics.PROXY);
        if (proxy != null) {
            proxy.close();
        }
    }

    @TearDown(Level.Trial)
    public void stop() {
        trial.close();
    }
}
