package loopbench.cli;

import loopbench.knobs.ThreadModel;
import loopbench.proxy.BackendPool;
import loopbench.proxy.L4Mode;
import loopbench.proxy.L7Mode;
import loopbench.proxy.Layer;
import loopbench.proxy.ProxyConfig;
import loopbench.proxy.ProxyServer;
import loopbench.proxy.ProxyTimeouts;
import loopbench.proxy.UserHandler;
import loopbench.server.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Callable;

@Command(name = "proxy", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Reverse proxy to one backend. --layer 4 forwards bytes; --layer 7 decodes, aggregates and "
                + "re-encodes HTTP/1.1 (keep-alive on both sides, Host set, X-Forwarded-For appended).")
final class ProxyCommand implements Callable<Integer> {

    @Mixin
    ServerOptionsMixin server;

    @Option(names = "--backend", paramLabel = "HOST:PORT", required = true,
            description = "Where to forward every connection.")
    InetSocketAddress backend;

    @Option(names = "--layer", paramLabel = "L", required = true, description = "4 (bytes) or 7 (HTTP).")
    Layer layer;

    @Option(names = "--thread-model", paramLabel = "M", defaultValue = "reuse-server-thread",
            description = "Event loop of the backend connections: individual-group (its own group), reuse-server-group "
                    + "(the server's group), reuse-server-thread (the client channel's own loop). Default: "
                    + "${DEFAULT-VALUE}.")
    ThreadModel threadModel;

    @Option(names = "--max-content-length", paramLabel = "BYTES",
            defaultValue = "" + ProxyConfig.DEFAULT_MAX_CONTENT_LENGTH,
            description = "L7: largest request or response body; a larger request gets 413. Default: ${DEFAULT-VALUE}.")
    int maxContentLength;

    @Option(names = "--l7-mode", paramLabel = "MODE", defaultValue = "aggregate",
            description = "L7: aggregate (whole messages, HttpObjectAggregator on both sides) or stream (forward each "
                    + "body piece as it is decoded, as Zuul 2 / Spring Cloud Gateway do). Default: ${DEFAULT-VALUE}.")
    L7Mode l7Mode;

    @Option(names = "--backend-pool", paramLabel = "POOL", defaultValue = "per-client",
            description = "L7: per-client (one keep-alive backend connection per client connection) or per-loop (a "
                    + "keep-alive pool of backend connections per event loop, shared by its client connections, as "
                    + "nginx's upstream keepalive). Layer 4 takes per-client only. Default: ${DEFAULT-VALUE}.")
    BackendPool backendPool;

    @Option(names = "--l4-mode", paramLabel = "MODE", defaultValue = "copy",
            description = "L4: copy (read into a buffer, write it out: HexDumpProxy) or splice (splice(2) socket to "
                    + "socket through a pipe, no copy through user space; needs --transport epoll and --thread-model "
                    + "reuse-server-thread). Default: ${DEFAULT-VALUE}.")
    L4Mode l4Mode;

    @Option(names = "--client-header-timeout", paramLabel = "DURATION", defaultValue = "60s",
            description = "L7: a request head must arrive whole within this, counted from its first byte (a "
                    + "connection's first request: from the connection's start), else 408 and close (nginx "
                    + "client_header_timeout). 0: off. Default: ${DEFAULT-VALUE}.")
    Duration clientHeaderTimeout;

    @Option(names = "--client-body-timeout", paramLabel = "DURATION", defaultValue = "60s",
            description = "L7: at most this between two reads of a request body, else 408 and close (nginx "
                    + "client_body_timeout). 0: off. Default: ${DEFAULT-VALUE}.")
    Duration clientBodyTimeout;

    @Option(names = "--keepalive-timeout", paramLabel = "DURATION", defaultValue = "75s",
            description = "L7: a kept-alive client connection with no request under way closes after this (nginx "
                    + "keepalive_timeout). 0: off. Default: ${DEFAULT-VALUE}.")
    Duration keepAliveTimeout;

    @Option(names = "--backend-connect-timeout", paramLabel = "DURATION", defaultValue = "60s",
            description = "Connecting to the backend: after this, 502 at L7, the client closed at L4 (nginx "
                    + "proxy_connect_timeout). 0: off. Default: ${DEFAULT-VALUE}.")
    Duration backendConnectTimeout;

    @Option(names = "--backend-timeout", paramLabel = "DURATION", defaultValue = "60s",
            description = "L7: once a request's head has gone to the backend, at most this between two steps of the "
                    + "backend (taking more of the request, sending more of the response): 504, or both connections "
                    + "closed if the response had started (nginx proxy_send_timeout and proxy_read_timeout). 0: off. "
                    + "Default: ${DEFAULT-VALUE}.")
    Duration backendTimeout;

    @Option(names = "--idle-timeout", paramLabel = "DURATION", defaultValue = "10m",
            description = "L4: both connections close after this without a byte either way (nginx stream "
                    + "proxy_timeout). 0: off. Default: ${DEFAULT-VALUE}.")
    Duration idleTimeout;

    @Option(names = "--log-level", paramLabel = "LEVEL", defaultValue = "info",
            description = "warn, info or debug. Clients get a fixed text for every error (no address, no exception); "
                    + "debug also logs on stderr why each error answer, timeout or closed connection happened: the "
                    + "backend's address and the exception. Default: ${DEFAULT-VALUE}.")
    LogLevel logLevel;

    @Option(names = "--handler", paramLabel = "CLASS", defaultValue = UserHandler.NONE,
            description = "L7: a ChannelHandler of yours (a public class with a public no-argument constructor, on "
                    + "the class path: java -cp loopbench.jar:yours.jar loopbench.cli.Main proxy ...) put in every "
                    + "client connection's pipeline after the HTTP codec and aggregator, before the proxy's own "
                    + "handler; one instance shared if @Sharable, else one per connection. e.g. "
                    + "loopbench.proxy.RequestIdHandler. Default: ${DEFAULT-VALUE}.")
    String handler;

    @Override
    public Integer call() {
        server.cpus.pinThisProcess();
        ProxyConfig config = Cli.validated(this::config);
        UserHandler userHandler = Cli.validated(() -> UserHandler.of(handler));
        if (userHandler != null && config.layer() != Layer.L7) {
            throw new Cli.BadInput("--handler " + handler + " needs --layer 7; valid with --layer 4: "
                    + UserHandler.NONE);
        }
        // a bad value, or one the proxy's configuration cannot have, is a usage error (exit 2)
        ServerOptions options = Cli.validated(() -> config.serverOptions(server.toServerOptions()));
        logLevel.apply();
        return server.serve(() -> ProxyServer.start(options, config, userHandler));
    }

    /** The proxy's configuration from the options; throws IllegalArgumentException for a bad combination. */
    ProxyConfig config() {
        ProxyTimeouts timeouts = new ProxyTimeouts(clientHeaderTimeout, clientBodyTimeout, keepAliveTimeout,
                backendConnectTimeout, backendTimeout, idleTimeout);
        return new ProxyConfig(layer, backend, threadModel, maxContentLength, l7Mode, backendPool, l4Mode, timeouts);
    }
}
