package loopbench.peers.zuul;

import com.netflix.zuul.Filter;
import com.netflix.zuul.filters.FilterType;
import com.netflix.zuul.filters.endpoint.ProxyEndpoint;
import com.netflix.zuul.filters.http.HttpInboundSyncFilter;
import com.netflix.zuul.message.http.HttpRequestMessage;

/** The gateway's one route, as zuul-sample's {@code Routes} filter without its health check: all to the origin. */
@Filter(order = 0, type = FilterType.INBOUND)
public final class StaticRoute extends HttpInboundSyncFilter {
    @Override
    public int filterOrder() {
        return 0;
    }

    @Override
    public boolean shouldFilter(HttpRequestMessage request) {
        return true;
    }

    @Override
    public HttpRequestMessage apply(HttpRequestMessage request) {
        request.getContext().setEndpoint(ProxyEndpoint.class.getCanonicalName());
        request.getContext().setRouteVIP(ZuulPeer.VIP);
        return request;
    }
}
