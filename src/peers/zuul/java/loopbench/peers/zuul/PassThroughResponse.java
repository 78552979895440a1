package loopbench.peers.zuul;

import com.netflix.zuul.Filter;
import com.netflix.zuul.filters.FilterType;
import com.netflix.zuul.filters.http.HttpOutboundSyncFilter;
import com.netflix.zuul.message.http.HttpResponseMessage;

/**
 * The gateway's one outbound filter: zuul-sample's {@code ZuulResponseFilter} as its benchmark configuration runs it
 * ({@code zuul.responseFilter.send.headers=false}: no headers added), which leaves the response as it is. Zuul's
 * filter chain needs at least one filter of each direction.
 */
@Filter(order = 999, type = FilterType.OUTBOUND)
public final class PassThroughResponse extends HttpOutboundSyncFilter {
    @Override
    public int filterOrder() {
        return 999;
    }

    @Override
    public boolean shouldFilter(HttpResponseMessage response) {
        return true;
    }

    @Override
    public HttpResponseMessage apply(HttpResponseMessage response) {
        return response;
    }
}
