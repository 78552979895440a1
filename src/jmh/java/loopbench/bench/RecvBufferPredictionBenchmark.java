package loopbench.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelConfig;
import io.netty.channel.MaxMessagesRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.RecvAllocator;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Which receive-buffer predictor reads a stream of equal messages best? (claim C003-2)
 *
 * <p>the C003 article blamed Mina's double/halve read-buffer predictor for jitter at 5k messages, and credited
 * Netty's adaptive predictor (grow fast, shrink slowly) with avoiding it. Here the predictors themselves
 * ({@link RecvAllocator#create()}: {@code adaptive}, {@code fixed:2048}, and {@code halving}, Mina's rule
 * as a Netty allocator) drive a simulated socket the way a NIO channel's read loop drives them: per read
 * event, {@code reset}, then {@code allocate} / {@code attemptedBytesRead} / {@code lastBytesRead} /
 * {@code incMessagesRead} while {@code continueReading()}, then {@code readComplete}. A read returns
 * min(the buffer's writable bytes, the bytes waiting); a read that finds nothing waiting returns 0 (its
 * buffer is released unused, as NIO does). Each buffer is filled with the message's bytes, then released
 * (the reader consumed it). One op is one message of {@code messageSize} bytes; the handle carries its
 * prediction from message to message, as a channel's does.
 *
 * <p>{@code arrival}: {@code whole} - the whole message is waiting when the read event comes (loopback, or
 * a reader slower than the sender); {@code mss1448} - the reader keeps up with a 1 GbE link, so each read
 * event finds one 1,448-byte TCP segment (the last one of a message shorter).
 *
 * <p>Measured: time per message, and per message (secondary results, divide by {@code messages}): buffers
 * allocated, bytes allocated, reads (including the final empty read when a buffer was filled exactly) and
 * guess changes (how often the size of the next buffer differs from the previous one: the jitter).
 *
 * <p>What to expect (the simulation is deterministic; its test pins these down):
 * <ul>
 *   <li>{@code fixed} never changes its guess, and needs one read per 2 KiB.</li>
 *   <li>Whole messages: {@code halving} settles within three messages and never changes again (it doubles
 *       on a full read and halves only on the second read in a row under half the buffer, which whole
 *       messages never give it): no jitter at 5k. {@code adaptive} settles too, except on messages of
 *       exactly one of its sizes (1k, 2k): a read that fills the buffer exactly makes it jump four sizes up
 *       and then shrink back one size every second read, about 0.6 changes and 8x the bytes allocated per
 *       message.</li>
 *   <li>One segment per read event: {@code halving} changes its guess twice per message from 2k to 50k (a
 *       message's short last segment halves the buffer, the next full segment doubles it): the jitter
 *       the C003 article describes. {@code adaptive} changes its guess too, less often, and allocates more.</li>
 * </ul>
 * Sizes are powers of two (1k = 1,024 bytes); decimal sizes run with e.g. {@code -p messageSize=1000,5000}.
 *
 * <p>The ops run on a Netty event loop ({@link EventLoopHarnessExecutor}), with the servers' default
 * allocator (adaptive, direct), as a channel's reads do.
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar RecvBufferPredictionBenchmark -p messageSize=5120}
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dio.netty.leakDetection.level=disabled",
        "-Dio.netty.noUnsafe=false", EventLoopHarnessExecutor.EXECUTOR, EventLoopHarnessExecutor.EXECUTOR_CLASS})
public class RecvBufferPredictionBenchmark extends AbstractBenchmark {
    /** TCP payload per segment on Ethernet (MTU 1,500) with the timestamp option. */
    static final int MSS = 1448;
    /** What NioSocketChannel's metadata sets. */
    static final int MAX_MESSAGES_PER_READ = 16;

    /** {@code adaptive}, {@code fixed:2048} or {@code halving} (RecvAllocator's spelling). */
    @Param({"adaptive", "fixed:2048", "halving"})
    public String predictor;

    @Param({"1024", "2048", "5120", "10240", "51200", "102400"})
    public int messageSize;

    /** {@code whole} or {@code mss1448}. */
    @Param({"whole", "mss1448"})
    public String arrival;

    private EmbeddedChannel channel;
    private ChannelConfig config;
    private RecvByteBufAllocator.Handle handle;
    private ByteBufAllocator alloc;
    private byte[] message;
    /** Bytes of one read event: the whole message, or one segment. */
    private int eventBytes;
    /** The size of the previous buffer, to count guess changes. */
    private int lastGuess = -1;

    /** Per-iteration totals; divide by {@link #messages}. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Reads {
        public long messages;
        public long bytesRead;
        public long buffers;
        public long bytesAllocated;
        public long reads;
        public long guessChanges;

        @Setup(Level.Iteration)
        public void reset() {
            messages = 0;
            bytesRead = 0;
            buffers = 0;
            bytesAllocated = 0;
            reads = 0;
            guessChanges = 0;
        }
    }

    @Setup(Level.Trial)
    @SuppressWarnings("deprecation") // RecvByteBufAllocator.Handle: what a channel's read loop drives
    public void setUp() {
        RecvByteBufAllocator recv = RecvAllocator.parse(predictor).create();
        ((MaxMessagesRecvByteBufAllocator) recv).maxMessagesPerRead(MAX_MESSAGES_PER_READ);
        channel = new EmbeddedChannel();
        config = channel.config();
        config.setRecvByteBufAllocator(recv);
        handle = recv.newHandle();
        alloc = Allocator.ADAPTIVE.instance(BufferType.DIRECT);
        message = new byte[messageSize];
        for (int i = 0; i < messageSize; i++) {
            message[i] = (byte) i;
        }
        switch (arrival) {
            case "whole":
                eventBytes = messageSize;
                break;
            case "mss1448":
                eventBytes = MSS;
                break;
            default:
                throw new IllegalArgumentException("arrival must be whole or mss1448, was " + arrival);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
    }

    /** Reads one message; returns the bytes read (always {@code messageSize}). */
    @Benchmark
    public int readMessage(Reads stats) {
        int offset = 0;
        int arrived = 0;
        while (offset < messageSize) {
            arrived = Math.min(messageSize, arrived + eventBytes); // what has arrived when the event comes
            offset = readEvent(offset, arrived, stats);
        }
        stats.messages++;
        stats.bytesRead += offset;
        return offset;
    }

    /** One read event that finds bytes [from, to) of the message waiting; returns where it stopped. */
    @SuppressWarnings("deprecation")
    private int readEvent(int from, int to, Reads stats) {
        RecvByteBufAllocator.Handle h = handle;
        int offset = from;
        h.reset(config);
        do {
            ByteBuf buf = h.allocate(alloc);
            int capacity = buf.writableBytes();
            stats.buffers++;
            stats.bytesAllocated += capacity;
            if (capacity != lastGuess) {
                if (lastGuess >= 0) {
                    stats.guessChanges++;
                }
                lastGuess = capacity;
            }
            h.attemptedBytesRead(capacity);
            int n = Math.min(capacity, to - offset);
            buf.writeBytes(message, offset, n);
            offset += n;
            h.lastBytesRead(n);
            stats.reads++;
            if (n <= 0) {
                buf.release(); // nothing was waiting: NIO releases the buffer and ends the read loop
                break;
            }
            h.incMessagesRead(1);
            buf.release(); // the reader consumed it
        } while (h.continueReading());
        h.readComplete();
        return offset;
    }
}
