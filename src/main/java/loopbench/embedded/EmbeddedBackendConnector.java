package loopbench.embedded;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import loopbench.proxy.BackendConnector;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The proxy's {@link BackendConnector} without sockets: each connect makes an {@link EmbeddedConnection}
 * whose server side runs {@code backendServer} (a server's child handler, e.g. the origin's own pipeline
 * from {@code OriginServer.initializer}) and returns a future that has already succeeded.
 *
 * <p>Everything runs on the calling thread, so the proxy's thread models (which event loop the backend
 * channel is registered on) do not apply here: this measures handler cost, not thread hand-offs.
 */
public final class EmbeddedBackendConnector implements BackendConnector {
    private final ChannelHandler backendServer;
    private final InetSocketAddress backendAddress;
    private final ByteBufAllocator alloc;
    private final List<EmbeddedConnection> connections = new ArrayList<>();
    private int nextPort = 40000;

    /**
     * @param backendServer  the handler of each accepted backend channel; must be sharable (a ChannelInitializer is)
     * @param backendAddress the address the backend listens on, as the proxy was configured
     * @param alloc          the allocator of both sides, as the servers' {@code ChannelOption.ALLOCATOR}
     */
    public EmbeddedBackendConnector(ChannelHandler backendServer, InetSocketAddress backendAddress,
            ByteBufAllocator alloc) {
        this.backendServer = backendServer;
        this.backendAddress = backendAddress;
        this.alloc = alloc;
    }

    @Override
    public ChannelFuture connect(Channel inbound, ChannelHandler handler, boolean autoRead) {
        InetSocketAddress clientAddress = new InetSocketAddress(backendAddress.getAddress(), nextPort++);
        EmbeddedSocket server = new EmbeddedSocket(backendServer, backendAddress, clientAddress, alloc, true);
        EmbeddedSocket client = new EmbeddedSocket(handler, clientAddress, backendAddress, alloc, autoRead);
        server.open(); // accepted before the client sees channelActive, as with a real listen backlog
        client.open();
        connections.add(new EmbeddedConnection(client, server));
        return client.newSucceededFuture();
    }

    /** Every connection opened and not yet forgotten by {@link #removeClosed()}. */
    public List<EmbeddedConnection> connections() {
        return connections;
    }

    /** Releases and forgets connections both of whose sides are closed. */
    public void removeClosed() {
        connections.removeIf(c -> {
            if (c.isOpen()) {
                return false;
            }
            c.close();
            return true;
        });
    }

    /** Closes every connection. */
    public void closeAll() {
        for (EmbeddedConnection c : connections) {
            c.close();
        }
        connections.clear();
    }
}
