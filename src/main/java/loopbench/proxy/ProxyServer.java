package loopbench.proxy;

import loopbench.server.LoopbackServer;
import loopbench.server.ServerOptions;

/** Starts the L4 or L7 proxy on real sockets. */
public final class ProxyServer {
    private ProxyServer() {
    }

    /** Throws IllegalArgumentException for a configuration the options cannot run (see ProxyConfig). */
    public static LoopbackServer start(ServerOptions options, ProxyConfig config) {
        return start(options, config, null);
    }

    /** With a user's handler in every L7 pipeline ({@code --handler}; null: none). */
    public static LoopbackServer start(ServerOptions options, ProxyConfig config, UserHandler userHandler) {
        return LoopbackServer.start("proxy", config.serverOptions(options), context -> new ProxyInitializer(config,
                SocketBackendConnector.create(context, config.backend(), config.threadModel(),
                        config.timeouts().backendConnectMillis()), userHandler));
    }
}
