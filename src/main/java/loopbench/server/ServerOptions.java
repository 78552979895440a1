package loopbench.server;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.Transport;

import java.net.InetSocketAddress;

/**
 * What every loopbench server is configured with, whatever it serves.
 *
 * @param listen    the address to bind; port 0 asks the kernel for a free port
 * @param transport nio, epoll or io_uring
 * @param allocator the ByteBufAllocator every channel of the server (and its backend side) uses
 * @param buffers   whether that allocator prefers direct or heap buffers
 * @param ioThreads event-loop threads per group; the listening socket shares them (no separate boss)
 */
public record ServerOptions(InetSocketAddress listen, Transport transport, Allocator allocator,
                            BufferType buffers, int ioThreads) {

    public static final int DEFAULT_IO_THREADS = Runtime.getRuntime().availableProcessors();

    public ServerOptions {
        if (ioThreads < 1) {
            throw new IllegalArgumentException("io threads must be at least 1, was " + ioThreads);
        }
    }

    /** 127.0.0.1, a free port, NIO, the adaptive allocator with direct buffers, one io thread per core. */
    public static ServerOptions loopbackDefaults() {
        return new ServerOptions(new InetSocketAddress("127.0.0.1", 0), Transport.NIO, Allocator.ADAPTIVE,
                BufferType.DIRECT, DEFAULT_IO_THREADS);
    }

    public ServerOptions withTransport(Transport t) {
        return new ServerOptions(listen, t, allocator, buffers, ioThreads);
    }

    public ServerOptions withAllocator(Allocator a, BufferType b) {
        return new ServerOptions(listen, transport, a, b, ioThreads);
    }

    public ServerOptions withIoThreads(int n) {
        return new ServerOptions(listen, transport, allocator, buffers, n);
    }

    @Override
    public String toString() {
        return "transport=" + transport.cliName() + " allocator=" + allocator.cliName() + "/" + buffers.cliName()
                + " io-threads=" + ioThreads;
    }
}
