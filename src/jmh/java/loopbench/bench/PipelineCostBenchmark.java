package loopbench.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseDecoder;
import io.netty.handler.codec.http.HttpResponseStatus;
import loopbench.embedded.EmbeddedProxyPath;
import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.ThreadModel;
import loopbench.origin.OriginConfig;
import loopbench.origin.OriginServer;
import loopbench.origin.ResponseBody;
import loopbench.proxy.L7Mode;
import loopbench.proxy.Layer;
import loopbench.proxy.ProxyConfig;
import loopbench.proxy.UserHandler;
import loopbench.server.ServerResources;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * What does one request/response cost in the proxy's own L4 path and in its own L7 path, without sockets?
 * (claims C000-1, C000-2, C000-8)
 *
 * <p>One operation is one HTTP/1.1 keep-alive exchange on an established connection: the client's request
 * bytes go into the proxy's client-facing channel (the production {@code ProxyInitializer}), the proxy's
 * backend channel carries them to the origin's own pipeline ({@code OriginServer.initializer}), and the
 * response comes back the same way, all as EmbeddedChannels pumped on the benchmark thread
 * ({@link EmbeddedProxyPath}). Every hop copies the bytes into a buffer from the reader's allocator, sized
 * by its receive-buffer predictor, as a socket read would. {@code layer=direct} is the client talking to
 * the origin pipeline with no proxy: the baseline C000-1 compares the L4 proxy with.
 *
 * <p>Measured: ns/op (and B/op with {@code -prof gc}) per layer, method and body size; and, as secondary
 * results (per iteration; divide by {@code requests}), the bytes of each leg: {@code clientBytesIn} (client
 * to proxy), {@code backendBytesOut} (proxy to origin), {@code backendBytesIn} (origin to proxy),
 * {@code clientBytesOut} (proxy to client). For GET the origin answers {@code bodySize} bytes; for POST the
 * request carries {@code bodySize} bytes and the origin echoes them.
 *
 * <p>What to expect: L4 costs little more than direct (a copy per hop and a relay); L7 costs several times
 * more (decode, aggregate, rewrite headers, re-encode, in both directions) - C000-2. L4 forwards exactly
 * the bytes it gets; L7 sends its backend more than the client sent (it adds X-Forwarded-For) - C000-8.
 * What this cannot show: socket syscalls and thread hand-offs (the thread models of C000-3..5); those are
 * end-to-end measurements.
 *
 * <p>The ops run on a Netty event loop ({@link EventLoopHarnessExecutor}), where a proxy's handlers run
 * and allocate. All channels use the servers' default allocator (adaptive, direct).
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar PipelineCostBenchmark -prof gc}
 * (e.g. {@code -p bodySize=1024 -p method=GET}; {@code -p layer=7 -p l7Mode=aggregate,stream} for what
 * aggregation costs against streaming).
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dio.netty.leakDetection.level=disabled",
        "-Dio.netty.noUnsafe=false", EventLoopHarnessExecutor.EXECUTOR, EventLoopHarnessExecutor.EXECUTOR_CLASS})
// Warm-up longer than AbstractBenchmark's 3 x 1 s: the L7 path takes ~8 s of JIT to settle on a busy 2-core machine.
@Warmup(iterations = 10, time = 1)
public class PipelineCostBenchmark extends AbstractBenchmark {
    /** The backend address the L7 proxy names in its Host header; same length as the client's Host. */
    static final InetSocketAddress BACKEND = new InetSocketAddress("127.0.0.1", 8080);
    static final String DIRECT = "direct";

    /** {@code direct} (no proxy), {@code 4} or {@code 7}. */
    @Param({DIRECT, "4", "7"})
    public String layer;

    @Param({"GET", "POST"})
    public String method;

    @Param({"0", "1024", "65536"})
    public int bodySize;

    /**
     * L7 only: {@code aggregate} (the default, as the C000 article's proxy) or {@code stream} (-p
     * l7Mode=aggregate,stream).
     */
    @Param({"aggregate"})
    public String l7Mode = "aggregate";

    /**
     * L7 only: a ChannelHandler of yours in the proxy's pipeline (a class on the class path, see
     * {@link UserHandler}), or {@code none}: {@code -p handler=none,com.example.MyFilter -prof gc} is what your filter
     * costs per request, in B/op and ns/op, beside the proxy without it.
     */
    @Param({UserHandler.NONE})
    public String handler = UserHandler.NONE;

    private ServerResources resources;
    EmbeddedProxyPath path;
    ByteBuf request;
    int expectedResponseBytes;

