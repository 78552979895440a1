package loopbench.testing;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Waits until a counter (bytes a blocked writer got accepted, requests a backend served) stops moving, and returns
 * where it stopped. Used to check backpressure without asserting any timing: the test asserts only the value
 * reached, which is bounded if and only if something upstream stopped accepting. Stopping early (a scheduling
 * hiccup mistaken for a stall) can only make that value smaller; if the counter never stops, or the work finishes,
 * the caller's bound check fails.
 */
public final class Stall {
    private static final long POLL_MILLIS = 100;
    /** The counter must stay put this long to count as stalled. */
    private static final long QUIET_MILLIS = 1_000;
    private static final long MAX_WAIT_MILLIS = 60_000;

    private Stall() {
    }

    /** The counter's value once it has not moved for a while, or as soon as {@code done} completes. */
    public static long await(LongSupplier counter, Future<?> done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_WAIT_MILLIS);
        long last = counter.getAsLong();
        long quietSince = System.nanoTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(POLL_MILLIS);
            long now = counter.getAsLong();
            if (done != null && done.isDone()) {
                return counter.getAsLong();
            }
            if (now != last) {
                last = now;
                quietSince = System.nanoTime();
            } else if (System.nanoTime() - quietSince >= TimeUnit.MILLISECONDS.toNanos(QUIET_MILLIS)) {
                return now;
            }
        }
        return counter.getAsLong();
    }
}
