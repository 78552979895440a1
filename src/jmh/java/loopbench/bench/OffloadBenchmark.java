package loopbench.bench;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.local.LocalAddress;
import io.netty.channel.local.LocalChannel;
import io.netty.channel.local.LocalServerChannel;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.EventExecutorGroup;
import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.origin.OriginConfig;
import loopbench.origin.OriginServer;
import loopbench.origin.WorkStrategy;
import loopbench.server.ServerResources;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * What does handing every message to another executor cost, per message? (claims C001-3, C003-3)
 *
 * <p>the C001 article restored a blocked Netty server's throughput by offloading the blocking call to a
 * DefaultEventExecutorGroup; the C003 article saw the same hand-off (Netty 3's OrderedMemoryAwareThreadPoolExecutor)
 * double the CPU an echo server used at the same TPS. Here there is nothing to block on ({@code workMs = 0}),
 * so what is left is the hand-off itself: the origin's own pipeline ({@code OriginServer.initializer}) with
 * each {@link WorkStrategy}, on a real event loop but over Netty's Local transport (no sockets):
 * <ul>
 *   <li>{@code none}: the handler answers on the event loop;</li>
 *   <li>{@code pipeline-executor}: the handler is bound to a DefaultEventExecutorGroup in the pipeline
 *       (Netty's classic API, deprecated in 4.2): every read and write crosses threads;</li>
 *   <li>{@code offload-executor}: the handler stays on the event loop and dispatches the work to a
 *       DefaultEventExecutorGroup itself, then back to the loop to answer;</li>
 *   <li>{@code virtual-thread}: the same dispatch to a new virtual thread per request. JDK 21+ only, so it is
 *       not in the default parameter list (a run of the whole jar must work on JDK 17): ask for it with
 *       {@code -p strategy=virtual-thread} on JDK 21+ (the default profile does, behind {@code [jdk>=21]}); on an
 *       older JVM its setup fails with "virtual-thread needs JDK 21+".</li>
 * </ul>
 * One op sends {@value #MESSAGES} GET requests, pipelined over {@code connections} client LocalChannels
 * (on their own event loop), and blocks until every response has arrived complete (status 200, all
 * {@code bodySize} body bytes). The score is messages per millisecond. For CPU time per message, run it with
 * the suite's CPU profiler ({@code -prof loopbench.bench.ProcCpuProfiler}): CPU per message is C003-3's
 * question, throughput C001-3's.
 *
 * <p>What to expect: {@code none} is fastest and cheapest; every executor strategy adds two thread
 * hand-offs per message (wake-ups, queue traffic, context switches), so more CPU per message; with one
 * connection the executor strategies are latency-bound (the origin answers a connection's requests in
 * order, one at a time), with more connections the hand-offs overlap.
 *
 * <p>Server: one event loop; client: one event loop; {@code executorThreads} executor threads; allocator
 * adaptive/direct. JMH's thread only writes and waits.
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar OffloadBenchmark -prof loopbench.bench.ProcCpuProfiler}
 * (on JDK 21+, all four: {@code -p strategy=none,pipeline-executor,offload-executor,virtual-thread}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// Warm-up longer than AbstractBenchmark's 3 x 1 s: several event loops and executors warm up together.
@Warmup(iterations = 10, time = 1)
public class OffloadBenchmark extends AbstractBenchmark {
    /** Requests per op, split evenly over the connections. */
    static final int MESSAGES = 64;
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);
    private static final AtomicInteger NEXT_ADDRESS = new AtomicInteger();

    /**
     * {@code none}, {@code pipeline-executor}, {@code offload-executor}, or (JDK 21+, asked for explicitly)
     * {@code virtual-thread}.
     */
    @Param({"none", "pipeline-executor", "offload-executor"})
    public String strategy;

    /** Client connections the op's requests are spread over (must divide {@value #MESSAGES}). */
    @Param({"1", "4"})
    public int connections;

    @Param({"1024"})
    public int bodySize;

    /** Threads of the executor group (pipeline-executor, offload-executor). */
    @Param({"4"})
    public int executorThreads;

    /** Hears of every thread that hands the server's loop a task (what wakes it); a test watches where work ran. */
    Consumer<Thread> serverLoopWakers;

    private ServerResources resources;
    private Channel serverChannel;
    Channel[] clients;
    /** The server's side of each connection, as accepted. */
    final List<Channel> accepted = new CopyOnWriteArrayList<>();
    final Responses responses = new Responses();
    private ByteBuf requests;

    /** What the clients have received for the current op; completes it when the last response is in. */
    static final class Responses {
        final AtomicInteger remaining = new AtomicInteger();
        final AtomicLong bodyBytes = new AtomicLong();
        final AtomicInteger complete = new AtomicInteger();
        final AtomicReference<String> failure = new AtomicReference<>();
        volatile Thread waiter;

        void arm(int n) {
            bodyBytes.set(0);
            complete.set(0);
            waiter = Thread.currentThread();
            remaining.set(n);
        }

        void completed() {
            complete.incrementAndGet();
            if (remaining.decrementAndGet() == 0) {
                LockSupport.unpark(waiter);
            }
        }

        void fail(String why) {
            failure.compareAndSet(null, why);
            LockSupport.unpark(waiter);
        }
    }

    /** Counts a connection's responses; checks each has status 200 and its whole body. */
    static final class ResponseCounter extends ChannelInboundHandlerAdapter {
        private final Responses responses;
        private final int bodySize;
        private long body;

        ResponseCounter(Responses responses, int bodySize) {
            this.responses = responses;
            this.bodySize = bodySize;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof HttpResponse) {
                    HttpResponse r = (HttpResponse) msg;
                    if (!HttpResponseStatus.OK.equals(r.status()) || r.decoderResult().isFailure()) {
                        responses.fail("response " + r.status() + " " + r.decoderResult());
                    }
                    body = 0;
                }
                if (msg instanceof HttpContent) {
                    body += ((HttpContent) msg).content().readableBytes();
                }
                if (msg instanceof LastHttpContent) {
                    if (body != bodySize) {
                        responses.fail("response body of " + body + " bytes, expected " + bodySize);
                    }
                    responses.bodyBytes.addAndGet(body);
                    responses.completed();
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            responses.fail("connection closed by the origin");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            responses.fail(String.valueOf(cause));
            ctx.close();
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        WorkStrategy work = WorkStrategy.parse(strategy);
        if (!work.isSupported()) {
            throw new UnsupportedOperationException("virtual-thread needs JDK 21+; this JVM is "
                    + System.getProperty("java.vm.name") + " " + Runtime.version()
                    + " (run this param with a JDK 21+ java, or leave it out: -p "
                    + "strategy=none,pipeline-executor,offload-executor)");
        }
        if (connections < 1 || MESSAGES % connections != 0) {
            throw new IllegalArgumentException("connections must divide " + MESSAGES + ", was " + connections);
        }
        ByteBufAllocator alloc = Allocator.ADAPTIVE.instance(BufferType.DIRECT);
        resources = new ServerResources("offload");
        try {
            // Registered first, so closed first: the loops (and every channel) before the executors.
            EventLoopGroup clientGroup = resources.newLocalEventLoopGroup("client-io", 1, null);
            EventLoopGroup serverGroup = resources.newLocalEventLoopGroup("server-io", 1, serverLoopWakers);

            OriginConfig config = new OriginConfig(bodySize, 0, work, executorThreads,
                    OriginConfig.DEFAULT_MAX_CONTENT_LENGTH);
            ChannelHandler origin = OriginServer.initializer(config, resources);
            LocalAddress address = new LocalAddress("loopbench-offload-" + NEXT_ADDRESS.incrementAndGet());
            serverChannel = new ServerBootstrap()
                    .group(serverGroup)
                    .channel(LocalServerChannel.class)
                    .childOption(ChannelOption.ALLOCATOR, alloc)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            accepted.add(ch);
                            ch.pipeline().addLast(origin);
                        }
                    })
                    .bind(address).sync().channel();

            clients = new Channel[connections];
            for (int i = 0; i < connections; i++) {
                clients[i] = new Bootstrap()
                        .group(clientGroup)
                        .channel(LocalChannel.class)
                        .option(ChannelOption.ALLOCATOR, alloc)
                        .handler(new ChannelInitializer<Channel>() {
                            @Override
                            protected void initChannel(Channel ch) {
                                ch.pipeline().addLast(new HttpResponseDecoder(),
                                        new ResponseCounter(responses, bodySize));
                            }
                        })
                        .connect(address).sync().channel();
            }
            byte[] one = "GET / HTTP/1.1\r\nHost: origin\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            int perConnection = MESSAGES / connections;
            requests = Unpooled.directBuffer(one.length * perConnection);
            for (int i = 0; i < perConnection; i++) {
                requests.writeBytes(one);
            }
        } catch (RuntimeException | Error | InterruptedException e) {
            tearDown();
            throw e;
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (clients != null) {
            for (Channel c : clients) {
                if (c != null) {
                    c.close().awaitUninterruptibly();
                }
            }
        }
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly();
        }
        if (resources != null) {
            resources.close();
        }
        if (requests != null) {
            requests.release();
            requests = null;
        }
    }

    /** Sends {@value #MESSAGES} pipelined requests, blocks until all responses are in; returns their body bytes. */
    @Benchmark
    @OperationsPerInvocation(MESSAGES)
    public long requests() {
        responses.arm(MESSAGES);
        for (Channel c : clients) {
            c.writeAndFlush(requests.retainedDuplicate(), c.voidPromise());
        }
        long deadline = System.nanoTime() + TIMEOUT_NANOS;
        while (responses.remaining.get() > 0 && responses.failure.get() == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new IllegalStateException("timed out: " + responses.remaining.get() + " of " + MESSAGES
                        + " responses missing (strategy " + strategy + ")");
            }
            LockSupport.parkNanos(this, left);
        }
        String failure = responses.failure.get();
        if (failure != null) {
            throw new IllegalStateException(strategy + ": " + failure);
        }
        return responses.bodyBytes.get();
    }

    /** The executor the origin handler of a server-side channel is bound to (test hook). */
    static EventExecutorGroup originExecutor(Channel serverSide) {
        return serverSide.pipeline().context("origin").executor();
    }
}
