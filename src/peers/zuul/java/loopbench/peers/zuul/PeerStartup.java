package loopbench.peers.zuul;

import com.netflix.appinfo.ApplicationInfoManager;
import com.netflix.appinfo.InstanceInfo;
import com.netflix.netty.common.accesslog.AccessLogPublisher;
import com.netflix.netty.common.channel.config.ChannelConfig;
import com.netflix.netty.common.channel.config.CommonChannelConfigKeys;
import com.netflix.netty.common.metrics.EventLoopGroupMetrics;
import com.netflix.netty.common.proxyprotocol.StripUntrustedProxyHeadersHandler;
import com.netflix.netty.common.status.ServerStatusManager;
import com.netflix.spectator.api.DefaultRegistry;
import com.netflix.spectator.api.Registry;
import com.netflix.zuul.BasicRequestCompleteHandler;
import com.netflix.zuul.DefaultFilterFactory;
import com.netflix.zuul.StaticFilterLoader;
import com.netflix.zuul.context.ZuulSessionContextDecorator;
import com.netflix.zuul.netty.server.BaseServerStartup;
import com.netflix.zuul.netty.server.ClientRequestReceiver;
import com.netflix.zuul.netty.server.DefaultEventLoopConfig;
import com.netflix.zuul.netty.server.DirectMemoryMonitor;
import com.netflix.zuul.netty.server.NamedSocketAddress;
import com.netflix.zuul.netty.server.ZuulServerChannelInitializer;
import com.netflix.zuul.origins.BasicNettyOriginManager;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;

import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;

/**
 * Zuul's server, wired by hand as zuul-sample's Guice module wires it, without Eureka: one plain HTTP/1.1 listener
 * (zuul-sample's {@code ServerType.HTTP}: Zuul's own server pipeline and filter chain) with {@link StaticRoute} and
 * {@link PassThroughResponse} as its filters.
 */
final class PeerStartup extends BaseServerStartup {
    private final InetSocketAddress listen;

    private PeerStartup(InetSocketAddress listen, Registry registry, AccessLogPublisher accessLog) {
        super(new NoDiscoveryStatus(), new StaticFilterLoader(new DefaultFilterFactory(),
                        Set.of(StaticRoute.class, PassThroughResponse.class)),
                new ZuulSessionContextDecorator(new BasicNettyOriginManager(registry)), (filter, status) -> { },
                new BasicRequestCompleteHandler(), registry, new DirectMemoryMonitor(registry),
                new EventLoopGroupMetrics(registry), new DefaultEventLoopConfig(), null,
                new ApplicationInfoManager(null, null, null), accessLog);
        this.listen = listen;
    }

    static PeerStartup create(InetSocketAddress listen) {
        Registry registry = new DefaultRegistry();
        // zuul-sample's access log publisher (its request id is the session's); it logs at INFO, which is off.
        AccessLogPublisher accessLog = new AccessLogPublisher("ACCESS",
                (channel, request) -> ClientRequestReceiver.getRequestFromChannel(channel).getContext().getUUID());
        return new PeerStartup(listen, registry, accessLog);
    }

    @Override
    protected Map<NamedSocketAddress, ChannelInitializer<?>> chooseAddrsAndChannels(ChannelGroup clientChannels) {
        String name = "main";
        ChannelConfig channelConfig = defaultChannelConfig(name);
        ChannelConfig channelDependencies = defaultChannelDependencies(name);
        // zuul-sample's HTTP server type: behind a trusted hop, plain HTTP, no proxy protocol.
        channelConfig.set(CommonChannelConfigKeys.allowProxyHeadersWhen,
                StripUntrustedProxyHeadersHandler.AllowWhen.ALWAYS);
        channelConfig.set(CommonChannelConfigKeys.preferProxyProtocolForClientIp, false);
        channelConfig.set(CommonChannelConfigKeys.isSSlFromIntermediary, false);
        channelConfig.set(CommonChannelConfigKeys.withProxyProtocol, false);
        return Map.of(new NamedSocketAddress("http", listen), new ZuulServerChannelInitializer(
                String.valueOf(listen.getPort()), channelConfig, channelDependencies, clientChannels));
    }

    /** Discovery is off: the status Zuul reports on start and stop goes nowhere. */
    private static final class NoDiscoveryStatus extends ServerStatusManager {
        NoDiscoveryStatus() {
            super(null);
        }

        @Override
        public void localStatus(InstanceInfo.InstanceStatus status) {
        }
    }
}
