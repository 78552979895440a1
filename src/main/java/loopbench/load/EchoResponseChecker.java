package loopbench.load;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;

/**
 * Echo: every message sent is the same {@code messageSize} bytes; what comes back is compared with them in
 * place, as it arrives (no copy, no cumulation), and each time a whole message has come back, the oldest
 * request is complete. A byte that differs, or a byte nobody sent, breaks the connection (corrupt, protocol).
 */
final class EchoResponseChecker extends ChannelInboundHandlerAdapter {
    private final Connection connection;
    private final ByteBuf message;
    private final int size;
    /** Bytes of the oldest outstanding message that have come back. */
    private int received;
    private boolean failed;

    EchoResponseChecker(Connection connection, ByteBuf message) {
        this.connection = connection;
        this.message = message;
        this.size = message.readableBytes();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof ByteBuf)) {
            ReferenceCountUtil.release(msg);
            return;
        }
        ByteBuf in = (ByteBuf) msg;
        try {
            connection.readStarted(in.readableBytes());
            while (in.isReadable() && !failed) {
                if (connection.inFlight() == 0) {
                    fail(ErrorKind.PROTOCOL); // bytes nobody sent
                    return;
                }
                int n = Math.min(in.readableBytes(), size - received);
                if (!ByteBufUtil.equals(in, in.readerIndex(), message, message.readerIndex() + received, n)) {
                    fail(ErrorKind.CORRUPT);
                    return;
                }
                in.skipBytes(n);
                received += n;
                if (received == size) {
                    received = 0;
                    connection.responseDone(null, false);
                }
            }
        } finally {
            in.release();
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        connection.readComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.inactive(ctx.channel(), received > 0);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(cause instanceof IOException ? ErrorKind.RESET : ErrorKind.PROTOCOL);
    }

    private void fail(ErrorKind kind) {
        if (!failed) {
            failed = true;
            connection.broken(kind);
        }
    }
}
