package loopbench.cli;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.Transport;
import loopbench.server.ServerOptions;
import picocli.CommandLine.Option;

import java.net.InetSocketAddress;

/** The options every server takes. */
final class ServerOptionsMixin {

    @Option(names = "--listen", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:0",
            description = "Address to listen on; port 0 picks a free port (printed on stdout). Default: ${DEFAULT-VALUE}.")
    InetSocketAddress listen;

    @Option(names = "--transport", paramLabel = "T", defaultValue = "nio",
            description = "Event-loop transport: nio, epoll, io_uring. Default: ${DEFAULT-VALUE}.")
    Transport transport;

    @Option(names = "--allocator", paramLabel = "A", defaultValue = "adaptive",
            description = "ByteBufAllocator: pooled, unpooled, adaptive (Netty 4.2's default). Default: ${DEFAULT-VALUE}.")
    Allocator allocator;

    @Option(names = "--buffers", paramLabel = "B", defaultValue = "direct",
            description = "Whether the allocator prefers direct or heap buffers: direct, heap. Default: ${DEFAULT-VALUE}.")
    BufferType buffers;

    @Option(names = "--io-threads", paramLabel = "N",
            description = "Event-loop threads per group (accept and I/O share one group). Default: the number of cores.")
    Integer ioThreads;

    @Option(names = "--exit-with-parent",
            description = "Also stop when stdin reaches end-of-file: a parent process that started this server "
                    + "and holds its stdin (a benchmark, a test) died or let go, so the server cannot outlive it.")
    boolean exitWithParent;

    ServerOptions toServerOptions() {
        int threads = ioThreads == null ? ServerOptions.DEFAULT_IO_THREADS : ioThreads;
        if (threads < 1) {
            throw new IllegalArgumentException("--io-threads must be at least 1, was " + threads);
        }
        return new ServerOptions(listen, transport, allocator, buffers, threads);
    }
}
