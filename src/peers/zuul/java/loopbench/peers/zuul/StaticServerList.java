package loopbench.peers.zuul;

import com.netflix.appinfo.InstanceInfo;
import com.netflix.loadbalancer.ConfigurationBasedServerList;
import com.netflix.loadbalancer.Server;
import com.netflix.niws.loadbalancer.DiscoveryEnabledServer;

import java.util.ArrayList;
import java.util.List;

/**
 * The origin servers of {@code <vip>.ribbon.listOfServers}, without Eureka. Zuul's resolver takes only servers with
 * an instance record ({@code DiscoveryEnabledServer}), so each {@code HOST:PORT} gets one made up locally, as Zuul's
 * own integration test does; Ribbon's {@code ConfigurationBasedServerList} would give plain servers.
 */
public final class StaticServerList extends ConfigurationBasedServerList {
    @Override
    protected List<Server> derive(String value) {
        List<Server> servers = new ArrayList<>();
        if (value == null || value.isBlank()) {
            return servers;
        }
        for (String hostPort : value.split(",")) {
            String s = hostPort.trim();
            int colon = s.lastIndexOf(':');
            String host = s.substring(0, colon);
            int port = Integer.parseInt(s.substring(colon + 1));
            InstanceInfo instance = InstanceInfo.Builder.newBuilder()
                    .setAppName(ZuulPeer.VIP)
                    .setInstanceId(s)
                    .setHostName(host)
                    .setIPAddr(host)
                    .setPort(port)
                    .build();
            servers.add(new DiscoveryEnabledServer(instance, false, true));
        }
        return servers;
    }
}
