package loopbench.proxy;

import loopbench.knobs.EpollMode;
import loopbench.knobs.EpollModes;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.line.NettyLine;
import loopbench.server.LoopbackServer;
import loopbench.server.ServerOptions;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * What a proxy forwards to and how.
 *
 * @param layer            4 (bytes) or 7 (HTTP)
 * @param backend          where every connection is forwarded
 * @param threadModel      which event loop the backend connections run on
 * @param maxContentLength L7 only: the largest request or response body accepted (bytes)
 * @param l7Mode           L7 only: aggregate whole messages, or stream their pieces
 * @param backendPool      L7 only: a backend connection per client connection, or a keep-alive pool per event loop
 * @param l4Mode           L4 only: copy bytes through user space, or splice them socket to socket
 * @param timeouts         how long either side may keep the proxy waiting (nginx's defaults unless given)
 */
public record ProxyConfig(Layer layer, InetSocketAddress backend, ThreadModel threadModel, int maxContentLength,
                          L7Mode l7Mode, BackendPool backendPool, L4Mode l4Mode, ProxyTimeouts timeouts) {

    /** 8 MiB: large enough for the test bodies (up to 1 MiB), small enough to bound memory per connection. */
    public static final int DEFAULT_MAX_CONTENT_LENGTH = 8 * 1024 * 1024;

    public ProxyConfig {
        if (maxContentLength < 0) {
            throw new IllegalArgumentException("max content length must be >= 0, was " + maxContentLength);
        }
        Objects.requireNonNull(l7Mode, "l7Mode");
        Objects.requireNonNull(backendPool, "backendPool");
        if (layer == Layer.L4 && backendPool != BackendPool.PER_CLIENT) {
            throw new IllegalArgumentException("backend pool '" + backendPool.cliName()
                    + "' needs layer 7: an L4 relay's"
                    + " backend connection carries one client's byte stream and cannot be shared; valid with layer 4: "
                    + BackendPool.PER_CLIENT.cliName());
        }
        Objects.requireNonNull(l4Mode, "l4Mode");
        Objects.requireNonNull(timeouts, "timeouts");
        if (l4Mode == L4Mode.SPLICE && layer != Layer.L4) {
            throw new IllegalArgumentException("l4 mode 'splice' needs layer 4 (an L7 proxy reads every byte it"
                    + " forwards); valid with layer 7: " + L4Mode.COPY.cliName());
        }
        if (l4Mode == L4Mode.SPLICE && threadModel != ThreadModel.REUSE_SERVER_THREAD) {
            throw new IllegalArgumentException("l4 mode 'splice' needs thread model '"
                    + ThreadModel.REUSE_SERVER_THREAD.cliName() + "' (splice moves bytes between two sockets of one"
                    + " event loop), not '" + threadModel.cliName() + "'; valid thread models with splice: "
                    + ThreadModel.REUSE_SERVER_THREAD.cliName());
        }
    }

    /**
     * Refuses a transport this configuration cannot run on: splice is epoll's
     * ({@code AbstractEpollStreamChannel.spliceTo}).
     */
    public void requireSupportedBy(Transport transport) {
        if (l4Mode == L4Mode.SPLICE && transport != Transport.EPOLL) {
            throw new IllegalArgumentException("l4 mode 'splice' needs transport '" + Transport.EPOLL.cliName()
                    + "' (Netty splices on epoll only), not '" + transport.cliName()
                    + "'; valid transports with splice: " + Transport.EPOLL.cliName());
        }
    }

    /**
     * The server options the proxy runs with: {@code options}, checked ({@link #requireSupportedBy}), except that
     * splice on Netty 4.1 makes the proxy's connections level-triggered (4.1's {@code spliceTo} refuses edge-triggered
     * channels, and its epoll mode is fixed once a channel is registered): the accepted connections, and the backend
     * ones, which take the accepted connections' mode. Throws IllegalArgumentException for an epoll mode splice
     * cannot have.
     */
    public ServerOptions serverOptions(ServerOptions options) {
        requireSupportedBy(options.transport());
        if (l4Mode != L4Mode.SPLICE || NettyLine.current().epollModeRefusal() != null) {
            return options;
        }
        EpollModes modes = options.epollModes();
        if (modes == null) { // 4.1's default is edge-triggered; the listening socket keeps it
            return options.withEpollModes(new EpollModes(EpollMode.EDGE, EpollMode.LEVEL));
        }
        if (modes.accepted() == EpollMode.EDGE) {
            throw new IllegalArgumentException("l4 mode 'splice' needs level-triggered connections on Netty "
                    + NettyLine.current().version() + " (its spliceTo refuses edge-triggered channels), not "
                    + "--epoll-mode " + modes.cliName() + "; valid with splice: --epoll-mode "
                    + modes.listening().cliName() + ",level");
        }
        return options;
    }

    /**
     * The defaults for everything not given: L7 aggregates, one backend connection per client connection, L4 copies,
     * nginx's timeouts.
     */
    public ProxyConfig(Layer layer, InetSocketAddress backend, ThreadModel threadModel, int maxContentLength,
                       L7Mode l7Mode, BackendPool backendPool) {
        this(layer, backend, threadModel, maxContentLength, l7Mode, backendPool, L4Mode.COPY, ProxyTimeouts.DEFAULTS);
    }

    public ProxyConfig(Layer layer, InetSocketAddress backend, ThreadModel threadModel, int maxContentLength,
                       L7Mode l7Mode) {
        this(layer, backend, threadModel, maxContentLength, l7Mode, BackendPool.PER_CLIENT);
    }

    public ProxyConfig(Layer layer, InetSocketAddress backend, ThreadModel threadModel, int maxContentLength) {
        this(layer, backend, threadModel, maxContentLength, L7Mode.AGGREGATE);
    }

    public static ProxyConfig of(Layer layer, InetSocketAddress backend, ThreadModel threadModel) {
        return new ProxyConfig(layer, backend, threadModel, DEFAULT_MAX_CONTENT_LENGTH);
    }

    public ProxyConfig withL7Mode(L7Mode mode) {
        return new ProxyConfig(layer, backend, threadModel, maxContentLength, mode, backendPool, l4Mode, timeouts);
    }

    public ProxyConfig withMaxContentLength(int bytes) {
        return new ProxyConfig(layer, backend, threadModel, bytes, l7Mode, backendPool, l4Mode, timeouts);
    }

    public ProxyConfig withBackendPool(BackendPool pool) {
        return new ProxyConfig(layer, backend, threadModel, maxContentLength, l7Mode, pool, l4Mode, timeouts);
    }

    public ProxyConfig withL4Mode(L4Mode mode) {
        return new ProxyConfig(layer, backend, threadModel, maxContentLength, l7Mode, backendPool, mode, timeouts);
    }

    public ProxyConfig withTimeouts(ProxyTimeouts t) {
        return new ProxyConfig(layer, backend, threadModel, maxContentLength, l7Mode, backendPool, l4Mode, t);
    }

    /** The value of the Host header sent to the backend. */
    public String backendHostHeader() {
        return LoopbackServer.hostPort(backend);
    }
}
