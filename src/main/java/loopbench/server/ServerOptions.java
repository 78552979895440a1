package loopbench.server;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.EpollModes;
import loopbench.knobs.Transport;

import java.net.InetSocketAddress;

/**
 * What every loopbench server is configured with, whatever it serves.
 *
 * @param listen     the address to bind; port 0 asks the kernel for a free port
 * @param transport  nio, epoll or io_uring
 * @param allocator  the ByteBufAllocator every channel of the server (and its backend side) uses
 * @param buffers    whether that allocator prefers direct or heap buffers
 * @param ioThreads  event-loop threads per group; the listening socket shares them (no separate boss)
 * @param epollModes edge- or level-triggered epoll for the listening socket and accepted connections (epoll on
 *                   Netty 4.1 only), or null for the line's default (4.1: edge; 4.2: level, the only mode it has)
 */
public record ServerOptions(InetSocketAddress listen, Transport transport, Allocator allocator,
                            BufferType buffers, int ioThreads, EpollModes epollModes) {

    public static final int DEFAULT_IO_THREADS = Runtime.getRuntime().availableProcessors();

    public ServerOptions {
        if (ioThreads < 1) {
            throw new IllegalArgumentException("io threads must be at least 1, was " + ioThreads);
        }
        if (epollModes != null) {
            epollModes.requireSupportedBy(transport);
        }
    }

    /** With the line's default epoll mode. */
    public ServerOptions(InetSocketAddress listen, Transport transport, Allocator allocator, BufferType buffers,
                         int ioThreads) {
        this(listen, transport, allocator, buffers, ioThreads, null);
    }

    /** 127.0.0.1, a free port, NIO, the adaptive allocator with direct buffers, one io thread per core. */
    public static ServerOptions loopbackDefaults() {
        return new ServerOptions(new InetSocketAddress("127.0.0.1", 0), Transport.NIO, Allocator.ADAPTIVE,
                BufferType.DIRECT, DEFAULT_IO_THREADS);
    }

    public ServerOptions withTransport(Transport t) {
        return new ServerOptions(listen, t, allocator, buffers, ioThreads, epollModes);
    }

    public ServerOptions withAllocator(Allocator a, BufferType b) {
        return new ServerOptions(listen, transport, a, b, ioThreads, epollModes);
    }

    public ServerOptions withIoThreads(int n) {
        return new ServerOptions(listen, transport, allocator, buffers, n, epollModes);
    }

    /** {@code modes} null: the line's default. */
    public ServerOptions withEpollModes(EpollModes modes) {
        return new ServerOptions(listen, transport, allocator, buffers, ioThreads, modes);
    }

    @Override
    public String toString() {
        return "transport=" + transport.cliName() + " allocator=" + allocator.cliName() + "/" + buffers.cliName()
                + " io-threads=" + ioThreads + (epollModes == null ? "" : " epoll-mode=" + epollModes.cliName());
    }
}
