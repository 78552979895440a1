package loopbench.echo;

import org.apache.mina.core.filterchain.IoFilterAdapter;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.core.write.WriteRequest;

/**
 * Keeps a client that sends and does not read from making the echo server buffer without bound: a session stops
 * reading while more than {@code highWaterMark} bytes it read have not been written back yet, and reads again once at
 * most {@code lowWaterMark} have not. "Not written back" is Mina's own count, bytes read minus bytes written, so it
 * covers both Mina's write queue and events still waiting in an ExecutorFilter.
 *
 * <p>It must be the first filter of the chain, ahead of any ExecutorFilter, so that it runs on the session's I/O
 * processor thread: Mina's suspendRead/resumeRead update the selection key's interest set with an unguarded
 * read-modify-write, and called from an executor thread they race with the processor's own updates of the write
 * interest and can lose one of them (a session that neither reads nor writes again). On the processor thread, and
 * with both counts kept there, a suspended session always has bytes pending whose messageSent will resume it.
 */
final class MinaBackpressureFilter extends IoFilterAdapter {
    private final long highWaterMark;
    private final long lowWaterMark;

    MinaBackpressureFilter(long highWaterMark, long lowWaterMark) {
        this.highWaterMark = highWaterMark;
        this.lowWaterMark = lowWaterMark;
    }

    @Override
    public void messageReceived(NextFilter next, IoSession session, Object message) {
        next.messageReceived(session, message);
        if (!session.isReadSuspended() && unechoed(session) > highWaterMark) {
            session.suspendRead();
        }
    }

    @Override
    public void messageSent(NextFilter next, IoSession session, WriteRequest writeRequest) {
        if (session.isReadSuspended() && unechoed(session) <= lowWaterMark) {
            session.resumeRead();
        }
        next.messageSent(session, writeRequest);
    }

    private static long unechoed(IoSession session) {
        return session.getReadBytes() - session.getWrittenBytes();
    }
}
