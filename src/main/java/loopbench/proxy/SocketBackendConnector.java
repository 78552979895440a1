package loopbench.proxy;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import loopbench.knobs.EpollMode;
import loopbench.knobs.EpollModes;
import loopbench.knobs.ThreadModel;
import loopbench.line.NettyLine;
import loopbench.server.ServerContext;
import loopbench.server.ServerResources;

import java.net.InetSocketAddress;

/** Connects to the backend over TCP, on the event loop the {@link ThreadModel} names. */
public final class SocketBackendConnector implements BackendConnector {
    private final Bootstrap prototype;
    private final ThreadModel threadModel;
    /** The group backend channels register on; unused for {@link ThreadModel#REUSE_SERVER_THREAD}. */
    private final EventLoopGroup backendGroup;
    /** The proxy server's resources: every backend channel is closed with the server. */
    private final ServerResources resources;

    private SocketBackendConnector(Bootstrap prototype, ThreadModel threadModel, EventLoopGroup backendGroup,
                                   ServerResources resources) {
        this.prototype = prototype;
        this.threadModel = threadModel;
        this.backendGroup = backendGroup;
        this.resources = resources;
    }

    /**
     * A connector for the proxy server described by {@code context}; may start the backend's own group. A connect that
     * takes longer than {@code connectTimeoutMillis} fails (Netty's CONNECT_TIMEOUT_MILLIS; 0: no limit).
     */
    public static SocketBackendConnector create(ServerContext context, InetSocketAddress backend,
                                                ThreadModel threadModel, int connectTimeoutMillis) {
        EventLoopGroup group;
        switch (threadModel) {
            case INDIVIDUAL_GROUP:
                group = context.resources().newEventLoopGroup(context.options().transport(), "backend-io",
                        context.options().ioThreads());
                break;
            case REUSE_SERVER_GROUP:
                group = context.workers();
                break;
            case REUSE_SERVER_THREAD:
                group = null;
                break;
            default:
                throw new AssertionError(threadModel);
        }
        Bootstrap prototype = new Bootstrap()
                .channel(context.options().transport().socketChannelClass())
                .option(ChannelOption.ALLOCATOR, context.allocator())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                .remoteAddress(backend);
        EpollModes modes = context.options().epollModes();
        if (modes != null) { // backend connections as the accepted ones: the proxy's connections all alike
            NettyLine.current().epollMode(prototype, modes.accepted() == EpollMode.EDGE);
        }
        return new SocketBackendConnector(prototype, threadModel, group, context.resources());
    }

    @Override
    public ChannelFuture connect(Channel inbound, ChannelHandler handler, boolean autoRead) {
        EventLoopGroup group = threadModel == ThreadModel.REUSE_SERVER_THREAD ? inbound.eventLoop() : backendGroup;
        ChannelFuture connect = prototype.clone(group)
                .handler(handler)
                .option(ChannelOption.AUTO_READ, autoRead)
                .connect();
        resources.track(connect.channel());
        return connect;
    }
}
