package loopbench.proxy;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpRequest;

import java.util.UUID;

/**
 * An example of a user's filter for {@code --handler} (and {@code PipelineCostBenchmark -p handler=...}): it gives
 * every request an {@code X-Request-Id} header with a random UUID on its way to the backend, as many gateways do. What
 * that costs per request (a UUID, its string, a header entry) shows up in B/op beside {@code handler=none}.
 */
@ChannelHandler.Sharable
public final class RequestIdHandler extends ChannelInboundHandlerAdapter {
    public static final String HEADER = "X-Request-Id";

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest request) {
            request.headers().set(HEADER, UUID.randomUUID().toString());
        }
        ctx.fireChannelRead(msg);
    }
}
