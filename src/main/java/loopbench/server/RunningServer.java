package loopbench.server;

import loopbench.metrics.MemoryReport;

import java.net.InetSocketAddress;

/**
 * A server that listens until it is closed, whatever it is built on: Netty ({@link LoopbackServer}) or another
 * framework (the Apache Mina echo server). What the CLI's runner and the tests need of it: what it is, where it
 * listens, and a {@link #close()} that frees its port and ends every thread it started.
 */
public interface RunningServer extends AutoCloseable {

    /** What it serves (origin, echo, proxy): the prefix of its thread names, loopbench-ROLE-... */
    String role();

    /** The address it listens on (the real port when port 0 was asked). */
    InetSocketAddress address();

    /**
     * What it actually runs on, as {@code key=value} pairs separated by spaces, read back from its listening socket
     * where it can be: {@code netty=4.1.136.Final transport=epoll epoll-mode=edge,edge}. The CLI prints it on its
     * ready line, so that a run names what it measured and a silent fall-back (another transport, another Netty)
     * cannot hide.
     */
    String stack();

    /**
     * What the process holds in memory now, with the figures of the allocator its channels use; a server without a
     * Netty allocator reports the process's figures only.
     */
    default MemoryReport memory() {
        return MemoryReport.of(null, MemoryReport.NO_ALLOCATOR);
    }

    default int port() {
        return address().getPort();
    }

    /** Stops accepting, closes every connection and waits until every thread the server started has exited. */
    @Override
    void close();
}
