package loopbench.origin;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.EventExecutorGroup;
import loopbench.server.LoopbackServer;
import loopbench.server.ServerOptions;
import loopbench.server.ServerResources;

import java.util.concurrent.atomic.LongAdder;

/**
 * The HTTP/1.1 keep-alive origin: the backend of every end-to-end measurement, and the server of
 * the C001 article when it is given work to do.
 */
public final class OriginServer {
    private OriginServer() {
    }

    /**
     * Starts the origin. When it closes, it says on stderr how many requests it answered
     * ({@code loopbench: origin answered N requests}): what an end-to-end benchmark checks its load generator's
     * count against.
     */
    public static LoopbackServer start(ServerOptions options, OriginConfig config) {
        config.workStrategy().ensureSupported(); // fail before binding, with the reason
        LongAdder answered = new LongAdder();
        return LoopbackServer.start("origin", options, context -> {
            ChannelHandler initializer = initializer(config, context.resources(), answered);
            context.resources().register(() -> System.err.println("loopbench: origin answered " + answered.sum()
                    + " requests"));
            return initializer;
        });
    }

    /**
     * The origin's pipeline. Its pools and its body buffer are registered with {@code resources} and
     * go away with them.
     */
    public static ChannelHandler initializer(OriginConfig config, ServerResources resources) {
        return initializer(config, resources, new LongAdder());
    }

    /** As {@link #initializer(OriginConfig, ServerResources)}, counting every response in {@code answered}. */
    static ChannelHandler initializer(OriginConfig config, ServerResources resources, LongAdder answered) {
        Work work = Work.create(config, resources);
        // One read-only direct copy of the body, shared by every response; freed with the server.
        ByteBuf shared = Unpooled.directBuffer(config.bodySize()).writeBytes(ResponseBody.bytes(config.bodySize()));
        resources.register(shared::release);
        ByteBuf body = Unpooled.unreleasableBuffer(shared.asReadOnly());
        return new ChannelInitializer<Channel>() {
            @Override
            @SuppressWarnings("deprecation") // addLast(EventExecutorGroup, ...) is what pipeline-executor measures
            protected void initChannel(Channel ch) {
                ChannelPipeline p = ch.pipeline();
                p.addLast("http-server-codec", new HttpServerCodec());
                p.addLast("http-aggregator", new HttpObjectAggregator(config.maxContentLength()));
                EventExecutorGroup group = work.pipelineGroup();
                if (group != null) {
                    p.addLast(group, "origin", new OriginHandler(body, work, answered));
                } else {
                    p.addLast("origin", new OriginHandler(body, work, answered));
                }
            }
        };
    }
}
