package loopbench.embedded;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;

/**
 * One direction of an in-process connection: the bytes one {@link EmbeddedChannel} wrote, on their way to
 * another. It does what the kernel does between two sockets and no more:
 * <ul>
 *   <li>{@link #take} releases what the writer flushed, after moving its bytes onto the wire (the writer's
 *       buffers never reach the reader, as they never cross a real socket);</li>
 *   <li>{@link #deliver} makes the reader read them the way a NIO socket channel reads: each read gets a
 *       new buffer from the reader's allocator, sized by the reader's own {@link RecvByteBufAllocator}
 *       handle, one {@code channelRead} per buffer and a {@code channelReadComplete} per read loop.</li>
 * </ul>
 * Unlike a socket it does not wait for the reader to ask ({@code read()} with AUTO_READ off): every read
 * loop is started as long as bytes are waiting. Within one thread and with no flow control to speak of,
 * that changes when a handler sees the bytes, not what it sees.
 */
public final class Wire {
    private final ArrayDeque<ByteBuf> inFlight = new ArrayDeque<>();
    private long bytes;
    private int pending;

    /** All bytes ever taken onto this wire. */
    public long bytes() {
        return bytes;
    }

    /** Bytes taken and not delivered yet. */
    public int pending() {
        return pending;
    }

    /**
     * Moves everything {@code writer} has flushed onto the wire and releases the writer's messages.
     *
     * @return the number of bytes taken
     */
    public int take(EmbeddedChannel writer) {
        int taken = 0;
        Object msg;
        while ((msg = writer.readOutbound()) != null) {
            ByteBuf buf;
            if (msg instanceof ByteBuf) {
                buf = (ByteBuf) msg;
            } else if (msg instanceof ByteBufHolder) {
                buf = ((ByteBufHolder) msg).content().retain();
                ReferenceCountUtil.release(msg);
            } else {
                ReferenceCountUtil.release(msg);
                throw new IllegalStateException(writer + " wrote a " + msg.getClass().getName()
                        + ", not bytes, to its socket");
            }
            int n = buf.readableBytes();
            if (n == 0) {
                buf.release();
                continue;
            }
            inFlight.add(buf);
            taken += n;
        }
        bytes += taken;
        pending += taken;
        return taken;
    }

    /** Puts bytes the caller owns (e.g. a client's request) onto the wire; the wire releases them. */
    public void put(ByteBuf buf) {
        int n = buf.readableBytes();
        if (n == 0) {
            buf.release();
            return;
        }
        inFlight.add(buf);
        bytes += n;
        pending += n;
    }

    /**
     * Has {@code reader} read everything on the wire, as a socket would, then runs the reader's pending
     * tasks and rethrows anything its pipeline failed with. A closed reader gets nothing: the bytes are
     * dropped, as a reset connection drops them.
     *
     * @return the number of bytes delivered
     */
    @SuppressWarnings("deprecation") // RecvByteBufAllocator.Handle: what Channel.Unsafe hands out
    public int deliver(EmbeddedChannel reader) {
        if (pending == 0) {
            return 0;
        }
        if (!reader.isOpen()) {
            discard();
            return 0;
        }
        int delivered = 0;
        ChannelPipeline pipeline = reader.pipeline();
        RecvByteBufAllocator.Handle handle = reader.unsafe().recvBufAllocHandle();
        while (pending > 0 && reader.isOpen()) {
            handle.reset(reader.config());
            do {
                ByteBuf buf = handle.allocate(reader.alloc());
                handle.attemptedBytesRead(buf.writableBytes());
                int n = fill(buf);
                handle.lastBytesRead(n);
                handle.incMessagesRead(1);
                delivered += n;
                pipeline.fireChannelRead(buf);
            } while (pending > 0 && handle.continueReading());
            handle.readComplete();
            pipeline.fireChannelReadComplete();
            reader.runPendingTasks();
            reader.checkException();
        }
        if (pending > 0) {
            discard(); // the reader closed while reading
        }
        return delivered;
    }

    /** Copies as much as fits from the wire into {@code buf}, releasing what has been copied in full. */
    private int fill(ByteBuf buf) {
        int n = 0;
        while (buf.isWritable()) {
            ByteBuf head = inFlight.peek();
            if (head == null) {
                break;
            }
            int chunk = Math.min(buf.writableBytes(), head.readableBytes());
            // head.readBytes, not buf.writeBytes(head): a composite source (an encoded message's content) is
            // copied component by component, as a gathering write would send it, instead of being merged
            // into a temporary heap buffer first.
            head.readBytes(buf, chunk);
            n += chunk;
            if (!head.isReadable()) {
                inFlight.poll().release();
            }
        }
        pending -= n;
        return n;
    }

    /** Hands everything on the wire to {@code sink} (which may be null: the bytes are just counted) and releases it. */
    public int drainTo(ByteBuf sink) {
        int n = 0;
        ByteBuf head;
        while ((head = inFlight.poll()) != null) {
            int len = head.readableBytes();
            n += len;
            if (sink != null) {
                sink.ensureWritable(len);
                head.readBytes(sink, len);
            }
            head.release();
        }
        pending = 0;
        return n;
    }

    /** Releases whatever is still on the wire. */
    public void discard() {
        drainTo(null);
    }
}
