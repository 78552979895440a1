package loopbench.report;

/**
 * Names of the secondary results the end-to-end benchmarks put in JMH's JSON (one value per measurement
 * iteration, averaged over iterations like any per-iteration figure), and of the side files they leave next to
 * it. The benchmarks write them, the tables, the gate and the claims report read them: one list, here.
 *
 * <p>Per component ({@code ROLE} = client, proxy, origin or echo), each from /proc of that component's own
 * process: CPU-µs per request and context switches per request. The client is the load generator's JVM (the
 * JMH fork).
 */
public final class EndToEndMetrics {
    private EndToEndMetrics() {
    }

    /** Corrected latency percentiles of the iteration, µs (closed loop: measured from the send), and their mean. */
    public static final String LATENCY_MEAN = "e2e.latency.mean";
    public static final String LATENCY_P50 = "e2e.latency.p50";
    public static final String LATENCY_P90 = "e2e.latency.p90";
    public static final String LATENCY_P99 = "e2e.latency.p99";
    public static final String LATENCY_P999 = "e2e.latency.p99.9";
    public static final String LATENCY_MAX = "e2e.latency.max";

    /** Requests that failed in the iteration (an iteration with any fails the benchmark, so this reads 0). */
    public static final String ERRORS = "e2e.errors";

    /** Bytes per request on each leg: client to the first hop, first hop's backend leg, and back. */
    public static final String BYTES_REQUEST_FRONT = "e2e.bytes.request.front";
    public static final String BYTES_REQUEST_BACK = "e2e.bytes.request.back";
    public static final String BYTES_RESPONSE_BACK = "e2e.bytes.response.back";
    public static final String BYTES_RESPONSE_FRONT = "e2e.bytes.response.front";

    /** How busy the load generator's busiest event loop was (0..1), and whether it was saturated (0 or 1). */
    public static final String CLIENT_LOOP_BUSY = "e2e.client.loopBusy";
    public static final String CLIENT_SATURATED = "e2e.client.saturated";

    /** Idle share of the machine's CPUs during the iteration (0..1), from /proc/stat. */
    public static final String MACHINE_IDLE = "e2e.machine.idle";

    /** The throughput bound (req/s) the blocking-work argument predicts for the configuration. */
    public static final String PREDICTED_BOUND = "e2e.bound";

    /** Echo: payload mebibytes per second echoed (each way), from the messages counted and their size. */
    public static final String ECHO_MIB_PER_SECOND = "e2e.echo.MiB/s";

    /**
     * The warm-up curve of a cold proxy (claim C002-2), from its first seconds under load: requests/s in the
     * first second, requests that failed while cold, and the seconds until a second reached 90% of the
     * rate of the last seconds of the run.
     */
    public static final String WARMUP_FIRST_SECOND = "e2e.warmup.firstSecond";
    public static final String WARMUP_ERRORS = "e2e.warmup.errors";
    public static final String WARMUP_SECONDS_TO_90 = "e2e.warmup.secondsTo90";

    /**
     * Tasks handed to an event loop (EventLoopTaskBalanceBenchmark): from the submitting thread's call to the task's
     * start on the loop, µs.
     */
    public static final String TASK_LATENCY_MEAN = "e2e.task.latency.mean";
    public static final String TASK_LATENCY_P50 = "e2e.task.latency.p50";
    public static final String TASK_LATENCY_P99 = "e2e.task.latency.p99";
    public static final String TASK_LATENCY_MAX = "e2e.task.latency.max";

    /** Requests per second of one arm's slices (ProxySideBySideBenchmark; see {@link #arm}). */
    public static final String REQUESTS_PER_SECOND = "e2e.rps";

    /**
     * Connections the load generator opened per request in one arm's slices (ProxySideBySideBenchmark): near 0 with
     * keep-alive, 1 with a new connection per request (plus the slice's last connects, answered after it ended).
     */
    public static final String CONNECTIONS_PER_REQUEST = "e2e.connectionsPerRequest";

    /**
     * ProxySideBySideBenchmark: CPUs the proxies not under load used while another arm's slice ran, averaged over a
     * cycle's slices (their JIT or GC catching up; near 0 once every arm is warm).
     */
    public static final String IDLE_ARMS_CPUS = "e2e.arms.idleCpus";

    /**
     * ProxySideBySideBenchmark, per arm ({@link #arm}): the place of its proxy (or its own origin) in the order the
     * fork started them (0: first), drawn at random per fork, so that an effect of the order shows as noise, and can
     * be looked for.
     */
    public static final String START_POSITION = "e2e.proxy.startPosition";

    /** Component roles. */
    public static final String CLIENT = "client";
    public static final String PROXY = "proxy";
    public static final String ORIGIN = "origin";
    public static final String ECHO = "echo";

    /**
     * {@code metric} (one of this list's, {@code e2e.X}) for one arm of a side-by-side run: {@code e2e.arm.ARM.X},
     * e.g. {@code e2e.arm.7/reuse-server-thread/adaptive.proxy.cpu} (no brackets: JMH's JSON writer breaks a
     * name that has them across lines).
     */
    public static String arm(String arm, String metric) {
        if (!metric.startsWith("e2e.")) {
            throw new IllegalArgumentException("not an end-to-end metric: " + metric);
        }
        return "e2e.arm." + arm + "." + metric.substring("e2e.".length());
    }

