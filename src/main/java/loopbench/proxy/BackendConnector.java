package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;

/**
 * How a proxy's frontend channel gets its backend channel. The proxy handlers only ever see this
 * interface, so the same handlers run over real sockets ({@link SocketBackendConnector}) and inside
 * EmbeddedChannels (the in-process benchmarks).
 */
@FunctionalInterface
public interface BackendConnector {

    /**
     * Opens a connection to the backend on behalf of {@code inbound}.
     *
     * @param inbound  the client-side channel the backend connection serves
     * @param handler  the backend channel's handler (usually a ChannelInitializer)
     * @param autoRead whether the backend channel reads on its own, or only when asked
     * @return the connect future; its {@link ChannelFuture#channel()} is valid at once
     */
    ChannelFuture connect(Channel inbound, ChannelHandler handler, boolean autoRead);
}
