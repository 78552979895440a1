package loopbench.bench;

import loopbench.load.LoadGenerator;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * JMH's side of an end-to-end benchmark's operation: the {@code @Benchmark} method takes one completed request per
 * call ({@link #next}), so JMH's own count of calls over its own iteration time is the request rate. The load
 * generator tells this adapter of every success ({@link LoadGenerator.SuccessListener}); the benchmark thread parks
 * until the request it takes has completed, and the event loop that completes the awaited request wakes it: no
 * polling. It waits for a small batch at a time (about 1 ms of requests at the last iteration's rate, {@link #pace}),
 * so that the benchmark thread is woken about once a millisecond, not once per request.
 *
 * <p>One benchmark thread calls {@link #next}, {@link #startIteration} and {@link #pace}; the event loops call
 * {@link #succeeded}.
 */
final class CompletedRequests implements LoadGenerator.SuccessListener {
    /** How long to wait for a completed request before calling the target stalled. */
    static final Duration STALL_TIMEOUT = Duration.ofSeconds(60);
    /** The longest park between checks that the run has not ended. */
    private static final long PARK_NANOS = 100_000_000L;

    private final AtomicLong completed = new AtomicLong();
    // The benchmark thread while it waits, and the count that wakes it.
    private volatile Thread waiter;
    private volatile long wakeAt = Long.MAX_VALUE;

    // The benchmark thread's own: requests taken by the benchmark method, and requests known to be completed.
    private long taken;
    private long available;
    private long batch = 1;

    @Override
    public void succeeded() {
        long count = completed.incrementAndGet();
        if (count >= wakeAt) {
            wakeAt = Long.MAX_VALUE;
            LockSupport.unpark(waiter);
        }
    }

    /**
     * Takes the next completed request, waiting for it if none is left; returns its number. Throws if none
     * completes within {@link #STALL_TIMEOUT} ({@code diagnosis}: what the failure message adds) or the run ended.
     */
    long next(LoadGenerator generator, Supplier<String> diagnosis) {
        long next = ++taken;
        if (next <= available) {
            return next;
        }
        available = completed.get();
        if (next <= available) {
            return next;
        }
        if (!await(next + batch - 1, generator) && completed.get() < next) {
            throw new IllegalStateException(generator.hasEnded() ? "the load generator has ended"
                    : "no request completed within " + STALL_TIMEOUT.toSeconds() + " s; errors so far: "
                    + generator.errors() + diagnosis.get());
        }
        available = completed.get();
        return next;
    }

    /** An iteration starts: the requests that completed between iterations are not its own. */
    void startIteration() {
        available = completed.get();
        taken = available;
    }

    /** The last iteration's rate: the next waits are for about 1 ms of requests. */
    void pace(double requestsPerSecond) {
        batch = Math.max(1, Math.min(1000, Math.round(requestsPerSecond / 1000)));
    }

    /** Parks until {@code count} requests have completed, the run ends, or {@link #STALL_TIMEOUT} passes. */
    private boolean await(long count, LoadGenerator generator) {
        long deadline = System.nanoTime() + STALL_TIMEOUT.toNanos();
        waiter = Thread.currentThread();
        try {
            while (completed.get() < count) {
                wakeAt = count;
                if (completed.get() >= count) {
                    break;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || generator.hasEnded()) {
                    return completed.get() >= count;
                }
                LockSupport.parkNanos(this, Math.min(left, PARK_NANOS));
            }
            return true;
        } finally {
            wakeAt = Long.MAX_VALUE;
            waiter = null;
        }
    }
}
