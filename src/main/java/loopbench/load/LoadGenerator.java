package loopbench.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import loopbench.metrics.ProcStat;
import loopbench.server.ServerResources;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * loopbench's load generator: a Netty client that loads an HTTP/1.1 server or a TCP echo server over
 * {@code --connections} keep-alive connections, in a closed loop or an open loop at a fixed rate (wrk2's model,
 * see {@link Connection}), with the same event-loop knobs as the servers (transport, allocator, io threads).
 *
 * <p>Each event loop records into its own {@link LoopRecorder} (HdrHistogram single-writer recorders, no lock on
 * the hot path); a ticker thread merges them once a second into the per-second series, and on demand into a
 * {@link LoadSnapshot}. The run is bounded: it stops sending at the end of warm-up + duration (or once
 * {@code --requests} measured requests have been sent), waits at most the request timeout for the requests still
 * in flight, and ends by itself; {@link #close()} ends it at any time. No thread or channel outlives
 * {@link #close()}.
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

    private final LoadSpec spec;
    private final Progress progress;
    private final ServerResources resources;
    private final Bootstrap bootstrap;
    private final ByteBuf request;
    private final int requestBytes;
    private final Map<EventExecutor, LoopRecorder> recorders = new IdentityHashMap<>();
    private final List<LoopRecorder> recorderList = new ArrayList<>();
    private final List<Connection> connections = new ArrayList<>();
    private final ScheduledExecutorService ticker;

    private final long startNanos;
    private final long recordStartNanos;
    private final long deadlineNanos;
    private final boolean limited;
    private final AtomicLong permits;
    private final AtomicLong outstanding = new AtomicLong();
    /** Open loop: connections whose schedule has no request left before the deadline. */
    private final AtomicInteger scheduleDone = new AtomicInteger();
    private final AtomicLong successes = new AtomicLong();
    private final AtomicInteger connectionsUp = new AtomicInteger();
    private volatile boolean stopping;
    private volatile boolean interrupted;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final CountDownLatch endedLatch = new CountDownLatch(1);
    private volatile long endNanos;
    private final AtomicBoolean closed = new AtomicBoolean();

    // A thread waiting in awaitSuccesses(), and the count that wakes it.
    private volatile Thread waiter;
    private volatile long wakeAt = Long.MAX_VALUE;

    // Merged recordings; guarded by this.
    private final Histogram corrected = LoopRecorder.newHistogram();
    private final Histogram uncorrected = LoopRecorder.newHistogram();
    private final Histogram scheduleLag = LoopRecorder.newHistogram();
    private final Histogram secondCorrected = LoopRecorder.newHistogram();
    private final Histogram scratch = LoopRecorder.newHistogram();
    private final List<PerSecond> perSecond = new ArrayList<>();
    private long[] secondStartCounters;
    private long secondStartNanos;
    private LoadSnapshot recordStartSnapshot;

    private LoadGenerator(LoadSpec spec, Progress progress) {
        this.spec = spec;
        this.progress = progress;
        this.resources = new ServerResources("load");
        try {
            EventLoopGroup group = resources.newEventLoopGroup(spec.transport(), "io", spec.ioThreads());
            byte[] bytes = spec.target().protocol() == Target.Protocol.HTTP ? HttpRequests.encode(spec)
                    : Payload.bytes(spec.messageSize());
            ByteBuf shared = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
            resources.register(shared::release);
            // Every request is a duplicate of one read-only buffer: nothing is encoded or copied per request.
            this.request = Unpooled.unreleasableBuffer(shared.asReadOnly());
            this.requestBytes = bytes.length;
            this.bootstrap = new Bootstrap()
                    .channel(spec.transport().socketChannelClass())
                    .option(ChannelOption.ALLOCATOR, spec.allocator().instance(spec.buffers()))
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(spec.timeout().toMillis(), 30_000))
                    .remoteAddress(spec.target().address());
            for (EventExecutor loop : group) {
                LoopRecorder rec = new LoopRecorder();
                recorders.put(loop, rec);
                recorderList.add(rec);
                // The loop's kernel thread id, for its scheduler account; also starts the thread before any load.
                loop.submit(() -> rec.threadId = ProcStat.currentTid()).syncUninterruptibly();
            }
            this.ticker = resources.registerExecutor(Executors.newSingleThreadScheduledExecutor(resources.threadFactory("ticker")));

            this.startNanos = System.nanoTime();
            this.recordStartNanos = startNanos + spec.warmup().toNanos();
            this.deadlineNanos = recordStartNanos + spec.duration().toNanos();
            this.limited = spec.requests() > 0;
            this.permits = new AtomicLong(spec.requests());
            long interval = spec.openLoop() ? Math.max(1, Math.round(1e9 * spec.connections() / spec.rate())) : 0;
            for (int i = 0; i < spec.connections(); i++) {
                EventLoop loop = group.next();
                // Open loop: spread the connections' first requests evenly over one interval, so that the
                // aggregate rate is smooth from the start.
                long first = startNanos + (interval == 0 ? 0 : interval * i / spec.connections());
                connections.add(new Connection(this, loop, recorders.get(loop), first, interval));
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
        LoadGenerator g = new LoadGenerator(spec, progress);
        try {
            g.begin();
        } catch (RuntimeException | Error e) {
            g.close();
            throw e;
        }
        return g;
    }

    private void begin() {
        long untilRecord = recordStartNanos - System.nanoTime();
        if (untilRecord <= 0) {
            markRecordStart();
        } else {
            ticker.schedule(this::markRecordStart, untilRecord, TimeUnit.NANOSECONDS);
            for (int s = 1; s * 1_000_000_000L < spec.warmup().toNanos(); s++) {
                int second = s;
                ticker.schedule(() -> warmupTick(second), startNanos + s * 1_000_000_000L - System.nanoTime(),
                        TimeUnit.NANOSECONDS);
            }
        }
        ticker.schedule(this::deadlineReached, deadlineNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        for (Connection c : connections) {
            c.loop().execute(c::connect);
        }
    }

    private synchronized void markRecordStart() {
        recordStartSnapshot = snapshotAt(recordStartNanos).asMeasuredPeriodStart();
        secondStartCounters = recordStartSnapshot.counters();
        secondStartNanos = recordStartNanos;
        long firstTick = recordStartNanos + 1_000_000_000L - System.nanoTime();
        ticker.scheduleAtFixedRate(this::secondTick, firstTick, 1_000_000_000L, TimeUnit.NANOSECONDS);
    }

    private void warmupTick(int second) {
        if (progress != null && !ended.get()) {
            long done = 0;
            for (LoopRecorder r : recorderList) {
                done += r.get(LoopRecorder.WARMUP_COMPLETED);
            }
            progress.warmup(second, done);
        }
    }

    private void secondTick() {
        if (ended.get()) {
            return;
        }
        PerSecond s;
        synchronized (this) {
            s = closeSecond(System.nanoTime());
        }
        if (progress != null) {
            progress.second(s);
        }
    }

    /** Closes the current second of the series at {@code atNanos}; guarded by this. */
    private PerSecond closeSecond(long atNanos) {
        collect();
        long[] now = counters();
        long errors = errorsSince(secondStartCounters, now);
        PerSecond s = new PerSecond(perSecond.size() + 1, (atNanos - secondStartNanos) / 1e9,
                secondCorrected.getTotalCount(), errors,
                micros(secondCorrected, 50), micros(secondCorrected, 99), secondCorrected.getMaxValue());
        perSecond.add(s);
        secondCorrected.reset();
        secondStartCounters = now;
        secondStartNanos = atNanos;
        return s;
    }

    private long errorsSince(long[] start) {
        return errorsSince(start, counters());
    }

    private static long errorsSince(long[] start, long[] now) {
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

    private void deadlineReached() {
        maybeEnd();
        if (!ended.get()) {
            // Wait for the requests in flight (and, in an open loop, those still due), at most one request timeout;
            // the requests still in flight then count as timeouts.
            ticker.schedule(this::end, spec.timeout().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private void end() {
        if (ended.compareAndSet(false, true)) {
            endNanos = System.nanoTime();
            endedLatch.countDown();
        }
    }

    // ---- called by the connections, on their event loops ----

    LoadSpec spec() {
        return spec;
    }

    boolean isStopping() {
        return stopping;
    }

    boolean isMeasuring(long nanos) {
        return nanos - recordStartNanos >= 0;
    }

    int requestBytes() {
        return requestBytes;
    }

    ByteBuf newRequest() {
        return request.duplicate();
    }

    ChannelFuture connect(EventLoop loop, ChannelHandler handler) {
        ChannelFuture f = bootstrap.clone(loop).handler(handler).connect();
        resources.track(f.channel());
        return f;
    }

    ChannelHandler protocolHandler(Connection c) {
        return spec.target().protocol() == Target.Protocol.HTTP ? new HttpResponseFramer(c)
                : new EchoResponseChecker(c, request);
    }

    boolean isPastDeadline(long nanos) {
        return nanos - deadlineNanos >= 0;
    }

    /**
     * An open-loop connection has sent its whole schedule (its next request would start after the deadline): once
     * every connection has, and nothing is in flight, the run is over.
     */
    void scheduleDone() {
        scheduleDone.incrementAndGet();
        maybeEnd();
    }

    /** Whether a request intended to start at {@code intendedStart} may be sent (the run's bounds). */
    boolean admit(long intendedStart) {
        if (stopping || ended.get()) {
            return false;
        }
        if (isPastDeadline(intendedStart)) {
            return false;
        }
        if (limited && isMeasuring(intendedStart) && permits.getAndDecrement() <= 0) {
            return false;
        }
        outstanding.incrementAndGet();
        return true;
    }

    /** {@code n} requests ended; {@code success}: one request, successful. */
    void finished(int n, boolean success) {
        if (success) {
            long count = successes.incrementAndGet();
            if (count >= wakeAt) {
                wakeAt = Long.MAX_VALUE;
                LockSupport.unpark(waiter);
            }
        }
        if (outstanding.addAndGet(-n) == 0) {
            maybeEnd();
        }
    }

    /** Ends the run if nothing is in flight and nothing more will be sent. */
    private void maybeEnd() {
        if (outstanding.get() == 0 && sendingOver()) {
            end();
        }
    }

    private boolean sendingOver() {
        if (stopping || (limited && permits.get() <= 0)) {
            return true;
        }
        // Open loop: every request intended before the deadline is sent, even late; closed loop: no new request
        // starts after the deadline.
        return spec.openLoop() ? scheduleDone.get() >= spec.connections() : System.nanoTime() - deadlineNanos >= 0;
    }

    void connectionUp() {
        connectionsUp.incrementAndGet();
    }

    void connectionDown() {
        connectionsUp.decrementAndGet();
    }

    // ---- the public face ----

    /** Connections open right now. */
    public int connectionsUp() {
        return connectionsUp.get();
    }

    /**
     * Waits until every connection is open, at most {@code timeout}; false if they are not (the target refuses,
     * or is too slow to accept).
     */
    public boolean awaitConnected(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (connectionsUp.get() < spec.connections()) {
            if (System.nanoTime() - deadline >= 0 || ended.get()) {
                return false;
            }
            Thread.sleep(10);
        }
        return true;
    }

    /** Successful requests so far (warm-up and measured). */
    public long successes() {
        return successes.get();
    }

    /** Failed requests and failed connects so far (warm-up and measured). */
    public long errors() {
        long n = 0;
        for (LoopRecorder r : recorderList) {
            n += r.get(LoopRecorder.WARMUP_ERRORS);
            for (ErrorKind k : ErrorKind.values()) {
                n += r.get(LoopRecorder.ERRORS + k.ordinal());
            }
        }
        return n;
    }

    /**
     * Parks the calling thread until {@link #successes()} reaches {@code count}, the run ends, or the timeout
     * passes; returns whether the count was reached. One thread at a time. The event loop that completes the
     * awaited request wakes the thread: no polling.
     */
    public boolean awaitSuccesses(long count, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        waiter = Thread.currentThread();
        try {
            while (successes.get() < count) {
                wakeAt = count;
                if (successes.get() >= count) {
                    break;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || ended.get()) {
                    return successes.get() >= count;
                }
                LockSupport.parkNanos(this, Math.min(left, 100_000_000L));
            }
            return true;
        } finally {
            wakeAt = Long.MAX_VALUE;
            waiter = null;
        }
    }

    /** Whether the run has ended (by its bounds, or by {@link #close()}). */
    public boolean hasEnded() {
        return ended.get();
    }

    /** Everything counted so far. */
    public synchronized LoadSnapshot snapshot() {
        return snapshotAt(System.nanoTime());
    }

    /** The snapshot taken when the measured period began (after the warm-up); null before. */
    public synchronized LoadSnapshot recordStartSnapshot() {
        return recordStartSnapshot;
    }

    private LoadSnapshot snapshotAt(long atNanos) {
        collect();
        List<ProcStat.SchedStat> loops = new ArrayList<>();
        for (LoopRecorder r : recorderList) {
            loops.add(r.threadId > 0 ? ProcStat.schedStat(r.threadId) : null);
        }
        return new LoadSnapshot(atNanos, counters(), corrected.copy(), uncorrected.copy(), scheduleLag.copy(),
                List.copyOf(perSecond), loops, ProcStat.self(), ProcStat.cpuSplit(ProcessHandle.current().pid()),
                ProcStat.machine(), connectionsUp.get());
    }

    /** Moves what the loops recorded since the last call into the merged histograms; guarded by this. */
    private void collect() {
        for (LoopRecorder r : recorderList) {
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
        for (LoopRecorder r : recorderList) {
            for (int i = 0; i < sum.length; i++) {
                sum[i] += r.get(i);
            }
        }
        return sum;
    }

    /**
     * Waits until the run ends by its bounds, then returns its result (the measured period) and releases
     * everything ({@link #close()}).
     */
    public LoadResult awaitResult() throws InterruptedException {
        try {
            endedLatch.await();
            stopping = true;
            // Requests still in flight after the drain wait count as timeouts; then every channel closes.
            onEveryConnection(c -> {
                if (!interrupted) {
                    c.abandon();
                }
                c.stop();
            });
            LoadSnapshot last;
            synchronized (this) {
                if (recordStartSnapshot == null) { // ended during the warm-up (e.g. --requests reached): empty period
                    markRecordStartNow();
                }
                // The last, partial second (the ticker may already have closed one that ends a little later).
                // A sliver under 1 ms is dropped only when nothing completed in it: the series must sum to the run.
                long partial = endNanos - secondStartNanos;
                collect();
                boolean pending = secondCorrected.getTotalCount() > 0 || errorsSince(secondStartCounters) > 0;
                if (partial > 1_000_000 || pending || (partial > 0 && perSecond.isEmpty())) {
                    closeSecond(endNanos);
                }
                last = snapshotAt(endNanos);
            }
            return LoadResult.ofRun(spec, recordStartSnapshot, last, spec.warmup());
        } finally {
            close();
        }
    }

    private void markRecordStartNow() {
        recordStartSnapshot = snapshotAt(Math.min(recordStartNanos, endNanos)).asMeasuredPeriodStart();
        secondStartCounters = recordStartSnapshot.counters();
        secondStartNanos = recordStartSnapshot.atNanos();
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

    /**
     * Stops sending and waits, at most {@code timeout}, until every request in flight has completed; then closes.
     * After a drain, every request the target answered was counted (nothing is dropped in flight). Returns whether
     * everything in flight completed.
     */
    public boolean drainAndClose(Duration timeout) throws InterruptedException {
        try {
            stopping = true;
            maybeEnd();
            return endedLatch.await(timeout.toNanos(), TimeUnit.NANOSECONDS) && outstanding.get() == 0;
        } finally {
            close();
        }
    }

    /**
     * Ends the run now, as if its bounds were reached ({@link #awaitResult()} then returns what was measured so far);
     * requests still in flight are dropped, not counted. For an interrupted run (Ctrl-C) that must keep its figures.
     */
    public void endNow() {
        interrupted = true;
        stopping = true;
        end();
    }

    /** Whether the run was ended early by {@link #endNow()}. */
    public boolean wasInterrupted() {
        return interrupted;
    }

    /** Ends the run at once (requests in flight are dropped uncounted), closes every channel, stops every thread. */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stopping = true;
        end();
        try {
            onEveryConnection(Connection::stop);
        } finally {
            resources.close();
        }
    }
}
