package loopbench.embedded;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import loopbench.proxy.ProxyConfig;
import loopbench.proxy.ProxyInitializer;
import loopbench.proxy.UserHandler;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * A client's keep-alive connection through the proxy to the origin, without sockets or threads: the
 * proxy's own pipeline ({@link ProxyInitializer}, L4 or L7) on the client-facing {@link EmbeddedSocket},
 * its backend connections made by an {@link EmbeddedBackendConnector}, and a server pipeline behind them
 * (the origin's own, from {@code OriginServer.initializer}). {@link #direct} is the same client talking to
 * the server pipeline with no proxy in between.
 *
 * <p>{@link #exchange} sends one request's bytes and pumps bytes across every {@link Wire} until nothing
 * moves any more: everything happens on the calling thread, so by then the response is complete (or will
 * never be). It counts the bytes of each leg, the proxy's "bytes out vs bytes in" (claim C000-8).
 *
 * <p>Not thread-safe; one path per thread.
 */
public final class EmbeddedProxyPath implements AutoCloseable {
    /** Where the client connects from and to (the Host header a client would send names the proxy). */
    public static final InetSocketAddress CLIENT_ADDRESS = new InetSocketAddress("127.0.0.1", 50000);
    public static final InetSocketAddress PROXY_ADDRESS = new InetSocketAddress("127.0.0.1", 8000);

    private final EmbeddedSocket frontend;
    private final EmbeddedBackendConnector connector;
    private final Wire toFrontend = new Wire();
    private final Wire toClient = new Wire();

    /** Backend bytes of connections already closed and forgotten. */
    private long retiredBackendOut;
    private long retiredBackendIn;

    private long lastClientBytesIn;
    private long lastBackendBytesOut;
    private long lastBackendBytesIn;
    private long lastClientBytesOut;
    /** When the path last moved its channels' clocks ({@link #advanceClocks}). */
    private long clockNanos = System.nanoTime();

    private EmbeddedProxyPath(ChannelHandler frontendHandler, EmbeddedBackendConnector connector,
            ByteBufAllocator alloc) {
        this.connector = connector;
        this.frontend = new EmbeddedSocket(frontendHandler, PROXY_ADDRESS, CLIENT_ADDRESS, alloc, true);
        frontend.open();
        pump(); // whatever the proxy does on connect (the L4 proxy connects to its backend at once)
    }

    /**
     * The proxy at {@code config.layer()} in front of {@code backendServer}.
     *
     * @param config        the proxy's configuration (its backend address only names the backend in headers)
     * @param backendServer the child handler of the backend server, e.g. {@code OriginServer.initializer(...)}
     * @param alloc         the allocator of every channel, as {@code ChannelOption.ALLOCATOR} on a real server
     */
    public static EmbeddedProxyPath proxy(ProxyConfig config, ChannelHandler backendServer, ByteBufAllocator alloc) {
        return proxy(config, backendServer, alloc, null);
    }

    /** As {@link #proxy(ProxyConfig, ChannelHandler, ByteBufAllocator)}, with a user's handler (null: none). */
    public static EmbeddedProxyPath proxy(ProxyConfig config, ChannelHandler backendServer, ByteBufAllocator alloc,
                                          UserHandler userHandler) {
        EmbeddedBackendConnector connector = new EmbeddedBackendConnector(backendServer, config.backend(), alloc);
        return new EmbeddedProxyPath(new ProxyInitializer(config, connector, userHandler), connector, alloc);
    }

    /** The client talking to {@code server} itself: the baseline the proxy's cost is measured against. */
    public static EmbeddedProxyPath direct(ChannelHandler server, ByteBufAllocator alloc) {
        return new EmbeddedProxyPath(server, null, alloc);
    }

    /**
     * Sends {@code request} (the path releases it), pumps until quiet and hands every byte the client
     * received to {@code responseSink} (or just counts them when it is null).
     *
     * @return the number of bytes the client received
     */
    public int exchange(ByteBuf request, ByteBuf responseSink) {
        long backendOutBefore = backendBytesOut();
        long backendInBefore = backendBytesIn();
        lastClientBytesIn = request.readableBytes();
        toFrontend.put(request);
        pump();
        lastBackendBytesOut = backendBytesOut() - backendOutBefore;
        lastBackendBytesIn = backendBytesIn() - backendInBefore;
        int received = toClient.drainTo(responseSink);
        lastClientBytesOut = received;
        if (connector != null) {
            retireClosedConnections();
        }
        return received;
    }

    /**
     * Every channel of the path runs on a clock this path moves once per pump, by the real time passed. A real event
     * loop reads the clock once per iteration to run what is due; an EmbeddedChannel reads it on every
     * runPendingTasks() while any task of it is scheduled, and a pump calls that several times per exchange: a handler
     * that keeps a timer pending (the proxy's per-connection watchdog) would cost here a clock read per call, which no
     * real loop pays. Due tasks still run, at the next pump.
     */
    private void advanceClocks() {
        long now = System.nanoTime();
        long passed = now - clockNanos;
        clockNanos = now;
        frontend.followClock(passed);
        if (connector != null) {
            List<EmbeddedConnection> connections = connector.connections();
            for (int i = 0; i < connections.size(); i++) {
                connections.get(i).client().followClock(passed);
                connections.get(i).server().followClock(passed);
            }
        }
    }

    private void pump() {
        advanceClocks();
        boolean moved;
        do {
            moved = false;
            frontend.runPendingTasks();
            if (toFrontend.deliver(frontend) > 0) {
                moved = true;
            }
            if (toClient.take(frontend) > 0) {
                moved = true;
            }
            if (connector != null) {
                List<EmbeddedConnection> connections = connector.connections();
                for (int i = 0; i < connections.size(); i++) { // a handler may connect meanwhile
                    if (connections.get(i).pumpOnce()) {
                        moved = true;
                    }
                }
            }
        } while (moved);
    }

    private void retireClosedConnections() {
        for (EmbeddedConnection c : connector.connections()) {
            if (!c.isOpen()) {
                retiredBackendOut += c.toServer().bytes();
                retiredBackendIn += c.toClient().bytes();
            }
        }
        connector.removeClosed();
    }

    private long backendBytesOut() {
        long n = retiredBackendOut;
        if (connector != null) {
            for (EmbeddedConnection c : connector.connections()) {
                n += c.toServer().bytes();
            }
        }
        return n;
    }

    private long backendBytesIn() {
        long n = retiredBackendIn;
        if (connector != null) {
            for (EmbeddedConnection c : connector.connections()) {
                n += c.toClient().bytes();
            }
        }
        return n;
    }

    /** Request bytes the proxy received from the client in the last exchange. */
    public long lastClientBytesIn() {
        return lastClientBytesIn;
    }

    /** Bytes the proxy sent to its backend in the last exchange (0 without a proxy). */
    public long lastBackendBytesOut() {
        return lastBackendBytesOut;
    }

    /** Bytes the proxy received from its backend in the last exchange (0 without a proxy). */
    public long lastBackendBytesIn() {
        return lastBackendBytesIn;
    }

    /** Response bytes the client received in the last exchange. */
    public long lastClientBytesOut() {
        return lastClientBytesOut;
    }

    /** Whether the client's connection is still open (a keep-alive exchange leaves it open). */
    public boolean clientConnected() {
        return frontend.isOpen();
    }

    /** The backend connections currently open (empty without a proxy). */
    public List<EmbeddedConnection> backendConnections() {
        return connector == null ? List.of() : List.copyOf(connector.connections());
    }

    /** The client-facing channel (the proxy's, or the server's itself for {@link #direct}). */
    public EmbeddedSocket frontend() {
        return frontend;
    }

    @Override
    public void close() {
        frontend.finishAndReleaseAll();
        if (connector != null) {
            pump(); // let the close reach the backend side
            connector.closeAll();
        }
        toFrontend.discard();
        toClient.discard();
    }
}
