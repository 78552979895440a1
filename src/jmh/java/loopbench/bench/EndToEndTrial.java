package loopbench.bench;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import loopbench.line.NettyLine;
import loopbench.load.LoadGenerator;
import loopbench.load.LoadResult;
import loopbench.load.LoadSnapshot;
import loopbench.load.LoadSpec;
import loopbench.metrics.MemoryReport;
import loopbench.metrics.ProcStat;
import loopbench.process.CommandTemplate;
import loopbench.process.ExternalProcess;
import loopbench.process.MeasuredProcess;
import loopbench.process.ServerProcess;
import loopbench.topology.HostsFile;
import loopbench.topology.RemoteServer;
import loopbench.topology.SshHost;
import loopbench.report.EndToEndMetrics;
import loopbench.rounds.ForkIdentity;
import loopbench.topology.Host;
import loopbench.topology.Role;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One trial of an end-to-end benchmark: the server processes (origin, proxy, echo), each a JVM of its own started
 * through the CLI ({@link ServerProcess}), and the load generator in this JVM, the JMH fork. The benchmark's
 * {@code @Benchmark} method takes one completed request per call ({@link #nextCompleted()}), so the primary score
 * is JMH's own count of completed requests over its own iteration time.
 *
 * <p>Each iteration also yields, from /proc of every component's own process, CPU-µs and context switches per
 * request, the corrected latency percentiles, bytes per request on each leg and the error count (names in
 * {@link EndToEndMetrics}), which {@link EndToEndProfiler} hands to JMH as secondary results. An iteration with
 * any failed request fails the benchmark: a figure with errors in it is not reported at all. Every server also reports
 * what it holds in memory at each iteration's end ({@link ServerProcess#memory()}: asked outside the measured time,
 * read on a thread of the server's that serves no connection), per process and per client connection. At the end of the
 * trial, the load generator's whole result over the measurement iterations (with the full latency distribution
 * and the per-second series) goes to a side file next to the suite's results.
 *
 * <p>Where each process runs is the {@code placement} parameter's ({@link #place}, {@link TrialPlacement}): this
 * fork on the client's CPUs for the trial, every server started on its own; the side file says what CPUs each one
 * really had and how many of them it used. How they reach each other is {@code topology}'s and {@code link}'s
 * ({@link TrialNetwork}): loopback, or each server in a network namespace of its own behind a link.
 *
 * <p>Every process is stopped in {@link #close()}, which the benchmarks call from {@code @TearDown} and from a
 * setup that fails half-way; and each server also exits by itself when this JVM dies ({@code --exit-with-parent}).
 */
public final class EndToEndTrial implements AutoCloseable {
    private static final long DRAIN_SECONDS = 10;
    private static volatile EndToEndTrial current;
    /** How long an external gateway may take to open its port, in seconds. */
    static final String EXTERNAL_START_TIMEOUT = "loopbench.external.startTimeout";
    static final long EXTERNAL_START_TIMEOUT_SECONDS = 60;

    private final String benchmark;
    private final Map<String, String> params;
    private final Map<String, MeasuredProcess> servers = new LinkedHashMap<>();
    /** {@code -Dloopbench.hosts}: servers on other machines (null: every one on this machine). */
    private final HostsFile hosts = HostsFile.fromSystemProperty().map(EndToEndTrial::serversOnly).orElse(null);
    private TrialPlacement placement;
    private TrialNetwork network;
    private LoadGenerator generator;
    private LoadSpec spec;
    private double predictedBound = Double.NaN;
    private int messageBytes;
    private boolean failOnErrors = true;
    private final List<IterationFigures> figures = new ArrayList<>();
    /** Each server's last memory report, for the side file. */
    private final Map<String, MemoryReport> lastMemory = new LinkedHashMap<>();

    // per iteration
    private LoadSnapshot iterationStart;
    private final Map<String, ProcStat.Snapshot> procStart = new LinkedHashMap<>();
    private final Map<String, ProcStat.Io> ioStart = new LinkedHashMap<>();
    private boolean measuring;
    private Map<String, Double> lastMetrics = Map.of();
    // measurement window, for the side file
    private LoadSnapshot measurementStart;
    private LoadSnapshot measurementEnd;
    private LoadResult sideResult;
    /** A trial loaded in many short slices, each its own generator, with a measured slice: a side file, no load. */
    private boolean measuredInSlices;

    // nextCompleted(): the benchmark method's one operation
    private CompletedRequests completions;

    private EndToEndTrial(String benchmark, Map<String, String> params) {
        this.benchmark = benchmark;
        this.params = params;
    }

    /** A trial of the benchmark JMH is running ({@code params} as injected into a {@code @Setup} method). */
    public static EndToEndTrial begin(BenchmarkParams params) {
        Map<String, String> p = new LinkedHashMap<>();
        for (String key : params.getParamsKeys()) {
            p.put(key, params.getParam(key));
        }
        EndToEndTrial t = new EndToEndTrial(params.getBenchmark(), p);
        current = t;
        return t;
    }

    /** A trial outside JMH (tests). */
    static EndToEndTrial begin(String benchmark, Map<String, String> params) {
        EndToEndTrial t = new EndToEndTrial(benchmark, new LinkedHashMap<>(params));
        current = t;
        return t;
    }

    /** The load generator is this fork: a hosts file may move servers, not the client. */
    private static HostsFile serversOnly(HostsFile h) {
        if (h.clients().size() != 1 || h.clients().get(0).isPresent()) {
            throw new IllegalArgumentException(h + ": client must be local in the benchmarks (the load generator is "
                    + "the JMH fork); generators on other machines: loopbench load --hosts");
        }
        return h;
    }

    /** The trial running (or, after its teardown, last run) in this JVM, or null. */
    static EndToEndTrial current() {
        return current;
    }

    /** The benchmark method, fully qualified. */
    String benchmark() {
        return benchmark;
    }

    /** A step of a trial's set-up, which may fail half-way. */
    @FunctionalInterface
    public interface SetUp {
        void run() throws Exception;
    }

    /** Runs {@code setUp}; if it fails half-way, stops what it started (no process outlives it) and rethrows. */
    public void setUp(SetUp setUp) throws Exception {
        try {
            setUp.run();
        } catch (Exception | Error e) {
            close();
            throw e;
        }
    }

    /**
     * Gives this trial's components their hosts: CPUs as the {@code placement} parameter says ({@link TrialPlacement}:
     * this process, the load generator's, pinned to the client's CPUs now, every server started after this on its
     * own), and networks as {@code topology} and {@code link} say ({@link TrialNetwork}: with netns, every server in
     * a namespace of its own). {@code components}: the run's components, the first the one that gets CPUs of its own
     * under {@code pinned}. Every parameter is checked before anything is set up.
     */
    public void place(String placementParam, String topologyParam, String linkParam, List<Role> components) {
        TrialNetwork net = TrialNetwork.of(topologyParam, linkParam, components);
        placement = TrialPlacement.apply(placementParam, components);
        network = net;
        network.setUp();
    }

    /**
     * Starts {@code loopbench <command> <args>} as the component {@code role} (client, proxy, origin, echo), on the
     * CPUs its placement gives it.
     */
    public MeasuredProcess startServer(String role, String command, List<String> args) {
        Optional<SshHost> remote = hosts == null ? Optional.empty() : hosts.host(role);
        if (remote.isPresent()) {
            if (network != null && network.namespace(role) != null) {
                throw new IllegalArgumentException(role + " runs on " + remote.get() + " (" + HostsFile.PROPERTY
                        + "): topology=local only (was netns)");
            }
            long start = System.nanoTime();
            RemoteServer p = hosts.startServer(role, command, args); // its CPUs are that machine's
            servers.put(role, p);
            System.out.println("loopbench: " + p + " set up in " + (System.nanoTime() - start) / 1_000_000 + " ms");
            return p;
        }
        return startLocal(role, role, command, args);
    }

    /**
     * Starts {@code loopbench <command> <args>} as one of several servers of component {@code role}, known as
     * {@code name} (the side-by-side benchmark's proxies: one per arm, all on the proxy's CPUs). This machine only.
     */
    public ServerProcess startServer(String role, String name, String command, List<String> args) {
        if (servers.containsKey(name) || (hosts != null && hosts.host(role).isPresent())) {
            throw new IllegalArgumentException(name + ": already started, or " + role + " is on another host ("
                    + HostsFile.PROPERTY + "): this machine only");
        }
        return startLocal(role, name, command, args);
    }

    private ServerProcess startLocal(String role, String name, String command, List<String> args) {
        List<String> all = new ArrayList<>(args);
        if (network != null) {
            all.addAll(network.listenArgs(role));
        }
        Host host = new Host(network == null ? null : network.namespace(role),
                placement == null ? null : placement.cpus(role));
        long start = System.nanoTime();
        ServerProcess p = ServerProcess.start(command, all, host);
        servers.put(name, p);
        System.out.println("loopbench: " + p + " (" + host + ") set up in " + (System.nanoTime() - start) / 1_000_000
                + " ms");
        if (placement != null) {
            placement.started(role, p.pid());
        }
        return p;
    }

    /**
     * Starts a gateway that is not loopbench's as the component {@code role}, from {@code template}, in front of
     * {@code backend} ({@link ExternalProcess}: ready when its port accepts, at most
     * {@code -D}{@value #EXTERNAL_START_TIMEOUT} seconds, default {@value #EXTERNAL_START_TIMEOUT_SECONDS}), on the
     * CPUs its placement gives it (the whole process tree), measured and stopped like the servers. This machine's
     * network namespace only: with topology=netns it is refused.
     */
    public ExternalProcess startExternal(String role, CommandTemplate template, MeasuredProcess backend) {
        if (network != null && network.namespace(role) != null) {
            throw new IllegalArgumentException("an external " + role + " runs in this machine's network namespace: "
                    + "topology=local only (was netns)");
        }
        Host host = new Host(null, placement == null ? null : placement.cpus(role));
        String backendHostPort = backend.hostPort();
        int colon = backendHostPort.lastIndexOf(':');
        long timeout = Long.getLong(EXTERNAL_START_TIMEOUT, EXTERNAL_START_TIMEOUT_SECONDS);
        long start = System.nanoTime();
        ExternalProcess p = ExternalProcess.start(role, template, backendHostPort.substring(0, colon),
                Integer.parseInt(backendHostPort.substring(colon + 1)), Duration.ofSeconds(timeout), host::launch);
        servers.put(role, p);
        System.out.println("loopbench: external " + role + " accepting on " + p.hostPort() + " "
                + (System.nanoTime() - start) / 1_000_000 + " ms after its start: " + p.command());
        if (placement != null) {
            placement.started(role, p.pid());
        }
        return p;
    }

    /** The load generator (null before {@link #startLoad}). */
    public LoadGenerator generator() {
        return generator;
    }

    /** loopbench's own server of {@code role} (null if there is none, or if that component is an external one). */
    public ServerProcess server(String role) {
        return servers.get(role) instanceof ServerProcess s ? s : null;
    }

    /** The process of component {@code role}, whatever it is (null if none). */
    public MeasuredProcess component(String role) {
        return servers.get(role);
    }

    /** Starts the load generator and waits until every connection is open. */
    public LoadGenerator startLoad(LoadSpec loadSpec) throws InterruptedException {
        this.spec = loadSpec;
        this.completions = new CompletedRequests();
        this.generator = LoadGenerator.start(loadSpec, null, completions);
        if (!generator.awaitConnected(Duration.ofSeconds(60))) {
            throw new IllegalStateException("only " + generator.connectionsUp() + " of " + loadSpec.connections()
                    + " connections to " + loadSpec.target() + " opened within 60 s; errors so far: "
                    + generator.errors()
                    + serverLogs());
        }
        return generator;
    }

    /** The throughput bound (req/s) the benchmark's configuration predicts, reported beside the measurement. */
    public void predictedBound(double requestsPerSecond) {
        this.predictedBound = requestsPerSecond;
    }

    /** Echo: each request is a message of this many bytes each way (for MiB/s). */
    public void messageBytes(int bytes) {
        this.messageBytes = bytes;
    }

    /** Figures a benchmark adds to every iteration's: its own counters, read at the iteration's ends. */
    interface IterationFigures {
        void iterationStarted();

        /** The iteration's figures, by metric name (EndToEndMetrics). */
        Map<String, Double> iterationEnded();
    }

    /** Adds {@code f}'s figures to every iteration's from the next one on. */
    void addFigures(IterationFigures f) {
        figures.add(f);
    }

    /** Whether a failed request fails the iteration (true, except where failures are what is measured). */
    public void failOnErrors(boolean fail) {
        this.failOnErrors = fail;
    }

    /** Takes the next completed request, waiting for it if none is left: the benchmark method's one operation. */
    public long nextCompleted() {
        return completions.next(generator, this::serverLogs);
    }

    /** {@code @Setup(Level.Iteration)}: the iteration's starting point for every component. */
    public void iterationStarted(IterationParams iteration) {
        measuring = iteration.getType() == IterationType.MEASUREMENT;
        iterationStart = generator.snapshot();
        // Requests that completed between iterations are not this iteration's: JMH counts only what completes now.
        completions.startIteration();
        servers.forEach((role, p) -> {
            procStart.put(role, p.procStat());
            ioStart.put(role, p.io());
        });
        figures.forEach(IterationFigures::iterationStarted);
        if (measuring && measurementStart == null) {
            measurementStart = iterationStart;
        }
    }

    /**
     * {@code @TearDown(Level.Iteration)}: this iteration's figures per request, for {@link EndToEndProfiler}; fails
     * the iteration if a request failed in it.
     */
    public void iterationEnded() {
        LoadSnapshot end = generator.snapshot();
        LoadResult r = LoadResult.between(spec, iterationStart, end);
        if (measuring) {
            measurementEnd = end;
        }
        Map<String, ProcStat.Snapshot> deltas = perRoleDeltas();
        lastMetrics = metrics(r, deltas);
        putJit(lastMetrics, EndToEndMetrics.CLIENT, end.process().minus(iterationStart.process()), r.requests());
        servers.forEach((role, p) -> {
            MemoryReport memory = p.memory(); // null: a process that cannot say (an external gateway, a remote host)
            if (memory != null) {
                lastMetrics.putAll(memoryMetrics(role, memory));
            }
        });
        figures.forEach(f -> lastMetrics.putAll(f.iterationEnded()));
        if (measuring && placement != null) {
            Map<String, ProcStat.Snapshot> all = new LinkedHashMap<>(deltas);
            all.put(EndToEndMetrics.CLIENT, end.process().minus(iterationStart.process()));
            lastMetrics.putAll(placement.measured(all));
        }
        completions.pace(r.requestsPerSecond());
        if (failOnErrors && r.errorsTotal() > 0) {
            throw new IllegalStateException(r.errorsTotal()
                    + " requests failed in this iteration, so it has no result:\n"
                    + r.summary() + serverLogs());
        }
    }

    private Map<String, ProcStat.Snapshot> perRoleDeltas() {
        Map<String, ProcStat.Snapshot> d = new LinkedHashMap<>();
        servers.forEach((role, p) -> d.put(role, p.procStat().minus(procStart.get(role))));
        return d;
    }

    /**
     * The figures of one stretch of the run: the load generator's result, and the CPU time of each server over the
     * same stretch.
     */
    Map<String, Double> metrics(LoadResult r, Map<String, ProcStat.Snapshot> serverDeltas) {
        Map<String, Double> m = new LinkedHashMap<>();
        long requests = r.requests();
        m.put(EndToEndMetrics.LATENCY_MEAN, r.corrected().getMean());
        m.put(EndToEndMetrics.LATENCY_P50, (double) r.corrected().getValueAtPercentile(50));
        m.put(EndToEndMetrics.LATENCY_P90, (double) r.corrected().getValueAtPercentile(90));
        m.put(EndToEndMetrics.LATENCY_P99, (double) r.corrected().getValueAtPercentile(99));
        m.put(EndToEndMetrics.LATENCY_P999, (double) r.corrected().getValueAtPercentile(99.9));
        m.put(EndToEndMetrics.LATENCY_MAX, (double) r.corrected().getMaxValue());
        m.put(EndToEndMetrics.ERRORS, (double) r.errorsTotal());
        m.put(EndToEndMetrics.cpu(EndToEndMetrics.CLIENT), r.cpuMicrosPerRequest());
        m.put(EndToEndMetrics.contextSwitches(EndToEndMetrics.CLIENT), r.contextSwitchesPerRequest());
        serverDeltas.forEach((role, d) -> {
            m.put(EndToEndMetrics.cpu(role), requests == 0 ? Double.NaN : d.cpuNanos() / 1000.0 / requests);
            m.put(EndToEndMetrics.contextSwitches(role),
                    requests == 0 ? Double.NaN : (double) d.contextSwitches() / requests);
            putJit(m, role, d, requests);
        });
        if (requests > 0) {
            // Every request is the same bytes; what was read is counted when read (a response half-read at an end
            // of the stretch moves the mean by less than one response per connection over all its requests).
            m.put(EndToEndMetrics.BYTES_REQUEST_FRONT, (double) r.spec().requestBytes());
            m.put(EndToEndMetrics.BYTES_RESPONSE_FRONT, (double) r.bytesRead() / requests);
            MeasuredProcess origin = servers.get(EndToEndMetrics.ORIGIN);
            // The backend leg is what the origin read and wrote, when a proxy stands before it; /proc counts the
            // bytes of read/write system calls, which io_uring does not make.
            if (servers.containsKey(EndToEndMetrics.PROXY) && origin != null
                    && ioStart.containsKey(EndToEndMetrics.ORIGIN)
                    && !"io_uring".equals(params.get("transport"))) {
                ProcStat.Io io = origin.io().minus(ioStart.get(EndToEndMetrics.ORIGIN));
                m.put(EndToEndMetrics.BYTES_REQUEST_BACK, (double) io.bytesRead() / requests);
                m.put(EndToEndMetrics.BYTES_RESPONSE_BACK, (double) io.bytesWritten() / requests);
            }
        }
        m.put(EndToEndMetrics.CLIENT_LOOP_BUSY, r.maxLoopBusy());
        m.put(EndToEndMetrics.CLIENT_SATURATED, r.saturated() ? 1.0 : 0.0);
        m.put(EndToEndMetrics.MACHINE_IDLE, r.machineIdle());
        if (!Double.isNaN(predictedBound)) {
            m.put(EndToEndMetrics.PREDICTED_BOUND, predictedBound);
        }
        if (messageBytes > 0 && r.durationSeconds() > 0) {
            m.put(EndToEndMetrics.ECHO_MIB_PER_SECOND,
                    requests * (double) messageBytes / r.durationSeconds() / (1 << 20));
        }
        return m;
    }

    /** The JIT compiler threads' CPU per request of one process, where /proc could tell it. */
    private static void putJit(Map<String, Double> m, String role, ProcStat.Snapshot delta, long requests) {
        long nanos = delta.compilerNanos();
        if (nanos >= 0) {
            m.put(EndToEndMetrics.jit(role), requests == 0 ? Double.NaN : nanos / 1000.0 / requests);
        }
    }

    /** A server's memory figures, per process and per client connection (the load generator's connections). */
    Map<String, Double> memoryMetrics(String role, MemoryReport report) {
        lastMemory.put(role, report);
        Map<String, Double> m = new LinkedHashMap<>();
        int connections = spec == null ? 0 : spec.connections();
        report.figures().forEach((figure, bytes) -> {
            m.put(EndToEndMetrics.memory(role, figure), (double) bytes);
            if (connections > 0) {
                m.put(EndToEndMetrics.memoryPerConnection(role, figure), (double) bytes / connections);
            }
        });
        return m;
    }

    /** The figures of the last iteration that ended (empty before the first). */
    Map<String, Double> lastIterationMetrics() {
        return lastMetrics;
    }

    /** For a benchmark that runs its own load per invocation (a cold start): its figures for the profiler. */
    void iterationMetrics(Map<String, Double> metrics, LoadResult result) {
        this.lastMetrics = metrics;
        this.sideResult = result;
    }

    /**
     * For a benchmark that loads its servers in many short slices, a load generator each (ProxySideBySideBenchmark),
     * once a measured slice is done: there is no one load result to keep, but the side file still says where each
     * process ran and the CPU each used over the measured slices ({@link #measuredCpu}).
     */
    void measuredInSlices() {
        measuredInSlices = true;
    }

    /**
     * For a benchmark that runs its own load per invocation: the CPU of every component over it ({@code deltas} by
     * role, client included), for the placement's figures; they are added to {@code metrics}.
     */
    void measuredCpu(Map<String, ProcStat.Snapshot> deltas, Map<String, Double> metrics) {
        if (placement != null) {
            metrics.putAll(placement.measured(deltas));
        }
    }

    /**
     * Stops the load (letting the requests in flight complete, at most {@value #DRAIN_SECONDS} s, so that the
     * servers answered exactly what the generator counted), writes the side file, stops every server (last started,
     * first stopped).
     */
    @Override
    public void close() {
        try {
            if (generator != null) {
                if (measurementStart != null && measurementEnd != null) {
                    sideResult = LoadResult.between(spec, measurementStart, measurementEnd);
                }
                try {
                    generator.drainAndClose(Duration.ofSeconds(DRAIN_SECONDS));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    generator.close();
                }
            }
            if (sideResult != null || measuredInSlices) {
                writeSideFile(sideResult);
            }
        } finally {
            List<MeasuredProcess> reverse = new ArrayList<>(servers.values());
            java.util.Collections.reverse(reverse);
            try {
                for (MeasuredProcess p : reverse) {
                    p.close();
                }
            } finally {
                try {
                    if (network != null) {
                        network.close();
                    }
                } finally {
                    if (placement != null) {
                        placement.close();
                    }
                }
            }
            // Stays current: JMH asks the profiler for the last iteration's figures after the trial's teardown.
        }
    }

    /** Everything the servers logged on stderr so far, to explain a failure. */
    String serverLogs() {
        StringBuilder sb = new StringBuilder();
        servers.forEach((role, p) -> {
            String err = p.stderr();
            sb.append("\n--- ").append(p).append(" stderr").append(p.isAlive() ? "" : " (exited)").append(":\n")
                    .append(err.length() > 3000 ? "..." + err.substring(err.length() - 3000) : err);
        });
        return sb.toString();
    }

    /** Where side files go: {@value EndToEndMetrics#SIDE_FILE_PROPERTY}, else target/jmh/e2e. */
    static Path sideFileDir() {
        String dir = System.getProperty(EndToEndMetrics.SIDE_FILE_PROPERTY);
        return dir != null ? Paths.get(dir) : Paths.get("target", "jmh", EndToEndMetrics.SIDE_FILE_DIR);
    }

    /** The side file; {@code result} null for a trial loaded in slices (no "load"). */
    private void writeSideFile(LoadResult result) {
        JsonObject o = new JsonObject();
        o.addProperty("benchmark", benchmark);
        JsonObject p = new JsonObject();
        params.forEach(p::addProperty);
        o.add("params", p);
        o.addProperty("fork", ProcessHandle.current().pid());
        ForkIdentity.current().addTo(o); // run (and group, arm, round in the rounds engine): readers keep their run's
        o.add("stack", stack(result));
        if (!lastMemory.isEmpty()) {
            JsonObject memory = new JsonObject();
            lastMemory.forEach((role, r) -> {
                JsonObject j = new JsonObject();
                j.addProperty("netty", r.netty());
                j.addProperty("allocator", r.allocator());
                r.figures().forEach(j::addProperty);
                memory.add(role, j);
            });
            o.add("memory", memory); // at the end of the last iteration, as each server read it
        }
        if (result != null) {
            o.add("load", result.toJson());
        }
        if (placement != null) {
            o.add("placement", placement.toJson());
        }
        if (network != null) {
            o.add("topology", network.toJson());
        }
        servers.forEach((role, server) -> {
            if (server instanceof ExternalProcess e) { // what was measured, when it is not loopbench's own
                o.addProperty("external." + role, e.command());
            }
        });
        String name = shortName(benchmark) + "-" + paramString() + "-" + ProcessHandle.current().pid() + ".json";
        Path file = sideFileDir().resolve(name);
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues()
                    .create().toJson(o), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * What each component ran on: every server as its ready line said (Netty version, transport, epoll mode), the
     * load generator (this fork) as it ran ({@code result} null: its transport not known here).
     */
    private JsonObject stack(LoadResult result) {
        JsonObject stack = new JsonObject();
        JsonObject client = new JsonObject();
        client.addProperty("netty", NettyLine.current().version());
        if (result != null) {
            client.addProperty("transport", result.spec().transport().cliName());
        }
        stack.add(EndToEndMetrics.CLIENT, client);
        servers.forEach((role, p) -> {
            JsonObject s = new JsonObject();
            p.stack().forEach(s::addProperty);
            if (p instanceof ExternalProcess e) { // a gateway that is not loopbench's: what its side file names
                s.addProperty(EndToEndMetrics.EXTERNAL, e.template().template());
            }
            stack.add(role, s);
        });
        return stack;
    }

    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._=,-]");
    private static final int MAX_PARAMS_IN_NAME = 150;

    private String paramString() {
        StringBuilder sb = new StringBuilder();
        params.forEach((k, v) -> sb.append(sb.length() == 0 ? "" : ",").append(k).append('=').append(v));
        String all = UNSAFE.matcher(sb).replaceAll("_");
        // A file name is at most 255 bytes: a long parameter list is cut, with a hash of the whole to keep names
        // apart (the side file itself holds every parameter).
        return all.length() <= MAX_PARAMS_IN_NAME ? all
                : all.substring(0, MAX_PARAMS_IN_NAME) + "~" + Integer.toHexString(all.hashCode());
    }

    /** {@code Class.method} of a fully qualified benchmark method name. */
    static String shortName(String benchmark) {
        int method = benchmark.lastIndexOf('.');
        int cls = benchmark.lastIndexOf('.', method - 1);
        return benchmark.substring(cls + 1);
    }
}
