package loopbench.load;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import loopbench.metrics.ProcStat;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run measured, merged. Each event loop records into its own {@link LoopRecorder} (single-writer recorders,
 * no lock on the hot path); this merges them under one lock, as wrk2 merges its threads' statistics: into the run's
 * histograms whenever a snapshot is taken, and into the per-second series when a second closes. That lock (this
 * object's monitor) is the generator's only one; nothing on an event loop takes it.
 */
final class RunRecording {
    private final Map<EventExecutor, LoopRecorder> byLoop = new IdentityHashMap<>();
    private final List<LoopRecorder> recorders = new ArrayList<>();

    // Guarded by this.
    private final Histogram corrected = LoopRecorder.newHistogram();
    private final Histogram uncorrected = LoopRecorder.newHistogram();
    private final Histogram scheduleLag = LoopRecorder.newHistogram();
    private final Histogram secondCorrected = LoopRecorder.newHistogram();
    private final Histogram scratch = LoopRecorder.newHistogram();
    private final List<PerSecond> perSecond = new ArrayList<>();
    private long[] secondStartCounters;
    private long secondStartNanos;
    private LoadSnapshot measuredStart;

    /** A recorder for each loop of {@code group}; starts each loop's thread, to learn its kernel thread id. */
    RunRecording(EventLoopGroup group) {
        for (EventExecutor loop : group) {
            LoopRecorder rec = new LoopRecorder();
            byLoop.put(loop, rec);
            recorders.add(rec);
            // The loop's kernel thread id, for its scheduler account; also starts the thread before any load.
            loop.submit(() -> rec.threadId = ProcStat.currentTid()).syncUninterruptibly();
        }
    }

    LoopRecorder recorder(EventExecutor loop) {
        return byLoop.get(loop);
    }

    /** Everything counted up to {@code atNanos}. */
    synchronized LoadSnapshot snapshot(long atNanos, int connectionsUp) {
        collect();
        List<ProcStat.SchedStat> loops = new ArrayList<>();
        for (LoopRecorder r : recorders) {
            loops.add(r.threadId > 0 ? ProcStat.schedStat(r.threadId) : null);
        }
        return new LoadSnapshot(atNanos, counters(), corrected.copy(), uncorrected.copy(), scheduleLag.copy(),
                List.copyOf(perSecond), loops, ProcStat.self(), ProcStat.cpuSplit(ProcessHandle.current().pid()),
                ProcStat.machine(), connectionsUp);
    }

    /** The measured period begins at {@code atNanos} (the warm-up is over): its first second starts. */
    synchronized void startMeasuring(long atNanos, int connectionsUp) {
        measuredStart = snapshot(atNanos, connectionsUp).asMeasuredPeriodStart();
        secondStartCounters = measuredStart.counters();
        secondStartNanos = measuredStart.atNanos();
    }

    /** The snapshot taken when the measured period began; null before. */
    synchronized LoadSnapshot measuredStart() {
        return measuredStart;
    }

    /** Closes the current second of the series at {@code atNanos}. */
    synchronized PerSecond closeSecond(long atNanos) {
        collect();
        long[] now = counters();
        long errors = errorsBetween(secondStartCounters, now);
        PerSecond s = new PerSecond(perSecond.size() + 1, (atNanos - secondStartNanos) / 1e9,
                secondCorrected.getTotalCount(), errors,
                micros(secondCorrected, 50), micros(secondCorrected, 99), secondCorrected.getMaxValue());
        perSecond.add(s);
        secondCorrected.reset();
        secondStartCounters = now;
        secondStartNanos = atNanos;
        return s;
    }

    /**
     * The run ended at {@code endNanos}: closes its last, partial second and returns the last snapshot. A run that
     * ended during its warm-up (e.g. {@code --requests} reached) gets an empty measured period, starting at its end.
     */
    synchronized LoadSnapshot finish(long recordStartNanos, long endNanos, int connectionsUp) {
        if (measuredStart == null) {
            startMeasuring(Math.min(recordStartNanos, endNanos), connectionsUp);
        }
        // The last, partial second (the ticker may already have closed one that ends a little later). A sliver
        // under 1 ms is dropped only when nothing completed in it: the series must sum to the run.
        long partial = endNanos - secondStartNanos;
        collect();
        boolean pending = secondCorrected.getTotalCount() > 0 || errorsBetween(secondStartCounters, counters()) > 0;
        if (partial > 1_000_000 || pending || (partial > 0 && perSecond.isEmpty())) {
            closeSecond(endNanos);
        }
        return snapshot(endNanos, connectionsUp);
    }

    /** Successful requests so far, warm-up and measured (any thread, no lock). */
    long successes() {
        return sum(LoopRecorder.COMPLETED) + sum(LoopRecorder.WARMUP_COMPLETED);
    }

    long warmupCompleted() {
        return sum(LoopRecorder.WARMUP_COMPLETED);
    }

    /** Failed requests and failed connects so far, warm-up and measured (any thread, no lock). */
    long errors() {
        long n = sum(LoopRecorder.WARMUP_ERRORS);
        for (ErrorKind k : ErrorKind.values()) {
            n += sum(LoopRecorder.ERRORS + k.ordinal());
        }
        return n;
    }

    private long sum(int counter) {
        long n = 0;
        for (LoopRecorder r : recorders) {
            n += r.get(counter);
        }
        return n;
    }

    /** Moves what the loops recorded since the last call into the merged histograms; guarded by this. */
    private void collect() {
        for (LoopRecorder r : recorders) {
            r.corrected.getIntervalHistogramInto(scratch);
            corrected.add(scratch);
            secondCorrected.add(scratch);
            r.uncorrected.getIntervalHistogramInto(scratch);
            uncorrected.add(scratch);
            r.scheduleLag.getIntervalHistogramInto(scratch);
            scheduleLag.add(scratch);
        }
    }

    private long[] counters() {
        long[] sum = new long[LoopRecorder.SIZE];
        for (LoopRecorder r : recorders) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += r.get(i);
            }
        }
        return sum;
    }

    private static long errorsBetween(long[] start, long[] now) {
        long errors = 0;
        for (ErrorKind k : ErrorKind.values()) {
            int i = LoopRecorder.ERRORS + k.ordinal();
            errors += now[i] - start[i];
        }
        return errors;
    }

    private static double micros(Histogram h, double percentile) {
        return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile);
    }
}
