package loopbench.load;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import loopbench.server.ServerResources;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * loopbench's load generator: a Netty client that loads an HTTP/1.1 server or a TCP echo server over
 * {@code --connections} keep-alive connections (or with a new connection per request), in a closed loop or an open
 * loop at a fixed rate (wrk2's model, see {@link Connection}), with the same event-loop knobs as the servers
 * (transport, allocator, io threads).
 *
 * <p>This class wires a run together and is its public face; each concern lives in a room of its own:
 * {@link Dialer} opens channels and holds the request's bytes, {@link RunSchedule} decides when requests are due
 * and which may go out, {@link RunRecording} merges what the event loops recorded (the one lock), and
 * {@link RunLifecycle} starts, ends, drains and closes the run. The ticker's callbacks below are plain functions,
 * each doing one thing at its time: start measuring after the warm-up, close a second, report a warm-up second, end
 * at the deadline.
 *
 * <p>The run is bounded: it stops sending at the end of warm-up + duration (or once {@code --requests} measured
 * requests have been sent), waits at most the request timeout for the requests still in flight, and ends by itself;
 * {@link #close()} ends it at any time. No thread or channel outlives {@link #close()}.
 *
 * <p>It also watches itself: CPU time of its JVM, and how much of the time each of its event loops was running or
 * waiting for a CPU (from /proc schedstat). An event loop that was never idle means the generator, not the
 * target, set the pace: the result says it was saturated.
 */
public final class LoadGenerator implements AutoCloseable {
    /** How the generator reports progress while it runs: called from its ticker thread. */
    public interface Progress {
        /** A second of the measured period closed. */
        void second(PerSecond second);

        /** A second of the warm-up passed, with the warm-up requests completed so far. */
        default void warmup(int second, long completed) {
        }
    }

    /**
     * Told of every successful request (warm-up and measured), on the event loop that completed it: it must be quick
     * and must not block. For a caller that waits for completions (a JMH benchmark taking one request per call).
     */
    @FunctionalInterface
    public interface SuccessListener {
        SuccessListener NONE = () -> { };

        void succeeded();
    }

    private static final long SECOND = 1_000_000_000L;

    private final LoadSpec spec;
    private final Progress progress;
    private final ServerResources resources;
    private final ScheduledExecutorService ticker;
    private final RunSchedule schedule;
    private final RunRecording recording;
    private final RunLifecycle lifecycle;

    private LoadGenerator(LoadSpec spec, Progress progress, SuccessListener listener) {
        this.spec = spec;
        this.progress = progress;
        this.resources = new ServerResources("load");
        try {
            EventLoopGroup group = resources.newEventLoopGroup(spec.transport(), "io", spec.ioThreads());
            Dialer dialer = new Dialer(spec, resources);
            this.recording = new RunRecording(group);
            this.ticker = resources.registerExecutor(
                    Executors.newSingleThreadScheduledExecutor(resources.threadFactory("ticker")));
            this.schedule = new RunSchedule(spec, System.nanoTime());
            this.lifecycle = new RunLifecycle(schedule, resources);
            for (int i = 0; i < spec.connections(); i++) {
                EventLoop loop = group.next();
                lifecycle.add(new Connection(spec, dialer, schedule, lifecycle, listener, loop,
                        recording.recorder(loop), schedule.firstIntended(i)));
            }
        } catch (RuntimeException | Error e) {
            resources.close();
            throw e;
        }
    }

    /**
     * Starts a run: connects every connection and starts sending. Returns at once; {@link #awaitResult()} waits for
     * the run's end, {@link #close()} ends it.
     */
    public static LoadGenerator start(LoadSpec spec) {
        return start(spec, null);
    }

    public static LoadGenerator start(LoadSpec spec, Progress progress) {
        return start(spec, progress, SuccessListener.NONE);
    }

    public static LoadGenerator start(LoadSpec spec, Progress progress, SuccessListener listener) {
        LoadGenerator g = new LoadGenerator(spec, progress, listener);
        try {
            g.begin();
        } catch (RuntimeException | Error e) {
            g.close();
            throw e;
        }
        return g;
    }

    private void begin() {
        long untilRecord = schedule.recordStartNanos() - System.nanoTime();
        if (untilRecord <= 0) {
            startMeasuring();
        } else {
            at(schedule.recordStartNanos(), this::startMeasuring);
            for (int s = 1; s * SECOND < spec.warmup().toNanos(); s++) {
                int second = s;
                at(schedule.startNanos() + s * SECOND, () -> warmupSecond(second));
            }
        }
        at(schedule.deadlineNanos(), this::deadlineReached);
        lifecycle.start();
    }

    private void at(long nanos, Runnable callback) {
        ticker.schedule(callback, nanos - System.nanoTime(), TimeUnit.NANOSECONDS);
    }

    // ---- the ticker's callbacks ----

    private void startMeasuring() {
        recording.startMeasuring(schedule.recordStartNanos(), lifecycle.connectionsUp());
        long firstTick = schedule.recordStartNanos() + SECOND - System.nanoTime();
        ticker.scheduleAtFixedRate(this::secondClosed, firstTick, SECOND, TimeUnit.NANOSECONDS);
    }

    private void secondClosed() {
        if (lifecycle.hasEnded()) {
            return;
        }
        PerSecond s = recording.closeSecond(System.nanoTime());
        if (progress != null) {
            progress.second(s);
        }
    }

    private void warmupSecond(int second) {
        if (progress != null && !lifecycle.hasEnded()) {
            progress.warmup(second, recording.warmupCompleted());
        }
    }

    private void deadlineReached() {
        lifecycle.maybeEnd();
        if (!lifecycle.hasEnded()) {
            // Wait for the requests in flight (and, in an open loop, those still due), at most one request timeout;
            // the requests still in flight then count as timeouts.
            ticker.schedule(lifecycle::end, spec.timeout().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    // ---- the public face ----

    /** Connections open right now. */
    public int connectionsUp() {
        return lifecycle.connectionsUp();
    }

    /**
     * Waits until every connection is open, at most {@code timeout}; false if they are not (the target refuses,
     * or is too slow to accept).
     */
    public boolean awaitConnected(Duration timeout) throws InterruptedException {
        return lifecycle.awaitConnected(timeout);
    }

    /** Successful requests so far (warm-up and measured). */
    public long successes() {
        return recording.successes();
    }

    /** Failed requests and failed connects so far (warm-up and measured). */
    public long errors() {
        return recording.errors();
    }

    /** Whether the run has ended (by its bounds, or by {@link #close()}). */
    public boolean hasEnded() {
        return lifecycle.hasEnded();
    }

    /** Everything counted so far. */
    public LoadSnapshot snapshot() {
        return recording.snapshot(System.nanoTime(), lifecycle.connectionsUp());
    }

    /** The snapshot taken when the measured period began (after the warm-up); null before. */
    public LoadSnapshot recordStartSnapshot() {
        return recording.measuredStart();
    }

    /**
     * Waits until the run ends by its bounds, then returns its result (the measured period) and releases
     * everything ({@link #close()}).
     */
    public LoadResult awaitResult() throws InterruptedException {
        try {
            long endNanos = lifecycle.awaitEnd();
            // Requests still in flight after the drain wait count as timeouts; then every channel closes.
            lifecycle.stopConnections(!lifecycle.wasInterrupted());
            LoadSnapshot last = recording.finish(schedule.recordStartNanos(), endNanos, lifecycle.connectionsUp());
            return LoadResult.ofRun(spec, recording.measuredStart(), last, spec.warmup());
        } finally {
            close();
        }
    }

    /**
     * Stops sending and waits, at most {@code timeout}, until every request in flight has completed; then closes.
     * After a drain, every request the target answered was counted (nothing is dropped in flight). Returns whether
     * everything in flight completed.
     */
    public boolean drainAndClose(Duration timeout) throws InterruptedException {
        try {
            return lifecycle.drain(timeout);
        } finally {
            close();
        }
    }

    /**
     * Ends the run now, as if its bounds were reached ({@link #awaitResult()} then returns what was measured so far);
     * requests still in flight are dropped, not counted. For an interrupted run (Ctrl-C) that must keep its figures.
     */
    public void endNow() {
        lifecycle.endNow();
    }

    /** Whether the run was ended early by {@link #endNow()}. */
    public boolean wasInterrupted() {
        return lifecycle.wasInterrupted();
    }

    /** Ends the run at once (requests in flight are dropped uncounted), closes every channel, stops every thread. */
    @Override
    public void close() {
        lifecycle.close();
    }
}
