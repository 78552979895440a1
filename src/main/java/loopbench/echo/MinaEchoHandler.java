package loopbench.echo;

import org.apache.mina.core.service.IoHandlerAdapter;
import org.apache.mina.core.session.IoSession;

/**
 * Writes back every IoBuffer Mina reads, as it is: Mina allocates a new buffer for each read and does not touch it
 * once it has handed it on, so writing the same buffer back is safe. How much may wait to be echoed is bounded by
 * {@link MinaBackpressureFilter}.
 */
final class MinaEchoHandler extends IoHandlerAdapter {

    @Override
    public void messageReceived(IoSession session, Object message) {
        session.write(message);
    }

    /** A reset or a broken pipe: the connection is gone (Mina has already logged a read failure). */
    @Override
    public void exceptionCaught(IoSession session, Throwable cause) {
        session.closeNow();
    }
}
