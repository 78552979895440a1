package loopbench.load;

import loopbench.metrics.ProcStat;
import org.HdrHistogram.Histogram;

import java.util.List;

/**
 * Everything a {@link LoadGenerator} counted up to one moment, since it started. The difference of two snapshots
 * is a {@link LoadResult} (so a JMH iteration, or a run's measured period, is the difference of the snapshots
 * at its two ends). Counters of the measured period count only requests whose intended start was in it; warm-up
 * requests are counted apart.
 *
 * @param atNanos  System.nanoTime() of the snapshot
 * @param counters the summed {@link LoopRecorder} counters
 * @param loops    each event loop's scheduler account (null entries where the kernel does not say)
 * @param process  the generator's JVM: CPU time and context switches
 * @param processSplit the generator's JVM: user and system CPU time
 * @param machine  the machine's CPU ticks, busy and idle
 */
public record LoadSnapshot(long atNanos, long[] counters, Histogram corrected, Histogram uncorrected,
                           Histogram scheduleLag, List<PerSecond> perSecond, List<ProcStat.SchedStat> loops,
                           ProcStat.Snapshot process, ProcStat.CpuSplit processSplit, ProcStat.MachineCpu machine,
                           int connectionsUp) {

    /**
     * This snapshot as the start of the measured period: the counters and histograms of measured requests are zero
     * there by definition (they count requests by their intended start, and none had started), whatever completed
     * between that instant and the moment this snapshot was actually taken; time-based figures (bytes read, CPU,
     * the machine) stay as read.
     */
    LoadSnapshot asMeasuredPeriodStart() {
        long[] c = counters.clone();
        c[LoopRecorder.SENT] = 0;
        c[LoopRecorder.COMPLETED] = 0;
        c[LoopRecorder.BYTES_WRITTEN] = 0;
        for (ErrorKind k : ErrorKind.values()) {
            c[LoopRecorder.ERRORS + k.ordinal()] = 0;
        }
        return new LoadSnapshot(atNanos, c, LoopRecorder.newHistogram(), LoopRecorder.newHistogram(),
                LoopRecorder.newHistogram(), List.of(), loops, process, processSplit, machine, connectionsUp);
    }

    /** Successful requests of the measured period. */
    public long completed() {
        return counters[LoopRecorder.COMPLETED];
    }

    public long sent() {
        return counters[LoopRecorder.SENT];
    }

    /** Requests that ended, successfully or not, in either period. */
    public long finished() {
        return counters[LoopRecorder.FINISHED];
    }

    public long warmupCompleted() {
        return counters[LoopRecorder.WARMUP_COMPLETED];
    }

    public long warmupErrors() {
        return counters[LoopRecorder.WARMUP_ERRORS];
    }

    public long bytesRead() {
        return counters[LoopRecorder.BYTES_READ];
    }

    public long bytesWritten() {
        return counters[LoopRecorder.BYTES_WRITTEN];
    }

    public long connectionsOpened() {
        return counters[LoopRecorder.CONNECTIONS_OPENED];
    }

    public long errors(ErrorKind kind) {
        return counters[LoopRecorder.ERRORS + kind.ordinal()];
    }

    /** Failed requests of the measured period, all kinds. */
    public long errors() {
        long n = 0;
        for (ErrorKind k : ErrorKind.values()) {
            n += errors(k);
        }
        return n;
    }
}
