package loopbench.cli;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.Transport;
import loopbench.server.ServerOptions;
import picocli.CommandLine.Option;

/** The event-loop knobs every server and the load generator take, spelled the same everywhere. */
final class EventLoopOptions {

    @Option(names = "--transport", paramLabel = "T", defaultValue = "nio",
            description = "Event-loop transport: nio, epoll, io_uring. Default: ${DEFAULT-VALUE}.")
    Transport transport;

    @Option(names = "--allocator", paramLabel = "A", defaultValue = "adaptive",
            description = "ByteBufAllocator: pooled, unpooled, adaptive (Netty 4.2's default). Default: "
                    + "${DEFAULT-VALUE}.")
    Allocator allocator;

    @Option(names = "--buffers", paramLabel = "B", defaultValue = "direct",
            description = "Whether the allocator prefers direct or heap buffers: direct, heap. Default: "
                    + "${DEFAULT-VALUE}.")
    BufferType buffers;

    @Option(names = "--io-threads", paramLabel = "N",
            description = "Event-loop threads (accept and I/O share one group). Default: the number of cores.")
    Integer ioThreads;

    int ioThreads() {
        int threads = ioThreads == null ? ServerOptions.DEFAULT_IO_THREADS : ioThreads;
        if (threads < 1) {
            throw new IllegalArgumentException("--io-threads must be at least 1, was " + threads);
        }
        return threads;
    }
}
