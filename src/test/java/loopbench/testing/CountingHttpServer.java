package loopbench.testing;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpVersion;
import loopbench.server.LoopbackServer;

import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP/1.1 keep-alive server for the load generator's tests: counts every request it serves and answers
 * {@code status} with a body of {@code bodySize} bytes (POST bodies are echoed). With {@code stallAfter} > 0 it
 * blocks its (single) event loop once for {@code stallMillis}, right after serving that many requests: a target
 * that stalls, for the coordinated-omission test.
 */
public final class CountingHttpServer implements AutoCloseable {
    private final LoopbackServer server;
    private final AtomicLong served = new AtomicLong();
    private final AtomicLong postBodyBytes = new AtomicLong();

    private CountingHttpServer(int bodySize, HttpResponseStatus status, long stallAfter, long stallMillis) {
        byte[] body = new byte[bodySize];
        server = LoopbackServer.start("test-http", Rig.options().withIoThreads(1),
                context -> new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 24),
                        new SimpleChannelInboundHandler<FullHttpRequest>() {
                            @Override
                            protected void channelRead0(ChannelHandlerContext ctx,
                                    FullHttpRequest req) throws Exception {
                                long n = served.incrementAndGet();
                                postBodyBytes.addAndGet(req.content().readableBytes());
                                FullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                                        req.content().isReadable() ? req.content().retain()
                                                : Unpooled.wrappedBuffer(body));
                                r.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, r.content().readableBytes());
                                ctx.writeAndFlush(r);
                                if (n == stallAfter) {
                                    Thread.sleep(stallMillis); // the whole event loop stalls: every connection waits
                                }
                            }
                        });
            }
        });
    }

    public static CountingHttpServer start(int bodySize) {
        return new CountingHttpServer(bodySize, HttpResponseStatus.OK, 0, 0);
    }

    public static CountingHttpServer answering(HttpResponseStatus status) {
        return new CountingHttpServer(16, status, 0, 0);
    }

    /** Stalls its only event loop once, for {@code millis}, after serving {@code after} requests. */
    public static CountingHttpServer stallingOnce(long after, long millis) {
        return new CountingHttpServer(16, HttpResponseStatus.OK, after, millis);
    }

    public long served() {
        return served.get();
    }

    public long postBodyBytes() {
        return postBodyBytes.get();
    }

    public String url() {
        return "http://" + LoopbackServer.hostPort(server.address()) + "/";
    }

    public int port() {
        return server.port();
    }

    @Override
    public void close() {
        server.close();
    }
}
