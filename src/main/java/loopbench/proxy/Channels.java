package loopbench.proxy;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

/** Small channel helpers the proxy handlers share. */
final class Channels {
    private Channels() {
    }

    /**
     * Closes {@code ch} once everything already written to it has been flushed. Not if its event loop is shutting
     * down: the server is closing, has closed that channel itself (ServerResources) and the loop takes no more tasks.
     */
    static void closeOnFlush(Channel ch) {
        if (ch.isActive() && !ch.eventLoop().isShuttingDown()) {
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
