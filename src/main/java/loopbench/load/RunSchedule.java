package loopbench.load;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * When a run's requests are due and whether each may go out: scheduling only, no I/O and no recording. It holds the
 * run's time bounds (a warm-up, then the measured period up to the deadline), an open loop's pacing (wrk2's model:
 * request k of connection i is due at {@code start + i * interval / connections + k * interval}), the
 * {@code --requests} bound, and the count of requests in flight, which says when sending is over and nothing is
 * left to wait for.
 *
 * <p>Every event loop admits requests here: three shared counters, the permits and the count in flight each touched
 * once per request (the count of open-loop schedules done once per connection).
 */
final class RunSchedule {
    private final long startNanos;
    private final long recordStartNanos;
    private final long deadlineNanos;
    private final int connections;
    /** Open loop: nanoseconds between one connection's requests; 0 in a closed loop. */
    private final long intervalNanos;
    private final boolean limited;
    private final AtomicLong permits;
    private final AtomicLong inFlight = new AtomicLong();
    /** Open loop: connections whose schedule has no request left before the deadline. */
    private final AtomicInteger schedulesDone = new AtomicInteger();

    RunSchedule(LoadSpec spec, long startNanos) {
        this.startNanos = startNanos;
        this.recordStartNanos = startNanos + spec.warmup().toNanos();
        this.deadlineNanos = recordStartNanos + spec.duration().toNanos();
        this.connections = spec.connections();
        this.intervalNanos = spec.openLoop() ? Math.max(1, Math.round(1e9 * connections / spec.rate())) : 0;
        this.limited = spec.requests() > 0;
        this.permits = new AtomicLong(spec.requests());
    }

    long startNanos() {
        return startNanos;
    }

    long recordStartNanos() {
        return recordStartNanos;
    }

    long deadlineNanos() {
        return deadlineNanos;
    }

    /** Open loop: nanoseconds between the requests of one connection; 0 in a closed loop. */
    long intervalNanos() {
        return intervalNanos;
    }

    /**
     * Open loop: when connection {@code i}'s first request is due. The connections' first requests are spread
     * evenly over one interval, so that the aggregate rate is smooth from the start.
     */
    long firstIntended(int i) {
        return startNanos + (intervalNanos == 0 ? 0 : intervalNanos * i / connections);
    }

    /** Whether a request intended to start at {@code nanos} belongs to the measured period (not the warm-up). */
    boolean isMeasuring(long nanos) {
        return nanos - recordStartNanos >= 0;
    }

    boolean isPastDeadline(long nanos) {
        return nanos - deadlineNanos >= 0;
    }

    /**
     * Whether a request intended to start at {@code intendedStart} may be sent (before the deadline, within
     * {@code --requests}); if so it counts as in flight until {@link #finished}.
     */
    boolean admit(long intendedStart) {
        if (isPastDeadline(intendedStart)) {
            return false;
        }
        if (limited && isMeasuring(intendedStart) && permits.getAndDecrement() <= 0) {
            return false;
        }
        inFlight.incrementAndGet();
        return true;
    }

    /** {@code n} admitted requests ended, well or not; true if none is in flight now. */
    boolean finished(int n) {
        return inFlight.addAndGet(-n) == 0;
    }

    /** An open-loop connection has no request left before the deadline. */
    void scheduleDone() {
        schedulesDone.incrementAndGet();
    }

    /** Nothing in flight and nothing more will be sent ({@code stopping}: the run sends nothing more anyway). */
    boolean isOver(boolean stopping) {
        return inFlight.get() == 0 && sendingOver(stopping);
    }

    private boolean sendingOver(boolean stopping) {
        if (stopping || (limited && permits.get() <= 0)) {
            return true;
        }
        // Open loop: every request intended before the deadline is sent, even late; closed loop: no new request
        // starts after the deadline.
        return intervalNanos > 0 ? schedulesDone.get() >= connections : isPastDeadline(System.nanoTime());
    }

    /** Whether requests are still in flight. */
    boolean hasInFlight() {
        return inFlight.get() != 0;
    }
}