    /** Bytes of each leg, accumulated per op; reported per iteration (divide by {@link #requests}). */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Traffic {
        public long requests;
        public long clientBytesIn;
        public long backendBytesOut;
        public long backendBytesIn;
        public long clientBytesOut;

        @Setup(Level.Iteration)
        public void reset() {
            requests = 0;
            clientBytesIn = 0;
            backendBytesOut = 0;
            backendBytesIn = 0;
            clientBytesOut = 0;
        }

        void add(EmbeddedProxyPath path) {
            requests++;
            clientBytesIn += path.lastClientBytesIn();
            backendBytesOut += path.lastBackendBytesOut();
            backendBytesIn += path.lastBackendBytesIn();
            clientBytesOut += path.lastClientBytesOut();
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        UserHandler user = UserHandler.of(handler);
        if (user != null && !"7".equals(layer)) {
            throw new IllegalArgumentException("handler=" + handler + " needs layer=7 (was " + layer + "); valid with "
                    + "layer=" + layer + ": handler=" + UserHandler.NONE);
        }
        resources = new ServerResources("pipeline-cost");
        ChannelHandler origin = OriginServer.initializer(OriginConfig.of(bodySize), resources);
        ByteBufAllocator alloc = Allocator.ADAPTIVE.instance(BufferType.DIRECT);
        if (DIRECT.equals(layer)) {
            path = EmbeddedProxyPath.direct(origin, alloc);
        } else {
            ProxyConfig config = new ProxyConfig(Layer.parse(layer), BACKEND, ThreadModel.REUSE_SERVER_THREAD,
                    ProxyConfig.DEFAULT_MAX_CONTENT_LENGTH, L7Mode.parse(l7Mode));
            path = EmbeddedProxyPath.proxy(config, origin, alloc, user);
        }
        byte[] requestBytes = requestBytes(method, bodySize);
        request = Unpooled.directBuffer(requestBytes.length).writeBytes(requestBytes);

        // One exchange before measuring: check the response is the one expected, remember its length.
        ByteBuf first = Unpooled.buffer();
        try {
            path.exchange(request.retainedDuplicate(), first);
            checkResponse(first, expectedBody(method, bodySize));
            expectedResponseBytes = first.readableBytes();
        } finally {
            first.release();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (path != null) {
            path.close();
        }
        if (request != null) {
            request.release();
        }
        if (resources != null) {
            resources.close();
        }
    }

    @Benchmark
    public int exchange(Traffic traffic) {
        int received = path.exchange(request.retainedDuplicate(), null);
        if (received != expectedResponseBytes || !path.clientConnected()) {
            throw new IllegalStateException("incomplete exchange: " + received + " of " + expectedResponseBytes
                    + " response bytes, client connection " + (path.clientConnected() ? "open" : "closed"));
        }
        traffic.add(path);
        return received;
    }

    /** The request a keep-alive HTTP/1.1 client (like wrk) sends to the proxy. */
    static byte[] requestBytes(String method, int bodySize) {
        String host = "Host: " + EmbeddedProxyPath.PROXY_ADDRESS.getAddress().getHostAddress() + ":"
                + EmbeddedProxyPath.PROXY_ADDRESS.getPort() + "\r\n";
        switch (method) {
            case "GET":
                return ("GET / HTTP/1.1\r\n" + host + "\r\n").getBytes(StandardCharsets.US_ASCII);
            case "POST": {
                byte[] head = ("POST / HTTP/1.1\r\n" + host + "Content-Type: application/octet-stream\r\n"
                        + "Content-Length: " + bodySize + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
                byte[] body = ResponseBody.bytes(bodySize);
                byte[] all = new byte[head.length + body.length];
                System.arraycopy(head, 0, all, 0, head.length);
                System.arraycopy(body, 0, all, head.length, body.length);
                return all;
            }
            default:
                throw new IllegalArgumentException("method must be GET or POST, was " + method);
        }
    }

    /** The body the origin answers: its fixed body for GET, the request's body echoed for POST. */
    static byte[] expectedBody(String method, int bodySize) {
        return ResponseBody.bytes(bodySize); // the POST body is the same bytes
    }

    /** Decodes {@code bytes} as exactly one complete HTTP response; the caller releases it. */
    static FullHttpResponse decodeResponse(ByteBuf bytes) {
        EmbeddedChannel decoder = new EmbeddedChannel(new HttpResponseDecoder(),
                new HttpObjectAggregator(Integer.MAX_VALUE));
        try {
            decoder.writeInbound(bytes.retainedDuplicate());
            FullHttpResponse response = decoder.readInbound();
            if (response == null) {
                throw new IllegalStateException("incomplete response (" + bytes.readableBytes() + " bytes): "
                        + bytes.toString(StandardCharsets.ISO_8859_1));
            }
            Object more = decoder.readInbound();
            if (more != null) {
                io.netty.util.ReferenceCountUtil.release(more);
                response.release();
                throw new IllegalStateException("more than one response in " + bytes.readableBytes() + " bytes");
            }
            if (response.decoderResult().isFailure()) {
                response.release();
                throw new IllegalStateException("malformed response", response.decoderResult().cause());
            }
            return response;
        } finally {
            decoder.finishAndReleaseAll();
        }
    }

    /** Throws unless {@code bytes} are one complete 200 response whose body is {@code body}. */
    static void checkResponse(ByteBuf bytes, byte[] body) {
        FullHttpResponse response = decodeResponse(bytes);
        try {
            if (!HttpResponseStatus.OK.equals(response.status())) {
                throw new IllegalStateException("status " + response.status() + ": "
                        + response.content().toString(StandardCharsets.UTF_8));
            }
            if (!response.content().equals(Unpooled.wrappedBuffer(body))) {
                throw new IllegalStateException("response body is not the " + body.length + " bytes expected ("
                        + response.content().readableBytes() + " bytes)");
            }
        } finally {
            response.release();
        }
    }
}
