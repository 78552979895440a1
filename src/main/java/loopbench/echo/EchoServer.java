package loopbench.echo;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.util.concurrent.EventExecutorGroup;
import loopbench.server.LoopbackServer;
import loopbench.server.ServerOptions;

/** The TCP echo server of the C003 article. */
public final class EchoServer {
    private EchoServer() {
    }

    public static LoopbackServer start(ServerOptions options, EchoConfig config) {
        return LoopbackServer.start("echo", options, context -> {
            EventExecutorGroup group = config.executor() == EchoExecutor.GROUP
                    ? context.resources().newExecutorGroup("echo-executor", config.executorThreads())
                    : null;
            return new ChannelInitializer<Channel>() {
                @Override
                @SuppressWarnings("deprecation") // addLast(EventExecutorGroup, ...) is what --executor group measures
                protected void initChannel(Channel ch) {
                    ch.config().setOption(ChannelOption.RCVBUF_ALLOCATOR, config.recvAllocator().create());
                    if (group != null) {
                        ch.pipeline().addLast(group, "echo", EchoHandler.INSTANCE);
                    } else {
                        ch.pipeline().addLast("echo", EchoHandler.INSTANCE);
                    }
                }
            };
        });
    }
}
