package loopbench.load;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.EventLoop;

import java.util.concurrent.TimeUnit;

/**
 * One of the generator's {@code --connections}: lives for the whole run on one event loop (every method runs on
 * that loop's thread, so nothing here is shared), and replaces its channel when the channel fails.
 *
 * <p>Requests are sent as in wrk2: in a closed loop, the next request goes out as soon as a response frees one of
 * the {@code --pipeline} slots; in an open loop, request k of this connection is due at its intended start time
 * {@code start + phase + k * interval}, and goes out then, or as soon as a slot is free if the target is late. Its
 * latency is recorded twice: from the intended start (corrected for coordinated omission: a stall delays every
 * request that was due during it) and from the actual send (what a closed-loop tool reports). No request is ever
 * skipped to catch up: the requests that were due during a stall are all sent afterwards.
 *
 * <p>With a connection per request ({@link LoadSpec#connectionClose()}, as ab without {@code -k}), this is one of
 * the concurrent clients: when its next request is due it takes it and connects, sends it once connected, reads the
 * whole response, closes, and starts again. The request's latency runs from the connect (or from its intended
 * start, which is earlier): the connect is part of what it cost.
 */
final class Connection {
    private final Dialer dialer;
    private final RunSchedule schedule;
    private final RunLifecycle lifecycle;
    private final LoadGenerator.SuccessListener onSuccess;
    private final EventLoop loop;
    private final LoopRecorder rec;
    private final int pipeline;
    /** Open loop: nanoseconds between this connection's requests; 0 in a closed loop. */
    private final long intervalNanos;
    private final long timeoutNanos;
    /** A new channel for every request. */
    private final boolean perRequest;

    /** In-flight requests, oldest first: a ring of {@code pipeline} slots. */
    private final long[] intended;
    private final long[] sent;
    private int head;
    private int inFlight;
    /** Open loop: the intended start of this connection's next request. */
    private long nextIntended;

    private Channel channel;
    private boolean active;
    /**
     * Counted in the run's connections up: with keep-alive while its channel is open; with a connection per request
     * from its first connect until the run stops it (its channels come and go with each request).
     */
    private boolean up;
    /** A read is being handled: requests written meanwhile are flushed once, when the read batch completes. */
    private boolean inRead;
    private boolean flushPending;
    private boolean wakePending;
    private boolean timeoutPending;
    /** Open loop: every request of this connection's schedule before the deadline has been sent. */
    private boolean scheduleDone;
    /** Failed connects and broken connections since the last successful response: the reconnect backs off. */
    private int failuresInARow;

    private final Runnable wake = this::onWake;
    private final Runnable timeoutCheck = this::onTimeoutCheck;
    private final Runnable reconnect = this::connect;

    Connection(LoadSpec spec, Dialer dialer, RunSchedule schedule, RunLifecycle lifecycle,
               LoadGenerator.SuccessListener onSuccess, EventLoop loop, LoopRecorder rec, long firstIntendedNanos) {
        this.dialer = dialer;
        this.schedule = schedule;
        this.lifecycle = lifecycle;
        this.onSuccess = onSuccess;
        this.loop = loop;
        this.rec = rec;
        this.pipeline = spec.pipeline();
        this.intervalNanos = schedule.intervalNanos();
        this.timeoutNanos = spec.timeout().toNanos();
        this.perRequest = spec.connectionClose();
        this.intended = new long[pipeline];
        this.sent = new long[pipeline];
        this.nextIntended = firstIntendedNanos;
    }

    EventLoop loop() {
        return loop;
    }

    int inFlight() {
        return inFlight;
    }

    /** Opens (or re-opens) the channel; with a connection per request, once the next request is taken. */
    void connect() {
        if (lifecycle.isStopping() || (perRequest && !take(System.nanoTime()))) {
            return;
        }
        ChannelFuture f = dialer.connect(loop, this);
        Channel ch = f.channel();
        f.addListener((ChannelFutureListener) done -> connected(ch, done));
    }

