package loopbench.load;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What one event loop of the generator measured. Only that loop's thread writes (no lock and no contended
 * atomic on the hot path: HdrHistogram's single-writer recorders and release stores of plain counters); the
 * generator's collector reads interval histograms and counters from any thread, as wrk2 and Hyperfoil do with
 * per-thread recorders merged by a reporter.
 */
final class LoopRecorder {
    /** Requests of the measured period sent (and their bytes, BYTES_WRITTEN). */
    static final int SENT = 0;
    /** Requests of the measured period that completed successfully (recorded in the histograms). */
    static final int COMPLETED = 1;
    static final int WARMUP_COMPLETED = 2;
    static final int WARMUP_ERRORS = 3;
    /** Bytes read, whatever the period (the time of the read decides). */
    static final int BYTES_READ = 4;
    static final int BYTES_WRITTEN = 5;
    /** Requests of either period that ended, successfully or not. */
    static final int FINISHED = 6;
    /** Connections opened (connects that succeeded), whatever the period (the time of the connect decides). */
    static final int CONNECTIONS_OPENED = 7;
    static final int ERRORS = 8;
    static final int SIZE = ERRORS + ErrorKind.values().length;

    private static final int DIGITS = 3;

    /** Latency from the intended start (corrected for coordinated omission), µs. */
    final SingleWriterRecorder corrected = new SingleWriterRecorder(DIGITS);
    /** Latency from the actual send, µs. */
    final SingleWriterRecorder uncorrected = new SingleWriterRecorder(DIGITS);
    /** Open loop: how late the generator woke up to send a request that was due, µs. */
    final SingleWriterRecorder scheduleLag = new SingleWriterRecorder(DIGITS);

    private final AtomicLongArray counters = new AtomicLongArray(SIZE);
    /** The loop's thread id, for its CPU time (set once, before any load). */
    volatile long threadId = -1;

    /** Loop thread only: adds to a counter with a release store (no read-modify-write atomics). */
    void add(int counter, long delta) {
        counters.lazySet(counter, counters.get(counter) + delta);
    }

    void error(ErrorKind kind, boolean measured) {
        add(measured ? ERRORS + kind.ordinal() : WARMUP_ERRORS, 1);
    }

    /** Any thread. */
    long get(int counter) {
        return counters.get(counter);
    }

    /** Records one successful request's latencies; loop thread only. */
    void record(long intendedNanos, long sentNanos, long doneNanos) {
        corrected.recordValue(Math.max(1, (doneNanos - intendedNanos) / 1000));
        uncorrected.recordValue(Math.max(1, (doneNanos - sentNanos) / 1000));
        add(COMPLETED, 1);
    }

    /** New histograms in the recorders' format, to collect into. */
    static Histogram newHistogram() {
        return new Histogram(DIGITS);
    }
}
