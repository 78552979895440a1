package loopbench.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannelRecvByteBufAllocator;
import loopbench.knobs.EpollMode;
import loopbench.knobs.EpollModes;
import loopbench.knobs.Transport;
import loopbench.line.NettyLine;
import loopbench.metrics.MemoryReport;

import java.net.InetSocketAddress;
import java.util.List;

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

    /**
     * Connections accepted per wake-up of the listening socket at most. Netty's own setting accepts one per wake-up on
     * epoll (4.2.18: level-triggered, and its "maybe more to read" test compares the accepted fd with 1 byte
     * attempted, so it never continues) and 16 on NIO; between two wake-ups the loop serves every ready connection.
     * Under load that throttles a burst of new connections: 1,000 clients connecting at once to the one-thread proxy
     * at 40k req/s waited up to 3 s in the accept queue, which wrk reports as 1-2 s latencies and timeouts
     * (docs/results/2026-11-23/reference-proxies-1000/README.md). 256 empties such a queue in a few wake-ups and
     * still holds a flood of connects to a few milliseconds of work before the loop serves the others again.
     * Not on a transport whose listening socket cannot take it ({@link Transport#batchAccepts()}).
     */
    static final int ACCEPTS_PER_WAKEUP = 256;

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
            if (options.transport().batchAccepts()) {
                b.option(ChannelOption.RCVBUF_ALLOCATOR, acceptBatches());
            }
            if (options.epollModes() != null) {
                NettyLine.current().epollMode(b, options.epollModes().listening() == EpollMode.EDGE);
                NettyLine.current().acceptedEpollMode(b, options.epollModes().accepted() == EpollMode.EDGE);
            }
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

    /**
     * What the server runs on, read back from its listening socket: {@code netty=VERSION transport=T} and, on
     * epoll, {@code epoll-mode=LISTENING,ACCEPTED} (the listening socket's read back; accepted connections get the
     * mode asked for, else the line's default, which is the listening socket's too).
     */
    @Override
    public String stack() {
        Transport transport = Transport.of(serverChannel);
        StringBuilder sb = new StringBuilder("netty=").append(NettyLine.current().version())
                .append(" transport=")
                .append(transport == null ? serverChannel.getClass().getName() : transport.cliName());
        Boolean edge = NettyLine.current().edgeTriggered(serverChannel);
        if (edge != null) {
            EpollMode listening = edge ? EpollMode.EDGE : EpollMode.LEVEL;
            EpollMode accepted = options.epollModes() != null ? options.epollModes().accepted() : listening;
            sb.append(" epoll-mode=").append(new EpollModes(listening, accepted).cliName());
        }
        return sb.toString();
    }

    /** What the process holds now, with the figures of the allocator every channel of this server uses. */
    @Override
    public MemoryReport memory() {
        return MemoryReport.of(options.allocator().instance(options.buffers()), options.allocator().cliName());
    }

    /** Accept until the queue is empty ({@code accept} says so) or {@link #ACCEPTS_PER_WAKEUP}, on every transport. */
    static ServerChannelRecvByteBufAllocator acceptBatches() {
        ServerChannelRecvByteBufAllocator accepts = new ServerChannelRecvByteBufAllocator();
        accepts.respectMaybeMoreData(false);
        accepts.maxMessagesPerRead(ACCEPTS_PER_WAKEUP);
        return accepts;
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

    /** The listening socket (tests read its configuration back). */
    Channel serverChannel() {
        return serverChannel;
    }

    /** The connections it accepted that are still open (tests read their configuration back). */
    List<Channel> acceptedChannels() {
        return resources.openChannels().stream().filter(ch -> ch.parent() == serverChannel).toList();
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