    private void connected(Channel ch, ChannelFuture f) {
        if (!f.isSuccess()) {
            if (perRequest) {
                failInFlight(ErrorKind.CONNECT); // the request taken for this connect
            } else {
                rec.error(ErrorKind.CONNECT, schedule.isMeasuring(System.nanoTime()));
                failuresInARow++; // a refused connect is a failure too: the next attempt backs off
            }
            scheduleReconnect();
            return;
        }
        if (lifecycle.isStopping()) {
            ch.close();
            if (perRequest) {
                dropUnsent(); // the request taken for this connect: a drain must not wait for it
            }
            return;
        }
        channel = ch;
        active = true;
        rec.add(LoopRecorder.CONNECTIONS_OPENED, 1);
        if (!up) {
            up = true;
            lifecycle.connectionUp();
        }
        if (perRequest) {
            channel.write(dialer.newRequest(), channel.voidPromise()); // the request taken for this connection
            written(1, schedule.isMeasuring(intended[head]) ? 1 : 0);
        } else {
            pump();
        }
    }

    /** Sends every request that is allowed now: a free slot, due (open loop), admitted by the run's bounds. */
    void pump() {
        if (!active) {
            return;
        }
        long now = System.nanoTime();
        int wrote = 0;
        int measured = 0;
        while (take(now)) {
            channel.write(dialer.newRequest(), channel.voidPromise());
            wrote++;
            if (schedule.isMeasuring(intended[(head + inFlight - 1) % pipeline])) {
                measured++;
            }
        }
        written(wrote, measured);
    }

    /**
     * Takes the next request if one may go out now: a free slot, due (in an open loop; if it is due later, a wake is
     * set for then), admitted by the run's bounds. It is in flight from {@code now} on.
     */
    private boolean take(long now) {
        if (inFlight == pipeline) {
            return false;
        }
        long start;
        if (intervalNanos > 0) {
            if (scheduleDone) {
                return false;
            }
            if (schedule.isPastDeadline(nextIntended)) {
                scheduleDone = true; // the rest of the schedule falls after the deadline
                schedule.scheduleDone();
                lifecycle.maybeEnd();
                return false;
            }
            if (nextIntended - now > 0) {
                scheduleWake(nextIntended - now);
                return false;
            }
            start = nextIntended;
        } else {
            start = now;
        }
        if (lifecycle.isStopping() || !schedule.admit(start)) {
            return false;
        }
        if (intervalNanos > 0) {
            nextIntended += intervalNanos;
        }
        int slot = (head + inFlight) % pipeline;
        intended[slot] = start;
        sent[slot] = now;
        inFlight++;
        return true;
    }

    /** {@code wrote} requests were written, {@code measured} of them intended in the measured period. */
    private void written(int wrote, int measured) {
        if (wrote == 0) {
            return;
        }
        if (measured > 0) { // like the completions, sends count in the period of their intended start
            rec.add(LoopRecorder.SENT, measured);
            rec.add(LoopRecorder.BYTES_WRITTEN, (long) measured * dialer.requestBytes());
        }
        if (inRead) {
            flushPending = true;
        } else {
            channel.flush();
        }
        scheduleTimeoutCheck();
    }

    void readStarted(int bytes) {
        inRead = true;
        rec.add(LoopRecorder.BYTES_READ, bytes);
    }

    void readComplete() {
        inRead = false;
        if (flushPending) {
            flushPending = false;
            if (active) {
                channel.flush();
            }
        }
    }

    /**
     * The oldest request's response is complete: {@code error} null when it succeeded, otherwise why it failed
     * (the connection is still in step, e.g. a non-2xx status). {@code close}: the peer said it closes the
     * connection after this response; it is replaced without counting an error (as it always is with a connection
     * per request).
     */
    void responseDone(ErrorKind error, boolean close) {
        if (inFlight == 0) {
            broken(ErrorKind.PROTOCOL); // a response nobody asked for
            return;
        }
        long now = System.nanoTime();
        long start = intended[head];
        long sentAt = sent[head];
        head = (head + 1) % pipeline;
        inFlight--;
        boolean measured = schedule.isMeasuring(start);
        if (error == null) {
            failuresInARow = 0;
            if (measured) {
                rec.record(start, sentAt, now);
            } else {
                rec.add(LoopRecorder.WARMUP_COMPLETED, 1);
            }
            onSuccess.succeeded();
        } else {
            rec.error(error, measured);
        }
        finished(1);
        if (close || perRequest) {
            replaceChannel();
        } else {
            pump();
        }
    }

