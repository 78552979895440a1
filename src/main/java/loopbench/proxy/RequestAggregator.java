package loopbench.proxy;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpRequest;

/**
 * The proxy's aggregator ({@link ProxyAggregator}), except that an oversized request is not answered on the spot
 * (which could overtake the response to an earlier pipelined request) but passed on as {@link OversizedRequest}, so
 * that the proxy answers 413 in order and then closes the connection.
 */
public final class RequestAggregator extends ProxyAggregator {

    public RequestAggregator(int maxContentLength) {
        super(maxContentLength, true);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) throws Exception {
        if (oversized instanceof HttpRequest) {
            ctx.fireChannelRead(OversizedRequest.INSTANCE);
        } else {
            super.handleOversizedMessage(ctx, oversized);
        }
    }
}
