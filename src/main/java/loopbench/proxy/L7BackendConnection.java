package loopbench.proxy;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * The last handler of an L7 backend connection: every response (whole or in pieces), failure or close goes to the
 * {@link L7FrontendHandler} that owns the connection at that moment. Per client connection the owner never changes;
 * in a {@link KeepAlivePool} it changes with every request, and is null while the connection is idle in the pool:
 * then anything the backend sends is out of step (the connection is closed), and a close takes it out of the pool.
 *
 * <p>The owner is set on the client's loop and read on the backend's (another thread except with
 * reuse-server-thread), hence volatile. A client that takes a connection sets itself as owner <em>before</em> it
 * checks that the connection is still open, and this handler reads the owner <em>after</em> the channel became
 * inactive: so either the client sees the connection closed (and takes another), or the close reaches that client
 * (which answers or retries). A response can only come after a request, which the owner writes after taking it.
 */
final class L7BackendConnection extends ChannelInboundHandlerAdapter {
    private final boolean streaming;
    /** The pool it returns to, or null (one connection per client connection). */
    private final KeepAlivePool pool;
    private volatile L7FrontendHandler owner;
    private Channel channel;
    /** Read batches so far: the backend timeout's measure of progress. */
    private final ReadCount reads = new ReadCount();

    L7BackendConnection(L7FrontendHandler owner, boolean streaming, KeepAlivePool pool) {
        this.owner = owner;
        this.streaming = streaming;
        this.pool = pool;
    }

    void owner(L7FrontendHandler owner) {
        this.owner = owner;
    }

    Channel channel() {
        return channel;
    }

    /** Read batches so far (from any thread). */
    long reads() {
        return reads.get();
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        channel = ctx.channel();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        L7FrontendHandler o = owner;
        if (o != null) {
            o.backendRead(ctx.channel(), msg);
        } else {
            ReferenceCountUtil.release(msg); // idle in the pool: nobody asked
            ctx.close();
        }
    }

    /** Counts the read batch (progress, for the backend timeout); stream mode: flushes the pieces it relayed. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reads.increment();
        L7FrontendHandler o = owner;
        if (streaming && o != null) {
            o.backendReadComplete(ctx.channel());
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        L7FrontendHandler o = owner;
        if (o != null) {
            o.backendFailed(ctx.channel(), null);
        }
        if (pool != null) {
            pool.closed(this);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        L7FrontendHandler o = owner;
        if (o != null) {
            o.backendFailed(ctx.channel(), cause);
        }
        ctx.close();
    }

    /** A large request (or a streamed body) filled the write buffer, or it drained: read the client on or not. */
    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        L7FrontendHandler o = owner;
        if (o != null) {
            o.backendWritabilityChanged(ctx.channel());
        }
    }
}
