package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

/**
 * Whether the L7 proxy reads its client. AUTO_READ stays on while nothing waits, so the common case costs no
 * epoll_ctl per request; {@link #hold} turns it off and also holds back, at the socket, the reads the HTTP decoder and
 * the aggregator ask for on their own whenever a message is incomplete. So a client that pipelines without end cannot
 * make the proxy buffer without end: reading resumes ({@link #release}) when the queue has drained.
 */
final class ReadGate extends ChannelOutboundHandlerAdapter {
    private boolean open = true;
    /** Times the gate was held: a hold between two looks of the client body timeout restarts its wait. */
    private long holds;

    /** Stops reading the client (if not stopped already). */
    void hold(Channel client) {
        if (open) {
            open = false;
            holds++;
            client.config().setAutoRead(false);
        }
    }

    /** Reads the client again (if it was held). */
    void release(Channel client) {
        if (!open) {
            open = true;
            client.config().setAutoRead(true);
        }
    }

    /** Whether the client is being read; the client's silence while it is held is not its own. */
    boolean isOpen() {
        return open;
    }

    long holds() {
        return holds;
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (open) {
            ctx.read();
        }
    }
}
