package loopbench.proxy;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

/**
 * Sits next to the socket and lets {@code read()} through only while open. The HTTP decoder and the
 * aggregator ask for more bytes on their own whenever a message is incomplete; with the gate closed while
 * the L7 proxy has pipelined requests waiting, a client that pipelines without end cannot make the proxy
 * buffer without end: reading resumes when the queue has drained.
 */
final class ReadGate extends ChannelOutboundHandlerAdapter {
    private boolean open = true;

    void open(boolean open) {
        this.open = open;
    }

    @Override
    public void read(ChannelHandlerContext ctx) {
        if (open) {
            ctx.read();
        }
    }
}
