package loopbench.server;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoopGroup;

/**
 * What a server's channel setup may use: its options, the worker group its accepted channels run on,
 * and {@link ServerResources} to start any further pools (they are shut down with the server).
 */
public record ServerContext(ServerOptions options, EventLoopGroup workers, ServerResources resources) {

    public ByteBufAllocator allocator() {
        return options.allocator().instance(options.buffers());
    }
}
