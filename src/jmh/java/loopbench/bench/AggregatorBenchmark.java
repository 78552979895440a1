package loopbench.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.util.ReferenceCountUtil;
import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.origin.ResponseBody;
import loopbench.proxy.RequestAggregator;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Does a large aggregator limit cost anything? (claim C000-7)
 *
 * <p>the C000 article saw an L7 proxy get slightly slower with HttpObjectAggregator's maxContentLength at
 * 100,000,000 instead of 2,000. Here the L7 proxy's own aggregator ({@link RequestAggregator}, an
 * HttpObjectAggregator) sits behind an HttpRequestDecoder in an EmbeddedChannel, as in the proxy's
 * pipeline, and one operation decodes and aggregates one POST request and releases the FullHttpRequest.
 * Both limits get identical input that fits both (bodies of at most 1,500 bytes), with a Content-Length
 * ({@code encoding=fixed}) or chunked in 512-byte chunks ({@code encoding=chunked}).
 *
 * <p>What to expect: no difference. In Netty 4.2 the limit is only compared with the Content-Length and
 * with the bytes aggregated so far; nothing is allocated or sized by it (the composite content buffer is
 * sized by maxCumulationBufferComponents). A difference here would point at the JIT, not the limit.
 *
 * <p>The ops run on a Netty event loop ({@link EventLoopHarnessExecutor}), where the proxy aggregates,
 * with the servers' default allocator (adaptive, direct).
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar AggregatorBenchmark -prof gc}
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dio.netty.leakDetection.level=disabled",
        "-Dio.netty.noUnsafe=false", EventLoopHarnessExecutor.EXECUTOR, EventLoopHarnessExecutor.EXECUTOR_CLASS})
public class AggregatorBenchmark extends AbstractBenchmark {
    static final int CHUNK = 512;

    @Param({"2000", "100000000"})
    public int maxContentLength;

    /** {@code fixed} (Content-Length) or {@code chunked} (Transfer-Encoding: chunked, 512-byte chunks). */
    @Param({"fixed", "chunked"})
    public String encoding;

    /** At most 1,500 so that every input fits the 2,000-byte limit too. */
    @Param({"128", "1500"})
    public int bodySize;

    EmbeddedChannel channel;
    ByteBuf input;

    @Setup(Level.Trial)
    public void setUp() {
        if (bodySize > 2000) {
            throw new IllegalArgumentException("bodySize " + bodySize + " does not fit the 2,000-byte limit: the"
                    + " comparison needs inputs both limits accept");
        }
        channel = new EmbeddedChannel(new HttpRequestDecoder(), new RequestAggregator(maxContentLength));
        channel.config().setAllocator(Allocator.ADAPTIVE.instance(BufferType.DIRECT));
        byte[] bytes = requestBytes(encoding, bodySize);
        input = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
    }

    /** A benchmark set up outside JMH (by another benchmark, or a test); the caller tears it down. */
    static AggregatorBenchmark ready(int maxContentLength, String encoding, int bodySize) {
        AggregatorBenchmark b = new AggregatorBenchmark();
        b.maxContentLength = maxContentLength;
        b.encoding = encoding;
        b.bodySize = bodySize;
        b.setUp();
        return b;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (channel != null) {
            channel.finishAndReleaseAll();
        }
        if (input != null) {
            input.release();
        }
    }

    /** Feeds one request in and returns what the aggregator made of it; the caller releases it. */
    FullHttpRequest aggregateOne() {
        channel.writeInbound(input.retainedDuplicate());
        Object msg = channel.readInbound();
        if (!(msg instanceof FullHttpRequest)) {
            ReferenceCountUtil.release(msg);
            throw new IllegalStateException("the aggregator (limit " + maxContentLength + ") produced " + msg
                    + " instead of a FullHttpRequest");
        }
        return (FullHttpRequest) msg;
    }

    @Benchmark
    public int aggregate(Blackhole bh) {
        FullHttpRequest request = aggregateOne();
        try {
            bh.consume(request.headers());
            return request.content().readableBytes();
        } finally {
            request.release();
        }
    }

    /** A POST of {@code bodySize} bytes, with a Content-Length or chunked. */
    static byte[] requestBytes(String encoding, int bodySize) {
        byte[] body = ResponseBody.bytes(bodySize);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        switch (encoding) {
            case "fixed":
                out.writeBytes(("POST /upload HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n"
                        + "Content-Type: application/octet-stream\r\nContent-Length: " + bodySize + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                out.writeBytes(body);
                break;
            case "chunked":
                out.writeBytes(("POST /upload HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n"
                        + "Content-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                for (int i = 0; i < body.length; i += CHUNK) {
                    int n = Math.min(CHUNK, body.length - i);
                    out.writeBytes((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    out.write(body, i, n);
                    out.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                break;
            default:
                throw new IllegalArgumentException("encoding must be fixed or chunked, was " + encoding);
        }
        return out.toByteArray();
    }
}