    /** The connection cannot be used any more: its in-flight requests fail with {@code kind}; a new one is made. */
    void broken(ErrorKind kind) {
        failInFlight(kind);
        replaceChannel();
    }

    /** The channel closed (peer close, reset, or our own close); {@code midResponse}: part of a response had come. */
    void inactive(Channel ch, boolean midResponse) {
        if (ch != channel) {
            return; // a channel this connection already let go
        }
        active = false;
        channel = null;
        if (!perRequest) {
            down();
        }
        if (inFlight > 0) {
            failInFlight(midResponse ? ErrorKind.SHORT : ErrorKind.CLOSED);
        }
        scheduleReconnect();
    }

    /** The run is over: close without counting anything (requests still in flight were counted by the run). */
    void stop() {
        release();
        down();
    }

    /** Drops the requests still in flight at the end of the run as timeouts (the run waited for them). */
    int abandon() {
        int n = inFlight;
        if (n > 0) {
            failInFlight(ErrorKind.TIMEOUT);
        }
        return n;
    }

    /** The request taken for a connect that completed once the run was stopping: never sent, so not counted. */
    private void dropUnsent() {
        inFlight = 0;
        head = 0;
        if (schedule.finished(1)) {
            lifecycle.maybeEnd();
        }
    }

    private void failInFlight(ErrorKind kind) {
        int n = inFlight;
        if (n == 0) {
            return;
        }
        for (int i = 0; i < n; i++) {
            rec.error(kind, schedule.isMeasuring(intended[(head + i) % pipeline]));
        }
        head = 0;
        inFlight = 0;
        failuresInARow++;
        finished(n);
    }

    /** {@code n} requests ended: once nothing is in flight, the run may be over. */
    private void finished(int n) {
        rec.add(LoopRecorder.FINISHED, n);
        if (schedule.finished(n)) {
            lifecycle.maybeEnd();
        }
    }

    /** Lets the channel go, closing it, without counting anything; a read under way was the old channel's. */
    private void release() {
        Channel ch = channel;
        if (ch != null) {
            active = false;
            channel = null;
            inRead = false;
            flushPending = false;
            ch.close();
        }
    }

    private void down() {
        if (up) {
            up = false;
            lifecycle.connectionDown();
        }
    }

    private void replaceChannel() {
        release();
        if (!perRequest) {
            down();
        }
        scheduleReconnect();
    }

    private void scheduleReconnect() {
        if (lifecycle.isStopping()) {
            return;
        }
        if (failuresInARow == 0) {
            loop.execute(reconnect); // a clean close (Connection: close, idle timeout): reconnect at once
        } else {
            loop.schedule(reconnect, reconnectDelayMillis(failuresInARow), TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Back off while the target keeps failing, so that a dead target is not hammered with connects (each one
     * counted as an error) for the rest of the run: 10 ms after the first failure, doubling, at most 1 s.
     */
    static long reconnectDelayMillis(int failuresInARow) {
        return Math.min(1000, 10L << Math.min(failuresInARow - 1, 7));
    }

    private void scheduleWake(long delayNanos) {
        if (!wakePending) {
            wakePending = true;
            loop.schedule(wake, delayNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void onWake() {
        wakePending = false;
        if (!active && !perRequest) {
            return;
        }
        long lateNanos = System.nanoTime() - nextIntended;
        if (lateNanos >= 0 && inFlight < pipeline && schedule.isMeasuring(nextIntended)) {
            rec.scheduleLag.recordValue(Math.max(1, lateNanos / 1000));
        }
        if (perRequest) {
            connect();
        } else {
            pump();
        }
    }

    private void scheduleTimeoutCheck() {
        if (!timeoutPending && inFlight > 0) {
            timeoutPending = true;
            loop.schedule(timeoutCheck, timeoutNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void onTimeoutCheck() {
        timeoutPending = false;
        if (inFlight == 0 || !active) {
            return;
        }
        long age = System.nanoTime() - sent[head];
        if (age >= timeoutNanos) {
            broken(ErrorKind.TIMEOUT);
        } else {
            timeoutPending = true;
            loop.schedule(timeoutCheck, timeoutNanos - age, TimeUnit.NANOSECONDS);
        }
    }
}
