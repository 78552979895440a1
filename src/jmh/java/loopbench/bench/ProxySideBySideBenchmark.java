package loopbench.bench;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.load.LoadGenerator;
import loopbench.load.LoadResult;
import loopbench.load.LoadSpec;
import loopbench.load.Target;
import loopbench.metrics.MemoryReport;
import loopbench.metrics.ProcStat;
import loopbench.process.MeasuredProcess;
import loopbench.process.ServerProcess;
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
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Several proxy (or server) configurations measured in the same seconds: which costs more, with the machine's changes
 * of pace shared by all of them? (claims C000-1 .. C000-6, C004-1)
 *
 * <p>ProxyEndToEndBenchmark runs one configuration per fork; the rounds engine pairs forks of one round, which on
 * this suite's 2-core hosts are minutes apart. A host whose pace changes for tens of seconds at a time (the AMD
 * host's cross-CPU round trip went from 53-82 ns to 322-346 ns for stretches of 15-32 s,
 * docs/results/2026-11-26/cross-cpu-latency) puts that change into every paired ratio. Here every configuration (an
 * "arm") runs in one fork: each arm its own proxy process, all on the proxy's CPUs, all in front of one origin (or,
 * for {@code direct}, no proxy). The load generator loads one arm at a time for {@code sliceSeconds} (a fresh closed
 * loop of {@code connections} connections, keep-alive like wrk or a new one per request: {@code connection}), every
 * arm once per cycle, in a random order each cycle. One invocation is one cycle; JMH's iterations are cycles (warm-up
 * cycles warm every arm's proxy alike).
 *
 * <p>Per arm and cycle, as secondary results named {@code e2e.arm.ARM.FIGURE} ({@link EndToEndMetrics#arm}):
 * requests/s over its slice, connections opened per request, and from /proc of its own proxy process CPU-µs and
 * context switches per request (the slice's connects and closes included: 64 of each against tens of thousands of
 * requests with keep-alive), the client's and the origin's CPU per request, the CPU per request of the proxy's JIT
 * compiler threads (not 0: still compiling) and its memory at the slice's end, and where its proxy (or own origin)
 * came in the order they started (random per fork: {@value EndToEndMetrics#START_POSITION}).
 * {@value EndToEndMetrics#IDLE_ARMS_CPUS}: CPUs the proxies not under load used meanwhile (JIT or GC catching up; near
 * 0 once warm). A ratio of two arms, cycle by cycle, compares slices seconds apart; its mean per fork is what a claim
 * reads, one value per fork.
 *
 * <p>{@code arms}: {@code ARM;ARM;...}, each {@code direct} or {@code LAYER[/THREAD_MODEL[/ALLOCATOR]]}
 * ({@code 4/individual-group}, {@code 7/reuse-server-thread/pooled}; defaults reuse-server-thread, adaptive). The
 * other parameters are every arm's, as in ProxyEndToEndBenchmark. {@code direct/EPOLL_MODE} ({@code direct/edge-edge},
 * {@code direct/level-edge}: listening socket, then accepted connections; Netty 4.1's epoll only) is a server alone
 * in that epoll mode: an origin of its own, loaded directly (claim C004-1; with no proxy among the arms,
 * {@code pinned} gives the origins the CPUs of their own). A second arm of the same configuration, its own
 * process, names it in full and adds a twin tag: {@code 7;7/reuse-server-thread/adaptive/twin-b} (the null
 * experiments' twins, profiles/claims-null-side-by-side.jmh).
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar ProxySideBySideBenchmark -p arms='direct;4;7'}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 20)
@Measurement(iterations = 10)
public class ProxySideBySideBenchmark extends AbstractPlacedBenchmark {
    /** The configurations compared, {@code ;}-separated (see the class comment). */
    @Param({"4;7"})
    public String arms;

    /** How long each arm is loaded in a cycle. */
    @Param({"1"})
    public double sliceSeconds;

    /** The proxies' and the origin's transport. */
    @Param({"nio"})
    public String transport;

    @Param({"64"})
    public int connections;

    @Param({"1024"})
    public int bodySize;

    /** The L7 proxies' aggregator limit. */
    @Param({"2000"})
    public int maxContentLength;

    /** The L7 proxies' mode: aggregate or stream. */
    @Param({"aggregate"})
    public String l7Mode;

    /** Each proxy's event loops per group. */
    @Param({"2"})
    public int ioThreads;

    @Param({"1"})
    public int originIoThreads;

    /** The load generator's transport. */
    @Param({"epoll"})
    public String clientTransport;

    @Param({"1"})
    public int clientIoThreads;

    /**
     * keep-alive: each connection carries request after request (wrk); close: a new connection per request (ab
     * without -k, webbench), its connect counted in the slice, as in ProxyEndToEndBenchmark.
     */
    @Param({"keep-alive"})
    public String connection = "keep-alive";

    /**
     * One configuration: no proxy (against the shared origin, or against an origin of its own in an epoll mode), or a
     * proxy of this layer, thread model and allocator; {@code twin} (or null) tells apart two arms of one
     * configuration, each its own process: the null experiments' twins (arm B / arm A of the same configuration must
     * come out equal).
     */
    record Arm(String layer, String threadModel, String allocator, String epollMode, String twin) {
        static final String DIRECT = "direct";
        private static final Pattern TWIN = Pattern.compile("twin-[a-z0-9]+");
        /** An origin's epoll mode: listening socket, then accepted connections ({@code edge-level}). */
        private static final Pattern EPOLL_MODE = Pattern.compile("(edge|level)-(edge|level)");
        private static final String VALID = "valid: direct[/EPOLL_MODE][/TWIN], or LAYER[/THREAD_MODEL[/ALLOCATOR"
                + "[/TWIN]]] with LAYER 4 or 7, EPOLL_MODE LISTENING-ACCEPTED (edge-edge, level-level, edge-level, "
                + "level-edge; Netty 4.1 only) and TWIN twin-[a-z0-9]+, e.g. 7/reuse-server-group/pooled, "
                + "direct/edge-edge or 7/reuse-server-thread/adaptive/twin-b";

        /** {@code direct[/EPOLL_MODE][/TWIN]} or {@code LAYER[/THREAD_MODEL[/ALLOCATOR[/TWIN]]]}, checked. */
        static Arm parse(String s) {
            String[] p = s.trim().split("/", -1);
            String twin = p.length > 1 && TWIN.matcher(p[p.length - 1]).matches() ? p[p.length - 1] : null;
            int parts = twin == null ? p.length : p.length - 1;
            if (DIRECT.equals(p[0])) {
                if (parts == 1) {
                    return new Arm(DIRECT, null, null, null, twin);
                }
                if (parts == 2 && EPOLL_MODE.matcher(p[1]).matches()) {
                    return new Arm(DIRECT, null, null, p[1], twin);
                }
                throw new IllegalArgumentException("arm '" + s + "' is not valid; " + VALID);
            }
            // a twin spells its configuration out in full
            if (parts > 3 || twin != null && parts < 3 || !List.of("4", "7").contains(p[0])) {
                throw new IllegalArgumentException("arm '" + s + "' is not valid; " + VALID);
            }
            String threadModel = p.length > 1 ? ThreadModel.parse(p[1]).cliName() : "reuse-server-thread";
            String allocator = p.length > 2 ? Allocator.parse(p[2]).cliName() : "adaptive";
            return new Arm(p[0], threadModel, allocator, null, twin);
        }

        /** Every arm of an {@code arms} parameter, at least two, none twice. */
        static List<Arm> parseAll(String arms) {
            List<Arm> all = new ArrayList<>();
            for (String s : arms.split(";")) {
                Arm a = parse(s);
                if (all.contains(a)) {
                    throw new IllegalArgumentException("arms '" + arms + "': " + a.name() + " twice");
                }
                all.add(a);
            }
            if (all.size() < 2) {
                throw new IllegalArgumentException("arms '" + arms + "': at least two arms, ';'-separated");
            }
            return all;
        }

        boolean direct() {
            return DIRECT.equals(layer);
        }

        /** Whether this arm loads an origin of its own (no proxy, an epoll mode) instead of the shared one. */
        boolean ownOrigin() {
            return epollMode != null;
        }

        /**
         * The arm's name in metrics: {@code direct[/EPOLL_MODE]} or {@code LAYER/THREAD_MODEL/ALLOCATOR}, then its
         * twin tag.
         */
        String name() {
            String config = direct() ? DIRECT + (epollMode == null ? "" : "/" + epollMode)
                    : layer + "/" + threadModel + "/" + allocator;
            return config + (twin == null ? "" : "/" + twin);
        }
    }

    private EndToEndTrial trial;
    /** The origin every proxy and a plain {@code direct} arm use; null when every arm has an origin of its own. */
    private MeasuredProcess origin;
    /** Each arm's proxy, in the order they started. */
    private final Map<Arm, ServerProcess> proxies = new LinkedHashMap<>();
    /** The origins of the arms with one of their own ({@link Arm#ownOrigin}), in the order they started. */
    private final Map<Arm, ServerProcess> armOrigins = new LinkedHashMap<>();
    private boolean connectionClose;
    private final Map<Arm, Integer> startPosition = new LinkedHashMap<>();
    private List<Arm> armList;
    private final Random order = new Random();
    /** Whether this cycle is measured (JMH's measurement, not warm-up): its slices count in the placement's CPU use. */
    private boolean measured = true;

    @Setup(Level.Trial)
    public void startServers(BenchmarkParams params) throws Exception {
        startServers(EndToEndTrial.begin(params));
    }

    void startServers(EndToEndTrial t) throws Exception {
        trial = t;
        trial.setUp(() -> {
            armList = Arm.parseAll(arms); // every parameter checked before anything starts
            if (!(sliceSeconds >= 0.1 && sliceSeconds <= 60)) {
                throw new IllegalArgumentException("sliceSeconds must be within 0.1 .. 60, was " + sliceSeconds);
            }
            connectionClose = ProxyEndToEndBenchmark.connectionClose(connection);
            Transport.parse(transport).ensureAvailable();
            Map<Arm, List<String>> epollArgs = new LinkedHashMap<>();
            for (Arm a : armList) {
                if (a.ownOrigin()) {
                    epollArgs.put(a, ProxyEndToEndBenchmark.epollModeArgs(a.epollMode().replace('-', '/'),
                            Transport.parse(transport)));
                }
            }
            boolean proxied = armList.stream().anyMatch(a -> !a.direct());
            // with no proxy the origins are the servers under test: pinned gives them the CPUs of their own
            place(trial, proxied ? List.of(Role.PROXY, Role.CLIENT, Role.ORIGIN) : List.of(Role.ORIGIN, Role.CLIENT));
            List<String> originArgs = List.of("--body-size", Integer.toString(bodySize), "--transport", transport,
                    "--io-threads", Integer.toString(originIoThreads));
            if (armList.stream().anyMatch(a -> !a.ownOrigin())) {
                origin = trial.startServer(EndToEndMetrics.ORIGIN, "origin", originArgs);
            }
            // The servers of the arms start in a random order per fork: whatever starting first or last does to a
            // process is then noise the forks show, not a bias of one arm (the order is recorded: START_POSITION).
            int position = 0;
            for (Arm a : startOrder(armList, order)) {
                if (a.ownOrigin()) {
                    List<String> args = new ArrayList<>(originArgs);
                    args.addAll(epollArgs.get(a));
                    startPosition.put(a, position++);
                    armOrigins.put(a, trial.startServer(EndToEndMetrics.ORIGIN, EndToEndMetrics.ORIGIN + "["
                            + a.name() + "]", "origin", args));
                } else if (!a.direct()) {
                    startPosition.put(a, position++);
                    proxies.put(a, trial.startServer(EndToEndMetrics.PROXY, EndToEndMetrics.PROXY + "[" + a.name()
                            + "]", "proxy", List.of("--backend", origin.hostPort(), "--layer", a.layer(),
                            "--thread-model", a.threadModel(), "--allocator", a.allocator(), "--transport", transport,
                            "--io-threads", Integer.toString(ioThreads), "--max-content-length",
                            Integer.toString(maxContentLength), "--l7-mode", l7Mode)));
                }
            }
        });
    }

    /** The arms in the order their proxies start: a random permutation. */
    static List<Arm> startOrder(List<Arm> arms, Random random) {
        List<Arm> order = new ArrayList<>(arms);
        Collections.shuffle(order, random);
        return order;
    }

    @Setup(Level.Iteration)
    public void iterationStarted(IterationParams iteration) {
        measured = iteration.getType() == IterationType.MEASUREMENT;
    }

    private LoadSpec slice(String hostPort) {
        return LoadSpec.closedLoop(Target.parse("http://" + hostPort + "/"))
                .withConnections(connections)
                .withConnectionClose(connectionClose)
                .withDuration(Duration.ofMillis(Math.round(sliceSeconds * 1000)))
                .withEventLoops(Transport.parse(clientTransport), Allocator.ADAPTIVE, BufferType.DIRECT,
                        clientIoThreads);
    }

    /** One cycle: every arm loaded for one slice, in a random order. Returns the requests served. */
    @Benchmark
    public long cycle() throws InterruptedException {
        List<Arm> shuffled = new ArrayList<>(armList);
        Collections.shuffle(shuffled, order);
        Map<String, Double> m = new LinkedHashMap<>();
        double idleCpus = 0;
        long total = 0;
        for (Arm a : shuffled) {
            MeasuredProcess proxy = proxies.get(a);
            MeasuredProcess armOrigin = a.ownOrigin() ? armOrigins.get(a) : origin;
            Map<MeasuredProcess, ProcStat.Snapshot> idleStart = new LinkedHashMap<>();
            for (Map<Arm, ServerProcess> servers : List.of(proxies, armOrigins)) {
                servers.forEach((other, p) -> {
                    if (other != a) {
                        idleStart.put(p, p.procStat());
                    }
                });
            }
            ProcStat.Snapshot proxyStart = proxy == null ? null : proxy.procStat();
            ProcStat.Snapshot originStart = armOrigin.procStat();
            ProcStat.Snapshot clientStart = ProcStat.self();
            long wallStart = System.nanoTime();
            LoadResult r = LoadGenerator.start(slice((proxy == null ? armOrigin : proxy).hostPort())).awaitResult();
            long wall = System.nanoTime() - wallStart;
            if (r.errorsTotal() > 0 || r.requests() == 0) {
                throw new IllegalStateException("arm " + a.name() + ": " + r.errorsTotal() + " requests failed, "
                        + r.requests() + " succeeded in its slice, so the cycle has no result:\n" + r.summary()
                        + trial.serverLogs());
            }
            long n = r.requests();
            total += n;
            ProcStat.Snapshot client = ProcStat.self().minus(clientStart);
            ProcStat.Snapshot originUse = armOrigin.procStat().minus(originStart);
            ProcStat.Snapshot proxyUse = proxy == null ? null : proxy.procStat().minus(proxyStart);
            m.put(EndToEndMetrics.arm(a.name(), EndToEndMetrics.REQUESTS_PER_SECOND), r.requestsPerSecond());
            m.put(EndToEndMetrics.arm(a.name(), EndToEndMetrics.CONNECTIONS_PER_REQUEST),
                    (double) r.connectionsOpened() / n);
            m.put(EndToEndMetrics.arm(a.name(), EndToEndMetrics.cpu(EndToEndMetrics.CLIENT)),
                    client.cpuNanos() / 1000.0 / n);
            m.put(EndToEndMetrics.arm(a.name(), EndToEndMetrics.cpu(EndToEndMetrics.ORIGIN)),
                    originUse.cpuNanos() / 1000.0 / n);
            if (measured) { // each process's CPU use while loaded, for the side file's placement
                Map<String, ProcStat.Snapshot> loaded = new LinkedHashMap<>();
                loaded.put(EndToEndMetrics.CLIENT, client);
                loaded.put(EndToEndMetrics.ORIGIN, originUse);
                if (proxyUse != null) {
                    loaded.put(EndToEndMetrics.PROXY, proxyUse);
                }
                trial.measuredCpu(loaded, new LinkedHashMap<>()); // per-slice CPUs: not this cycle's figures
                trial.measuredInSlices();
            }
            if (proxy != null) {
                m.put(EndToEndMetrics.arm(a.name(), EndToEndMetrics.cpu(EndToEndMetrics.PROXY)),
                        proxyUse.cpuNanos() / 1000.0 / n);
                m.put(EndToEndMetrics.arm(a.name(), EndToEndMetrics.contextSwitches(EndToEndMetrics.PROXY)),
                        (double) proxyUse.contextSwitches() / n);
                if (proxyUse.compilerNanos() >= 0) { // the proxy's JIT still at work in its slice: not yet warm
                    m.put(EndToEndMetrics.arm(a.name(), EndToEndMetrics.jit(EndToEndMetrics.PROXY)),
                            proxyUse.compilerNanos() / 1000.0 / n);
                }
                MemoryReport memory = proxies.get(a).memory();
                if (memory != null) {
                    memory.figures().forEach((figure, bytes) -> m.put(EndToEndMetrics.arm(a.name(),
                            EndToEndMetrics.memory(EndToEndMetrics.PROXY, figure)), (double) bytes));
                }
            }
            if (startPosition.containsKey(a)) {
                m.put(EndToEndMetrics.arm(a.name(), EndToEndMetrics.START_POSITION), (double) startPosition.get(a));
            }
            long idleNanos = 0;
            for (Map.Entry<MeasuredProcess, ProcStat.Snapshot> e : idleStart.entrySet()) {
                idleNanos += e.getKey().procStat().minus(e.getValue()).cpuNanos();
            }
            idleCpus += (double) idleNanos / wall / shuffled.size();
        }
        m.put(EndToEndMetrics.IDLE_ARMS_CPUS, idleCpus);
        trial.iterationMetrics(m, null);
        return total;
    }

    EndToEndTrial trial() {
        return trial;
    }

    @TearDown(Level.Trial)
    public void stop() {
        trial.close();
    }
}