    /** CPU-µs per request of a component. */
    public static String cpu(String role) {
        return "e2e." + role + ".cpu";
    }

    /**
     * CPU-µs per request of a component's JIT compiler threads: part of {@link #cpu}, the JIT still at work. Not 0
     * in a measured iteration means the process was not yet warm (for a JVM; a process without a JIT shows 0).
     */
    public static String jit(String role) {
        return "e2e." + role + ".jit";
    }

    /** Context switches per request of a component. */
    public static String contextSwitches(String role) {
        return "e2e." + role + ".ctxsw";
    }

    /**
     * CPUs a component used in the iteration: its CPU seconds over the wall seconds (1.0 = one CPU busy all the time),
     * to read against {@link #cpusAllowed}: a component that used all the CPUs it was allowed was saturated.
     */
    public static String cpusUsed(String role) {
        return "e2e." + role + ".cpusUsed";
    }

    /**
     * A memory figure of a server process at the end of the iteration, bytes (names in
     * {@link loopbench.metrics.MemoryReport#FIGURES}: its allocator's direct memory reserved and in use, Netty's
     * direct-memory counter, its resident set size, its heap after the last collection, ...), as the server read it.
     */
    public static String memory(String role, String figure) {
        return "e2e." + role + ".mem." + figure;
    }

    /** {@link #memory} over the run's client connections: bytes per connection. */
    public static String memoryPerConnection(String role, String figure) {
        return memory(role, figure) + ".perConnection";
    }

    /**
     * {@link #memory} at the end of a burst of large bodies (AllocatorMemoryBenchmark, phase after-burst), before the
     * light load the iterations then measure.
     */
    public static String memoryAtBurstEnd(String role, String figure) {
        return "e2e." + role + ".mem.burstEnd." + figure;
    }

    /** Whether a metric of this list is a memory figure (reported beside a comparison, not judged by the gate). */
    public static boolean isMemory(String name) {
        return name.startsWith("e2e.") && name.contains(".mem.");
    }

    /** How many CPUs a component's process was allowed to run on (its Cpus_allowed_list, read back from /proc). */
    public static String cpusAllowed(String role) {
        return "e2e." + role + ".cpusAllowed";
    }

    /**
     * The directory, under a suite's output directory (e.g. {@code target/jmh/e2e}), where every end-to-end trial
     * leaves {@code <Class>.<method>-<params>-<pid>.json}: {"benchmark", "params", "fork", "stack": per component
     * (client, proxy, origin, echo) what it ran on ({"netty": version, "transport", and "epoll-mode" where epoll
     * reports one; as the servers' ready lines say; for a gateway that is not loopbench's, {"external": its command
     * template}), "load": the load generator's result JSON over the measurement
     * iterations (the format of {@code loopbench load --json}, with the full corrected latency distribution and the
     * per-second series), "memory": per server, its last {@link loopbench.metrics.MemoryReport} ({"netty", "allocator",
     * and each figure in bytes}), "placement": where each process ran
     * ({"name": the parameter, "available": the CPUs the fork could use, "plan": each component's CPUs as planned,
     * "cpus": each process's Cpus_allowed_list read back from /proc, "cpuUse": each one's CPU seconds over wall
     * seconds of the measurement, "note" where pinned could not pin), "topology": how they reached each other
     * ({"name": local or netns, "link": none or the links' rate, and with netns each host's "addresses" and
     * "namespaces" and the "setupMillis")}.
     */
    public static final String SIDE_FILE_DIR = "e2e";

    /** The system property that tells a benchmark fork where to write its side files. */
    public static final String SIDE_FILE_PROPERTY = "loopbench.e2e.dir";

    /** The system property with the command template of {@code layer=external}: the gateway that is measured. */
    public static final String EXTERNAL_PROXY_PROPERTY = "loopbench.external.proxy";

    /** In a side file's "stack", a gateway that is not loopbench's: its command template. */
    public static final String EXTERNAL = "external";

    /** The unit of a metric of this list, as JMH's JSON and the tables show it. */
    public static String unit(String name) {
        if (name.endsWith(".perConnection")) {
            return "B/conn";
        }
        if (isMemory(name)) {
            return "B";
        }
        if (name.startsWith("e2e.latency.") || name.startsWith("e2e.task.latency.")) {
            return "µs";
        }
        if (name.endsWith(".cpu") || name.endsWith(".jit")) {
            return "µs/req";
        }
        if (name.endsWith(".ctxsw")) {
            return "#/req";
        }
        if (name.endsWith(".rps")) {
            return "req/s";
        }
        if (name.endsWith(".cpusUsed") || name.endsWith(".cpusAllowed")) {
            return "CPUs";
        }
        if (name.startsWith("e2e.bytes.")) {
            return "B/req";
        }
        switch (name) {
            case ERRORS:
            case WARMUP_ERRORS:
                return "#";
            case CLIENT_LOOP_BUSY:
            case MACHINE_IDLE:
                return "share";
            case CLIENT_SATURATED:
                return "0|1";
            case IDLE_ARMS_CPUS:
                return "CPUs";
            case PREDICTED_BOUND:
            case WARMUP_FIRST_SECOND:
                return "req/s";
            case ECHO_MIB_PER_SECOND:
                return "MiB/s";
            case WARMUP_SECONDS_TO_90:
                return "s";
            default:
                return "";
        }
    }
}
