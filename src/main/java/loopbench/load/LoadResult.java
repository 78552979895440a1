package loopbench.load;

import com.google.gson.JsonObject;
import loopbench.metrics.ProcStat;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What a load run (or any stretch of one: a JMH iteration, a trial's measurement) measured: the difference of two
 * {@link LoadSnapshot}s. Only the figures live here; each presentation lives in its own class: {@link LoadJson}
 * (the JSON, an interface other tools read), {@link LoadSummary} (the wrk2-like text), {@link LoadAdvice} (the notes
 * that say what a figure measures, e.g. a saturated generator) and {@link LoadExitCode}. The methods of the same names
 * here are shortcuts to them.
 */
public final class LoadResult {
    /** An event loop that ran or waited for a CPU at least this share of the time was never idle: saturated. */
    public static final double SATURATED_BUSY_SHARE = 0.90;

    private final LoadSpec spec;
    private final double durationSeconds;
    private final long requests;
    private final long sent;
    private final long bytesRead;
    private final long bytesWritten;
    private final long connectionsOpened;
    private final Map<ErrorKind, Long> errors = new EnumMap<>(ErrorKind.class);
    private final long warmupRequests;
    private final long warmupErrors;
    private final Duration warmup;
    private final Histogram corrected;
    private final Histogram uncorrected;
    private final Histogram scheduleLag;
    private final List<PerSecond> perSecond;
    private final double cpuMicrosPerRequest;
    private final double contextSwitchesPerRequest;
    private final double userMicrosPerRequest;
    private final double systemMicrosPerRequest;
    private final double[] loopCpuShare;
    private final double[] loopBusyShare;
    private final double machineIdle;

    private LoadResult(LoadSpec spec, LoadSnapshot a, LoadSnapshot b, Duration warmup) {
        this.spec = spec;
        this.warmup = warmup;
        this.durationSeconds = (b.atNanos() - a.atNanos()) / 1e9;
        this.requests = b.completed() - a.completed();
        this.sent = b.sent() - a.sent();
        this.bytesRead = b.bytesRead() - a.bytesRead();
        this.bytesWritten = b.bytesWritten() - a.bytesWritten();
        this.connectionsOpened = b.connectionsOpened() - a.connectionsOpened();
        for (ErrorKind k : ErrorKind.values()) {
            errors.put(k, b.errors(k) - a.errors(k));
        }
        this.warmupRequests = b.warmupCompleted();
        this.warmupErrors = b.warmupErrors();
        this.corrected = minus(b.corrected(), a.corrected());
        this.uncorrected = minus(b.uncorrected(), a.uncorrected());
        this.scheduleLag = minus(b.scheduleLag(), a.scheduleLag());
        this.perSecond = List.copyOf(b.perSecond().subList(Math.min(a.perSecond().size(), b.perSecond().size()),
                b.perSecond().size()));
        ProcStat.Snapshot proc = b.process().minus(a.process());
        this.cpuMicrosPerRequest = perRequest(proc.cpuNanos() / 1000.0);
        this.contextSwitchesPerRequest = perRequest(proc.contextSwitches());
        ProcStat.CpuSplit split = b.processSplit().minus(a.processSplit());
        this.userMicrosPerRequest = perRequest(split.userNanos() / 1000.0);
        this.systemMicrosPerRequest = perRequest(split.systemNanos() / 1000.0);
        long wall = b.atNanos() - a.atNanos();
        int loops = b.loops().size();
        loopCpuShare = new double[loops];
        loopBusyShare = new double[loops];
        for (int i = 0; i < loops; i++) {
            ProcStat.SchedStat x = a.loops().get(i);
            ProcStat.SchedStat y = b.loops().get(i);
            if (x == null || y == null || wall <= 0) {
                loopCpuShare[i] = Double.NaN;
                loopBusyShare[i] = Double.NaN;
                continue;
            }
            ProcStat.SchedStat d = y.minus(x);
            loopCpuShare[i] = (double) d.runNanos() / wall;
            loopBusyShare[i] = (double) (d.runNanos() + d.waitNanos()) / wall;
        }
        this.machineIdle = b.machine().minus(a.machine()).idleShare();
    }

    /** The result of the stretch between snapshot {@code a} and the later snapshot {@code b}. */
    public static LoadResult between(LoadSpec spec, LoadSnapshot a, LoadSnapshot b) {
        return new LoadResult(spec, a, b, Duration.ZERO);
    }

    /** As {@link #between}, for a run that warmed up for {@code warmup} before {@code a}. */
    static LoadResult ofRun(LoadSpec spec, LoadSnapshot a, LoadSnapshot b, Duration warmup) {
        return new LoadResult(spec, a, b, warmup);
    }

    private static Histogram minus(Histogram later, Histogram earlier) {
        Histogram h = later.copy();
        if (earlier.getTotalCount() > 0) {
            h.subtract(earlier);
        }
        return h;
    }

    private double perRequest(double total) {
        return requests == 0 ? Double.NaN : total / requests;
    }

    public LoadSpec spec() {
        return spec;
    }

    public double durationSeconds() {
        return durationSeconds;
    }

    /** Successful requests. */
    public long requests() {
        return requests;
    }

    public long sent() {
        return sent;
    }

    public double requestsPerSecond() {
        return durationSeconds <= 0 ? 0 : requests / durationSeconds;
    }

    public long bytesRead() {
        return bytesRead;
    }

    public long bytesWritten() {
        return bytesWritten;
    }

    /** Connections opened in this stretch (with a connection per request, one per request sent). */
    public long connectionsOpened() {
        return connectionsOpened;
    }

    public long errors(ErrorKind kind) {
        return errors.get(kind);
    }

    public long errorsTotal() {
        return errors.values().stream().mapToLong(Long::longValue).sum();
    }

    public long warmupRequests() {
        return warmupRequests;
    }

    public long warmupErrors() {
        return warmupErrors;
    }

    /** How long the run warmed up before this result's stretch (zero for a stretch between two snapshots). */
    public Duration warmup() {
        return warmup;
    }

    /** Latency from the intended start, µs (= uncorrected in a closed loop). */
    public Histogram corrected() {
        return corrected;
    }

    /** Latency from the actual send, µs. */
    public Histogram uncorrected() {
        return uncorrected;
    }

    /** Open loop: how late the generator woke up to send a request that was due, µs. */
    public Histogram scheduleLag() {
        return scheduleLag;
    }

    public List<PerSecond> perSecond() {
        return perSecond;
    }

    /** CPU time of the generator's JVM per successful request, µs. */
    public double cpuMicrosPerRequest() {
        return cpuMicrosPerRequest;
    }

    /** User-space and kernel CPU time of the generator's JVM per successful request, µs (10 ms resolution). */
    public double userMicrosPerRequest() {
        return userMicrosPerRequest;
    }

    public double systemMicrosPerRequest() {
        return systemMicrosPerRequest;
    }

    public double contextSwitchesPerRequest() {
        return contextSwitchesPerRequest;
    }

    /** Each event loop's share of the time on a CPU (0..1); NaN where the kernel does not say. */
    public double[] loopCpuShares() {
        return loopCpuShare.clone();
    }

    /** Each event loop's share of the time running or ready to run (0..1); NaN where the kernel does not say. */
    public double[] loopBusyShares() {
        return loopBusyShare.clone();
    }

    /** The busiest event loop's share of time running or ready to run (0..1); NaN where unknown. */
    public double maxLoopBusy() {
        double max = Double.NaN;
        for (double b : loopBusyShare) {
            if (!Double.isNaN(b)) {
                max = Double.isNaN(max) ? b : Math.max(max, b);
            }
        }
        return max;
    }

    public double machineIdle() {
        return machineIdle;
    }

    /** Whether an event loop of the generator was never idle: the figures measure the generator, not the target. */
    public boolean saturated() {
        return maxLoopBusy() >= SATURATED_BUSY_SHARE;
    }

    // ---- shortcuts to the presentations ----

    /** {@link LoadAdvice#notes}. */
    public List<String> notes() {
        return LoadAdvice.notes(this);
    }

    /** {@link LoadExitCode#of}. */
    public int exitCode() {
        return LoadExitCode.of(this);
    }

    /** {@link LoadJson#of}. */
    public JsonObject toJson() {
        return LoadJson.of(this);
    }

    /** {@link LoadJson#text}. */
    public String toJsonString() {
        return LoadJson.text(this);
    }

    /** {@link LoadSummary#of}. */
    public String summary() {
        return LoadSummary.of(this);
    }
}
