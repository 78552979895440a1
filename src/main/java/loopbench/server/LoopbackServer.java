package loopbench.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;

/**
 * Starts a server: one event-loop group (accept and I/O share it, so {@code --io-threads 1} really means one
 * thread), the chosen transport and allocator, TCP_NODELAY on accepted sockets. The origin, the echo server
 * and the proxy all start through here, from the CLI, the tests and the benchmarks alike.
 */
public final class LoopbackServer implements RunningServer {

    /** Builds the handler for accepted channels; may start extra pools through the context. */
    @FunctionalInterface
    public interface ChannelSetup {
        ChannelHandler childHandler(ServerContext context);
    }

    private final String role;
    private final ServerOptions options;
    private final Channel serverChannel;
    private final ServerResources resources;

    private LoopbackServer(String role, ServerOptions options, Channel serverChannel, ServerResources resources) {
        this.role = role;
        this.options = options;
        this.serverChannel = serverChannel;
        this.resources = resources;
    }

    public static LoopbackServer start(String role, ServerOptions options, ChannelSetup setup) {
        ServerResources resources = new ServerResources(role);
        try {
            EventLoopGroup workers = resources.newEventLoopGroup(options.transport(), "io", options.ioThreads());
            ServerContext context = new ServerContext(options, workers, resources);
            ServerBootstrap b = new ServerBootstrap()
                    .group(workers)
                    .channel(options.transport().serverChannelClass())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .option(ChannelOption.ALLOCATOR, context.allocator())
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object accepted) {
                            resources.track((Channel) accepted); // closed by close(), whatever the loops do
                            ctx.fireChannelRead(accepted);
                        }
                    })
                    .childOption(ChannelOption.ALLOCATOR, context.allocator())
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(setup.childHandler(context));
            ChannelFuture bind = b.bind(options.listen()).awaitUninterruptibly();
            if (!bind.isSuccess()) {
                throw new IllegalStateException("cannot listen on " + hostPort(options.listen()) + ": "
                        + bind.cause().getMessage(), bind.cause());
            }
            return new LoopbackServer(role, options, bind.channel(), resources);
        } catch (RuntimeException | Error e) {
            resources.close();
            throw e;
        }
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) serverChannel.localAddress();
    }

    @Override
    public String role() {
        return role;
    }

    public ServerOptions options() {
        return options;
    }

    /** Stops accepting, closes every connection, shuts every pool down and waits for its threads to exit. */
    @Override
    public void close() {
        try {
            serverChannel.close().awaitUninterruptibly();
        } finally {
            resources.close();
        }
    }

    public static String hostPort(InetSocketAddress a) {
        String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    @Override
    public String toString() {
        return role + " on " + hostPort(address()) + " (" + options + ")";
    }
}
