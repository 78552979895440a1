package loopbench.load;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import loopbench.server.ServerResources;

/**
 * Opens the generator's channels and gives them the bytes to send: one {@link Bootstrap} for every connection (the
 * spec's transport and allocator, TCP_NODELAY, the connect timeout, the target), and the one request every
 * connection sends, encoded once into a read-only buffer whose duplicates are the sends: nothing is encoded or copied
 * per request.
 */
final class Dialer {
    private final LoadSpec spec;
    private final ServerResources resources;
    private final Bootstrap bootstrap;
    private final ByteBuf request;
    private final int requestBytes;

    Dialer(LoadSpec spec, ServerResources resources) {
        this.spec = spec;
        this.resources = resources;
        byte[] bytes = spec.target().protocol() == Target.Protocol.HTTP ? HttpRequests.encode(spec)
                : Payload.bytes(spec.messageSize());
        ByteBuf shared = Unpooled.directBuffer(bytes.length).writeBytes(bytes);
        resources.register(shared::release);
        this.request = Unpooled.unreleasableBuffer(shared.asReadOnly());
        this.requestBytes = bytes.length;
        this.bootstrap = new Bootstrap()
                .channel(spec.transport().socketChannelClass())
                .option(ChannelOption.ALLOCATOR, spec.allocator().instance(spec.buffers()))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(spec.timeout().toMillis(), 30_000))
                .remoteAddress(spec.target().address());
    }

    /** Opens a channel for {@code connection} on its loop, with the handler that reads the target's responses. */
    ChannelFuture connect(EventLoop loop, Connection connection) {
        ChannelFuture f = bootstrap.clone(loop).handler(responseHandler(connection)).connect();
        resources.track(f.channel());
        return f;
    }

    private ChannelHandler responseHandler(Connection c) {
        return spec.target().protocol() == Target.Protocol.HTTP ? new HttpResponseFramer(c)
                : new EchoResponseChecker(c, request);
    }

    /** One request to write (a duplicate of the shared bytes: no copy). */
    ByteBuf newRequest() {
        return request.duplicate();
    }

    int requestBytes() {
        return requestBytes;
    }
}
