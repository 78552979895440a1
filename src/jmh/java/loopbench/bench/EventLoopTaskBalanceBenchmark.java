package loopbench.bench;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.Transport;
import loopbench.line.NettyLine;
import loopbench.load.LoadSpec;
import loopbench.load.Target;
import loopbench.report.EndToEndMetrics;
import loopbench.server.LoopbackServer;
import loopbench.server.ServerOptions;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Does Netty 4.2 delay I/O behind tasks where 4.1 did not? (claim N-2; netty/netty#17481, #14165)
 *
 * <p>An event loop shares one thread between I/O (reading and writing its channels) and tasks (what
 * {@code execute()} queued, from the loop itself or from any other thread). Netty 4.1's NIO and epoll loops balance
 * the two with {@code ioRatio}: at its default, 50, after every round of I/O the loop runs tasks for at most as long
 * as the I/O took (it looks at the clock every 64 tasks), then goes back to I/O; at 100 it runs every task queued.
 * Netty 4.2 dropped ioRatio: its loops run the I/O, then tasks for up to a fixed quantum
 * ({@code io.netty.eventLoop.maxTaskProcessingQuantumMs}, default 1000 ms). While tasks keep coming, a 4.2 loop can
 * spend the whole queue on them before it looks at its sockets again; users who upgraded saw the mean round trip
 * rise and the median not move, and netty/netty#17481 proposes ioRatio back for it.
 *
 * <p>Here one event loop (the server's only thread, of {@code transport}) echoes {@code messageSize}-byte messages
 * on {@code connections} loopback connections, each echo queued as a task on the loop that does
 * {@code requestWorkMicros} of work before it writes (work scheduled per request), while another thread hands the
 * loop bursts of {@code burstTasks} tasks of {@code taskWorkMicros} each, {@code burstsPerSecond} times a second (work
 * from other threads at a fixed rate). The load generator, in this JVM on its own event loop, sends
 * {@code rate} messages/s in an open loop, so a stall delays every message due during it (latency from each
 * message's intended send: corrected for coordinated omission).
 *
 * <p>Figures ({@code -prof loopbench.bench.EndToEndProfiler}): the messages' latency mean, p50, p99, max
 * ({@code e2e.latency.*}, µs) and the tasks' latency from their {@code execute()} to their start on the loop
 * ({@code e2e.task.latency.*}). The score is messages/s: the rate, unless the loop fell behind.
 *
 * <p>{@code ioRatio}: {@code default} (the line's own: 4.1's 50, 4.2's quantum), or 1..100 on Netty 4.1 (4.2 refuses
 * it, naming the line). What to expect: most messages arrive between bursts and meet an idle loop on every line, so
 * the medians agree; a message that arrives during a burst waits for what the loop does first. 4.2 and 4.1 at 100
 * finish the burst (here {@code burstTasks x taskWorkMicros}) before reading it, 4.1 at 50 reads it after the next
 * 64 tasks: the same few messages wait longer on 4.2, so its mean, p99 and max rise while its median stays, the
 * pattern of #17481. The tasks pay the other way: 4.1 at 50 interleaves I/O into the burst, so its tasks wait longer.
 * With no bursts, or bursts shorter than 64 tasks, the lines should not differ.
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar EventLoopTaskBalanceBenchmark
 * -prof loopbench.bench.EndToEndProfiler}; on the 4.1 build also {@code -p ioRatio=default,50,100}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class EventLoopTaskBalanceBenchmark extends AbstractBenchmark {
    static final String DEFAULT_IO_RATIO = "default";

    /** {@code default}: the line's own balance; 1..100: 4.1's ioRatio (Netty 4.2 has none: refused). */
    @Param({DEFAULT_IO_RATIO})
    public String ioRatio = DEFAULT_IO_RATIO;

    /** The server loop's transport (nio or epoll: 4.1's loops with an ioRatio). */
    @Param({"nio"})
    public String transport = "nio";

    @Param({"16"})
    public int connections = 16;

    /** Messages per second in total, an open loop. */
    @Param({"4000"})
    public double rate = 4000;

    @Param({"64"})
    public int messageSize = 64;

    /** Work of each message's echo task, µs (a busy wait on the loop). */
    @Param({"10"})
    public int requestWorkMicros = 10;

    @Param({"20"})
    public int burstsPerSecond = 20;

    @Param({"200"})
    public int burstTasks = 200;

    /** Work of each task of a burst, µs. */
    @Param({"10"})
    public int taskWorkMicros = 10;

    @Param({"epoll"})
    public String clientTransport = "epoll";

    private LoopbackServer server;
    private EventLoopGroup workers;
    private ScheduledExecutorService submitter;
    EndToEndTrial trial;
    /** What ran, for a test: echo tasks and burst tasks that ran on the loop, and which thread ran them. */
    final AtomicLong echoTasks = new AtomicLong();
    final AtomicLong burstTasksRun = new AtomicLong();
    volatile Thread loopThread;
    volatile Thread burstThread;
    /** Submit-to-start times of the burst tasks, ns: written on the loop, read at each iteration's end. */
    private final Recorder taskLatency = new Recorder(3);

    @Setup(Level.Trial)
    public void setUp(BenchmarkParams params) throws Exception {
        setUp(EndToEndTrial.begin(params));
    }

    void setUp(EndToEndTrial t) throws Exception {
        Integer ratio = parseIoRatio(ioRatio);
        Transport loops = Transport.parse(transport);
        Transport.parse(clientTransport).ensureAvailable();
        trial = t;
        try {
            ServerOptions options = new ServerOptions(new InetSocketAddress("127.0.0.1", 0), loops, Allocator.ADAPTIVE,
                    BufferType.DIRECT, 1);
            server = LoopbackServer.start("taskloop", options, context -> {
                workers = context.workers();
                if (ratio != null) {
                    NettyLine.current().ioRatio(context.workers(), ratio);
                }
                return new EchoByTask();
            });
            submitter = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread th = new Thread(r, "loopbench-taskloop-bursts");
                th.setDaemon(true);
                return th;
            });
            EventLoop loop = serverLoop();
            submitter.scheduleAtFixedRate(() -> burst(loop), 0, 1_000_000 / burstsPerSecond, TimeUnit.MICROSECONDS);
            trial.addFigures(new TaskLatency());
            trial.startLoad(LoadSpec.closedLoop(Target.parse("tcp://" + LoopbackServer.hostPort(server.address())))
                    .withMessageSize(messageSize).withConnections(connections).withRate(rate)
                    .withEventLoops(Transport.parse(clientTransport), Allocator.ADAPTIVE, BufferType.DIRECT, 1)
                    .withDuration(Duration.ofHours(1))); // a bound; the trial ends it long before
        } catch (Exception | Error e) {
            tearDown();
            throw e;
        }
    }

    /**
     * {@code default} (null), or a ratio 1..100 on a line that has one; anything else, or a ratio on Netty 4.2, is
     * refused naming the line and the values it takes.
     */
    static Integer parseIoRatio(String value) {
        if (DEFAULT_IO_RATIO.equals(value)) {
            return null;
        }
        String refusal = NettyLine.current().ioRatioRefusal();
        int ratio;
        try {
            ratio = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            ratio = -1;
        }
        if (ratio < 1 || ratio > 100 || refusal != null) {
            throw new IllegalArgumentException("ioRatio=" + value + " is not valid on Netty " + NettyLine.current()
                    .version() + " (line " + NettyLine.current().name() + "); valid: " + DEFAULT_IO_RATIO
                    + (refusal == null ? " or 1..100" : " (" + refusal + ")"));
        }
        return ratio;
    }

    /** The server's one event loop. */
    EventLoop serverLoop() {
        return workers.next();
    }

    /** On the other thread: a burst of tasks, each stamped with its submission. */
    private void burst(EventLoop loop) {
        burstThread = Thread.currentThread();
        for (int i = 0; i < burstTasks; i++) {
            long submitted = System.nanoTime();
            loop.execute(() -> {
                taskLatency.recordValue(System.nanoTime() - submitted);
                burstTasksRun.incrementAndGet();
                spin(taskWorkMicros);
            });
        }
    }

    /** Busy for {@code micros} of wall time. */
    static void spin(int micros) {
        long end = System.nanoTime() + micros * 1000L;
        while (System.nanoTime() < end) {
            Thread.onSpinWait();
        }
    }

    /** Echoes what it reads, from a task queued on the loop that does the request's work first. */
    @ChannelHandler.Sharable
    private final class EchoByTask extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            loopThread = Thread.currentThread();
            ctx.executor().execute(() -> {
                echoTasks.incrementAndGet();
                spin(requestWorkMicros);
                ctx.writeAndFlush(msg, ctx.voidPromise());
            });
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    /** The burst tasks' latency over each iteration, µs. */
    private final class TaskLatency implements EndToEndTrial.IterationFigures {
        private Histogram interval;

        @Override
        public void iterationStarted() {
            interval = taskLatency.getIntervalHistogram(interval); // drops what came before the iteration
        }

        @Override
        public Map<String, Double> iterationEnded() {
            interval = taskLatency.getIntervalHistogram(interval);
            Map<String, Double> m = new LinkedHashMap<>();
            if (interval.getTotalCount() > 0) {
                m.put(EndToEndMetrics.TASK_LATENCY_MEAN, interval.getMean() / 1000);
                m.put(EndToEndMetrics.TASK_LATENCY_P50, interval.getValueAtPercentile(50) / 1000.0);
                m.put(EndToEndMetrics.TASK_LATENCY_P99, interval.getValueAtPercentile(99) / 1000.0);
                m.put(EndToEndMetrics.TASK_LATENCY_MAX, interval.getMaxValue() / 1000.0);
            }
            return m;
        }
    }

    @Setup(Level.Iteration)
    public void iterationStarted(IterationParams params) {
        trial.iterationStarted(params);
    }

    @TearDown(Level.Iteration)
    public void iterationEnded() {
        trial.iterationEnded();
    }

    /** One message echoed back whole. */
    @Benchmark
    public long messages() {
        return trial.nextCompleted();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            if (trial != null) {
                trial.close(); // the load first: it drains against a server still serving
            }
        } finally {
            try {
                if (submitter != null) {
                    submitter.shutdownNow();
                    submitter.awaitTermination(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (server != null) {
                    server.close();
                }
            }
        }
    }
}
