package loopbench.proxy;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;

import java.util.List;

/**
 * The proxy's aggregator ({@link ProxyAggregator}), except that an oversized request is not answered on the spot
 * (which could overtake the response to an earlier pipelined request) but passed on as {@link OversizedRequest}, so
 * that the proxy answers 413 in order and then closes the connection; and that a head whose Transfer-Encoding names
 * chunked more than once fails here, before aggregation takes the header off (Netty 4.2's decoder fails it itself,
 * 4.1's does not): the proxy answers it 400 as any request the decoder could not read.
 */
public final class RequestAggregator extends ProxyAggregator {

    public RequestAggregator(int maxContentLength) {
        super(maxContentLength, true);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, HttpObject msg, List<Object> out) throws Exception {
        if (msg instanceof HttpRequest && msg.decoderResult().isSuccess()
                && RequestRules.chunkedMoreThanOnce(((HttpRequest) msg).headers())) {
            msg.setDecoderResult(DecoderResult.failure(
                    new IllegalArgumentException(RequestRules.CHUNKED_MORE_THAN_ONCE)));
        }
        super.decode(ctx, msg, out);
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
