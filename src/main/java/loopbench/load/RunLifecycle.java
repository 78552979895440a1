package loopbench.load;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import loopbench.server.ServerResources;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A run's life: its connections started, counted while open, stopped; and its phase. The run ends once, whoever
 * gets there first (the last response after the bounds, the deadline's timer, a drain, Ctrl-C, {@link #close()}):
 * every transition is one compare-and-set of the phase. Once it is no longer {@link Phase#RUNNING} nothing new is
 * sent and no connection is re-opened. {@link #close()} releases everything the run holds: no thread or channel
 * outlives it.
 */
final class RunLifecycle {
    enum Phase {
        /** Sending, within the schedule's bounds. */
        RUNNING,
        /** Sending nothing more; waiting for the requests in flight. */
        DRAINING,
        /** Over: what it measured is final (its end time is set). */
        ENDED,
        /** Every channel closed, every thread stopped. */
        CLOSED
    }

    private final RunSchedule schedule;
    private final ServerResources resources;
    private final List<Connection> connections = new ArrayList<>();
    private final AtomicReference<Phase> phase = new AtomicReference<>(Phase.RUNNING);
    private final AtomicInteger connectionsUp = new AtomicInteger();
    private final CountDownLatch ended = new CountDownLatch(1);
    /** Written before {@link #ended} opens, read after. */
    private long endNanos;
    private volatile boolean interrupted;

    RunLifecycle(RunSchedule schedule, ServerResources resources) {
        this.schedule = schedule;
        this.resources = resources;
    }

    /** Before {@link #start()} only. */
    void add(Connection c) {
        connections.add(c);
    }

    int connections() {
        return connections.size();
    }

    /** Opens every connection, each on its own event loop; they start sending as soon as they are open. */
    void start() {
        for (Connection c : connections) {
            c.loop().execute(c::connect);
        }
    }

    // ---- connected ----

    void connectionUp() {
        connectionsUp.incrementAndGet();
    }

    void connectionDown() {
        connectionsUp.decrementAndGet();
    }

    int connectionsUp() {
        return connectionsUp.get();
    }

    /** Waits until every connection is open, at most {@code timeout}; false if they are not, or the run ended. */
    boolean awaitConnected(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (connectionsUp.get() < connections.size()) {
            if (System.nanoTime() - deadline >= 0 || hasEnded()) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    // ---- end ----

    /** Nothing new is sent and no connection re-opened: the run drains, has ended, or is closed. */
    boolean isStopping() {
        return phase.get() != Phase.RUNNING;
    }

    boolean hasEnded() {
        Phase p = phase.get();
        return p == Phase.ENDED || p == Phase.CLOSED;
    }

    /** Ends the run if nothing is in flight and nothing more will be sent. */
    void maybeEnd() {
        if (schedule.isOver(isStopping())) {
            end();
        }
    }

    /** Ends the run now (requests still in flight stay in flight until {@link #stopConnections}). */
    void end() {
        for (Phase p = phase.get(); p == Phase.RUNNING || p == Phase.DRAINING; p = phase.get()) {
            if (phase.compareAndSet(p, Phase.ENDED)) {
                endedAt(System.nanoTime());
                return;
            }
        }
    }

    private void endedAt(long nanos) {
        endNanos = nanos;
        ended.countDown();
    }

    /** Ends the run now, as interrupted: the requests in flight are dropped, not counted (Ctrl-C). */
    void endNow() {
        interrupted = true;
        end();
    }

    boolean wasInterrupted() {
        return interrupted;
    }

    /** Waits for the end; returns its time. */
    long awaitEnd() throws InterruptedException {
        ended.await();
        return endNanos;
    }

    // ---- drain ----

    /**
     * Sends nothing more and waits, at most {@code timeout}, until the requests in flight have completed; returns
     * whether they all did.
     */
    boolean drain(Duration timeout) throws InterruptedException {
        phase.compareAndSet(Phase.RUNNING, Phase.DRAINING);
        maybeEnd();
        return ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS) && !schedule.hasInFlight();
    }

    /**
     * Closes every connection, each on its own loop; {@code abandon}: the requests still in flight count as
     * timeouts (the run waited for them), otherwise they are dropped uncounted.
     */
    void stopConnections(boolean abandon) {
        onEveryConnection(c -> {
            if (abandon) {
                c.abandon();
            }
            c.stop();
        });
    }

    // ---- close ----

    /** Ends the run at once (requests in flight are dropped uncounted), closes every channel, stops every thread. */
    void close() {
        Phase before = phase.getAndSet(Phase.CLOSED);
        if (before == Phase.CLOSED) {
            return;
        }
        if (before != Phase.ENDED) {
            endedAt(System.nanoTime());
        }
        try {
            onEveryConnection(Connection::stop);
        } finally {
            resources.close();
        }
    }

    private void onEveryConnection(Consumer<Connection> action) {
        List<Future<?>> done = new ArrayList<>();
        Map<EventExecutor, List<Connection>> byLoop = new IdentityHashMap<>();
        for (Connection c : connections) {
            byLoop.computeIfAbsent(c.loop(), l -> new ArrayList<>()).add(c);
        }
        byLoop.forEach((loop, list) -> {
            if (!loop.isShuttingDown()) {
                done.add(loop.submit(() -> list.forEach(action)));
            }
        });
        for (Future<?> f : done) {
            f.awaitUninterruptibly(10, TimeUnit.SECONDS);
        }
    }
}
