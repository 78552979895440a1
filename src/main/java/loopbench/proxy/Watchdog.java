package loopbench.proxy;

import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.TimeUnit;

/**
 * The proxy's timeouts without a timer per request: one periodic task per client connection, on that connection's
 * event loop, looks every tick at where the connection stands. A wait that has made no progress for its limit expires.
 * Nothing is scheduled, cancelled or timestamped on the path a request or a read takes: what changes there is a phase
 * or a counter, which the watchdog compares with what it saw a tick before. (Netty's IdleStateHandler is lazy the same
 * way, but takes a timestamp per read and needs a handler of its own in the pipeline.)
 *
 * <p>Precision: a wait expires between its limit and its limit plus one tick after it last made progress, never
 * earlier. A tick is a tenth of the shortest limit the connection has (at least a millisecond): with nginx's 60 s, a
 * timeout fires after 60 to 66 s. Time is counted in ticks run, the loop's own schedule, not read from a clock: a
 * fixed-rate task late by a pause runs its missed ticks back to back, so the count keeps up with a real loop's time,
 * and on a loop whose clock its owner moves (the in-process benchmarks' embedded channels) it keeps up with that.
 */
final class Watchdog implements Runnable {
    static final int TICKS_PER_LIMIT = 10;
    private static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    /** What a watchdog watches; called on the connection's event loop, once per tick, in this order. */
    interface Watched {
        /** Whether the current wait made progress since the last call, or another wait began. */
        boolean progressed();

        /** The current wait's limit in nanoseconds; 0: none for now (the time spent so does not count). */
        long limitNanos();

        /** The current wait has reached its limit without progress. */
        void expired();
    }

    private final Watched watched;
    private final long tickNanos;
    /** Ticks run so far: the loop's time since the start, in ticks. */
    private long ticks;
    private long quietSince;
    private ScheduledFuture<?> task;

    private Watchdog(Watched watched, long tickNanos) {
        this.watched = watched;
        this.tickNanos = tickNanos;
    }

    /**
     * Starts watching on {@code loop} (the connection's, from that loop), or returns null if {@code shortestLimitNanos}
     * is 0 (every timeout off: nothing to watch).
     */
    static Watchdog start(EventLoop loop, Watched watched, long shortestLimitNanos) {
        if (shortestLimitNanos <= 0) {
            return null;
        }
        long tick = Math.max(MIN_TICK_NANOS, shortestLimitNanos / TICKS_PER_LIMIT);
        Watchdog w = new Watchdog(watched, tick);
        w.task = loop.scheduleAtFixedRate(w, tick, tick, TimeUnit.NANOSECONDS);
        return w;
    }

    /** The shortest of the limits that are on (non-zero), or 0 if none is. */
    static long shortest(long... limitsNanos) {
        long min = 0;
        for (long l : limitsNanos) {
            if (l > 0 && (min == 0 || l < min)) {
                min = l;
            }
        }
        return min;
    }

    /** Stops watching (the connection closed). */
    void stop() {
        task.cancel(false);
    }

    @Override
    public void run() {
        long now = ++ticks;
        boolean progressed = watched.progressed();
        long limit = watched.limitNanos();
        if (progressed || limit == 0) {
            quietSince = now;
        } else if ((now - quietSince) * tickNanos >= limit) {
            quietSince = now; // if the connection stays where it is, the next expiry is a whole limit away
            watched.expired();
        }
    }
}
