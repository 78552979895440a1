package loopbench.load;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import loopbench.metrics.ProcStat;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a load run (or any stretch of one: a JMH iteration, a trial's measurement) measured: the difference of two
 * {@link LoadSnapshot}s. Printed as a wrk2-like summary and written as JSON; both say whether the generator was
 * saturated, that is whether the figure measures the generator rather than the target.
 */
public final class LoadResult {
    /** An event loop that ran or waited for a CPU at least this share of the time was never idle: saturated. */
    public static final double SATURATED_BUSY_SHARE = 0.90;
    /** Below this idle share of the machine, every process on it competed for the CPUs. */
    public static final double BUSY_MACHINE_IDLE_SHARE = 0.05;
    /** An open loop that achieved less than this share of its rate did not keep its schedule. */
    public static final double RATE_SHORTFALL = 0.95;
    private static final double[] PERCENTILES = {50, 90, 99, 99.9};

    private final LoadSpec spec;
    private final double durationSeconds;
    private final long requests;
    private final long sent;
    private final long bytesRead;
    private final long bytesWritten;
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
    private final List<String> notes = new ArrayList<>();
    private final boolean saturated;

    private LoadResult(LoadSpec spec, LoadSnapshot a, LoadSnapshot b, Duration warmup) {
        this.spec = spec;
        this.warmup = warmup;
        this.durationSeconds = (b.atNanos() - a.atNanos()) / 1e9;
        this.requests = b.completed() - a.completed();
        this.sent = b.sent() - a.sent();
        this.bytesRead = b.bytesRead() - a.bytesRead();
        this.bytesWritten = b.bytesWritten() - a.bytesWritten();
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
        this.cpuMicrosPerRequest = requests == 0 ? Double.NaN : proc.cpuNanos() / 1000.0 / requests;
        this.contextSwitchesPerRequest = requests == 0 ? Double.NaN : (double) proc.contextSwitches() / requests;
        ProcStat.CpuSplit split = b.processSplit().minus(a.processSplit());
        this.userMicrosPerRequest = requests == 0 ? Double.NaN : split.userNanos() / 1000.0 / requests;
        this.systemMicrosPerRequest = requests == 0 ? Double.NaN : split.systemNanos() / 1000.0 / requests;
        long wall = b.atNanos() - a.atNanos();
        int loops = b.loops().size();
        loopCpuShare = new double[loops];
        loopBusyShare = new double[loops];
        double maxBusy = Double.NaN;
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
            maxBusy = Double.isNaN(maxBusy) ? loopBusyShare[i] : Math.max(maxBusy, loopBusyShare[i]);
        }
        this.machineIdle = b.machine().minus(a.machine()).idleShare();
        this.saturated = maxBusy >= SATURATED_BUSY_SHARE;
        if (saturated) {
            notes.add(String.format(Locale.ROOT, "SATURATED: an event loop of the generator ran or waited for a CPU %.0f%% "
                    + "of the time (>= %.0f%%): the figure measures the generator, not the target; give it more "
                    + "--io-threads or fewer connections, or move it to other cores", 100 * maxBusy,
                    100 * SATURATED_BUSY_SHARE));
        } else if (Double.isNaN(maxBusy)) {
            notes.add("the kernel gives no schedstat for the generator's threads: saturation unknown");
        }
        if (machineIdle < BUSY_MACHINE_IDLE_SHARE) {
            notes.add(String.format(Locale.ROOT, "the machine was %.0f%% idle: the generator and the target competed for "
                    + "the same CPUs, so req/s is the pace of the whole box; compare CPU time per request instead",
                    100 * machineIdle));
        }
        if (spec.openLoop() && durationSeconds > 0) {
            double achieved = requests / durationSeconds;
            if (achieved < RATE_SHORTFALL * spec.rate()) {
                notes.add(String.format(Locale.ROOT, "open loop: %.0f req/s achieved of %.0f asked; the requests that "
                        + "could not be sent on time were sent late, and their wait is in the corrected latency",
                        achieved, spec.rate()));
            }
        }
        if (!spec.openLoop()) {
            notes.add("closed loop: latency is measured from the send, so corrected = uncorrected (coordinated "
                    + "omission is not corrected; use --rate for that)");
        }
    }

    /** The result of the stretch between snapshot {@code a} and the later snapshot {@code b}. */
    public static LoadResult between(LoadSpec spec, LoadSnapshot a, LoadSnapshot b) {
        return new LoadResult(spec, a, b, Duration.ZERO);
    }

    /** As {@link #between(LoadSpec, LoadSnapshot, LoadSnapshot)}, for a run that warmed up for {@code warmup} before {@code a}. */
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

    /** Latency from the intended start, µs (= uncorrected in a closed loop). */
    public Histogram corrected() {
        return corrected;
    }

    /** Latency from the actual send, µs. */
    public Histogram uncorrected() {
        return uncorrected;
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

    public boolean saturated() {
        return saturated;
    }

    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** 0: no request failed; 1: some did (the summary says how many and why). */
    public int exitCode() {
        return errorsTotal() + warmupErrors > 0 ? 1 : 0;
    }

    // ---- JSON ----

    public JsonObject toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("target", spec.target().toString());
        o.addProperty("mode", spec.openLoop() ? "open" : "closed");
        o.addProperty("connections", spec.connections());
        o.addProperty("pipeline", spec.pipeline());
        if (spec.openLoop()) {
            o.addProperty("rate", spec.rate());
        } else {
            o.add("rate", JsonNull.INSTANCE);
        }
        if (spec.target().protocol() == Target.Protocol.HTTP) {
            o.addProperty("method", spec.method());
            o.addProperty("bodySize", spec.bodySize());
        } else {
            o.addProperty("messageSize", spec.messageSize());
        }
        o.addProperty("transport", spec.transport().cliName());
        o.addProperty("allocator", spec.allocator().cliName() + "/" + spec.buffers().cliName());
        o.addProperty("ioThreads", spec.ioThreads());
        o.addProperty("durationSeconds", round(durationSeconds, 3));
        o.addProperty("requests", requests);
        o.addProperty("sent", sent);
        o.addProperty("requestsPerSecond", round(requestsPerSecond(), 1));
        o.addProperty("bytesRead", bytesRead);
        o.addProperty("bytesWritten", bytesWritten);
        JsonObject e = new JsonObject();
        e.addProperty("total", errorsTotal());
        errors.forEach((k, n) -> e.addProperty(k.key(), n));
        o.add("errors", e);
        JsonObject lat = new JsonObject();
        lat.add("corrected", percentiles(corrected));
        lat.add("uncorrected", percentiles(uncorrected));
        o.add("latencyMicros", lat);
        JsonObject dist = new JsonObject();
        dist.add("corrected", distribution(corrected));
        dist.add("uncorrected", distribution(uncorrected));
        o.add("latencyDistribution", dist);
        JsonObject hdr = new JsonObject();
        hdr.addProperty("corrected", encode(corrected));
        hdr.addProperty("uncorrected", encode(uncorrected));
        o.add("hdrHistogram", hdr);
        JsonArray series = new JsonArray();
        for (PerSecond s : perSecond) {
            JsonObject x = new JsonObject();
            x.addProperty("second", s.second());
            x.addProperty("durationSeconds", round(s.durationSeconds(), 3));
            x.addProperty("requests", s.requests());
            x.addProperty("errors", s.errors());
            x.addProperty("p50Micros", s.p50Micros());
            x.addProperty("p99Micros", s.p99Micros());
            x.addProperty("maxMicros", s.maxMicros());
            series.add(x);
        }
        o.add("perSecond", series);
        JsonObject w = new JsonObject();
        w.addProperty("seconds", round(warmup.toNanos() / 1e9, 3));
        w.addProperty("requests", warmupRequests);
        w.addProperty("errors", warmupErrors);
        o.add("warmup", w);
        JsonObject g = new JsonObject();
        addNumber(g, "cpuMicrosPerRequest", round(cpuMicrosPerRequest, 3));
        addNumber(g, "userMicrosPerRequest", round(userMicrosPerRequest, 3));
        addNumber(g, "systemMicrosPerRequest", round(systemMicrosPerRequest, 3));
        addNumber(g, "contextSwitchesPerRequest", round(contextSwitchesPerRequest, 4));
        JsonArray loops = new JsonArray();
        for (int i = 0; i < loopBusyShare.length; i++) {
            JsonObject l = new JsonObject();
            addNumber(l, "cpuShare", round(loopCpuShare[i], 3));
            addNumber(l, "busyShare", round(loopBusyShare[i], 3));
            loops.add(l);
        }
        g.add("eventLoops", loops);
        addNumber(g, "maxLoopBusyShare", round(maxLoopBusy(), 3));
        addNumber(g, "machineIdleShare", round(machineIdle, 3));
        if (spec.openLoop()) {
            g.add("scheduleLagMicros", percentiles(scheduleLag));
        }
        g.addProperty("saturated", saturated);
        JsonArray n = new JsonArray();
        notes.forEach(n::add);
        g.add("notes", n);
        o.add("generator", g);
        return o;
    }

    public String toJsonString() {
        return new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(toJson());
    }

    private static JsonObject percentiles(Histogram h) {
        JsonObject p = new JsonObject();
        for (double q : PERCENTILES) {
            String key = "p" + (q == Math.rint(q) ? String.valueOf((int) q) : String.valueOf(q));
            if (h.getTotalCount() == 0) {
                p.add(key, JsonNull.INSTANCE);
            } else {
                p.addProperty(key, h.getValueAtPercentile(q));
            }
        }
        if (h.getTotalCount() == 0) {
            p.add("max", JsonNull.INSTANCE);
            p.add("mean", JsonNull.INSTANCE);
        } else {
            p.addProperty("max", h.getMaxValue());
            p.addProperty("mean", round(h.getMean(), 1));
        }
        p.addProperty("count", h.getTotalCount());
        return p;
    }

    /** The percentile distribution as HdrHistogram prints it (5 ticks per half distance): [[percentile, µs], ...]. */
    static JsonArray distribution(Histogram h) {
        JsonArray a = new JsonArray();
        if (h.getTotalCount() == 0) {
            return a;
        }
        for (HistogramIterationValue v : h.percentiles(5)) {
            JsonArray point = new JsonArray();
            point.add(round(v.getPercentileLevelIteratedTo(), 6));
            point.add(h.highestEquivalentValue(v.getValueIteratedTo()));
            a.add(point);
            if (v.getPercentileLevelIteratedTo() >= 100) {
                break;
            }
        }
        return a;
    }

    /** HdrHistogram's compressed encoding, base64: the full distribution, for tools that want it exactly. */
    static String encode(Histogram h) {
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n));
    }

    private static void addNumber(JsonObject o, String key, double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            o.add(key, JsonNull.INSTANCE);
        } else {
            o.addProperty(key, v);
        }
    }

    private static double round(double v, int digits) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return v;
        }
        double f = Math.pow(10, digits);
        return Math.round(v * f) / f;
    }

    // ---- the summary ----

    /** A wrk2-like summary, units on every number. */
    public String summary() {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%s test of %s @ %s%n", spec.openLoop()
                        ? String.format(Locale.ROOT, "Open-loop (%,.0f req/s)", spec.rate()) : "Closed-loop",
                seconds(durationSeconds), spec.target()));
        s.append(String.format(Locale.ROOT, "  %d connections, pipeline %d, %d io thread%s (%s, %s/%s)%n",
                spec.connections(), spec.pipeline(), spec.ioThreads(), spec.ioThreads() == 1 ? "" : "s",
                spec.transport().cliName(), spec.allocator().cliName(), spec.buffers().cliName()));
        s.append(String.format(Locale.ROOT, "  %-15s %10s %10s %10s %10s %10s%n", "Latency (µs)", "p50", "p90", "p99",
                "p99.9", "max"));
        s.append(latencyLine("corrected", corrected));
        s.append(latencyLine("uncorrected", uncorrected));
        s.append(String.format(Locale.ROOT, "  %,d requests in %s, %s read, %s written%n", requests,
                seconds(durationSeconds), bytes(bytesRead), bytes(bytesWritten)));
        s.append(String.format(Locale.ROOT, "Requests/sec:   %,.1f%n", requestsPerSecond()));
        s.append(String.format(Locale.ROOT, "Transfer/sec:   %s read%n",
                bytes(durationSeconds <= 0 ? 0 : (long) (bytesRead / durationSeconds))));
        long total = errorsTotal();
        if (total == 0) {
            s.append("Errors:         none\n");
        } else {
            StringBuilder kinds = new StringBuilder();
            errors.forEach((k, n) -> {
                if (n > 0) {
                    kinds.append(kinds.length() == 0 ? "" : ", ").append(n).append(' ').append(k.key())
                            .append(" (").append(k.description()).append(')');
                }
            });
            s.append(String.format(Locale.ROOT, "Errors:         %,d failed requests: %s%n", total, kinds));
        }
        if (!warmup.isZero()) {
            s.append(String.format(Locale.ROOT, "Warm-up:        %s, %,d requests sent and not recorded%s%n",
                    seconds(warmup.toNanos() / 1e9), warmupRequests,
                    warmupErrors == 0 ? "" : String.format(Locale.ROOT, ", %,d failed", warmupErrors)));
        }
        s.append(String.format(Locale.ROOT, "Generator:      %s CPU-µs/request (user %s, sys %s), %s context "
                        + "switches/request; busiest event loop running or ready %s of the time: %s%n",
                number(cpuMicrosPerRequest, 2), number(userMicrosPerRequest, 2), number(systemMicrosPerRequest, 2),
                number(contextSwitchesPerRequest, 3), percent(maxLoopBusy()),
                saturated ? "SATURATED" : Double.isNaN(maxLoopBusy()) ? "saturation unknown" : "not saturated"));
        s.append(String.format(Locale.ROOT, "Machine:        %s of the CPUs idle%n", percent(machineIdle)));
        for (String n : notes) {
            s.append("Note: ").append(n).append('\n');
        }
        return s.toString();
    }

    private static String latencyLine(String name, Histogram h) {
        if (h.getTotalCount() == 0) {
            return String.format(Locale.ROOT, "    %-13s %10s%n", name, "(no requests)");
        }
        return String.format(Locale.ROOT, "    %-13s %10d %10d %10d %10d %10d%n", name, h.getValueAtPercentile(50),
                h.getValueAtPercentile(90), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9), h.getMaxValue());
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.2f s", s);
    }

    private static String number(double v, int digits) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        if (n < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", n / 1024.0);
        }
        if (n < 1024L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f MiB", n / (1024.0 * 1024));
        }
        return String.format(Locale.ROOT, "%.2f GiB", n / (1024.0 * 1024 * 1024));
    }
}
