package loopbench.cli;

import loopbench.echo.EchoConfig;
import loopbench.echo.EchoExecutor;
import loopbench.echo.EchoServer;
import loopbench.knobs.RecvAllocator;
import loopbench.server.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

@Command(name = "echo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "TCP echo server (seeds/003): writes back every byte it reads.")
final class EchoCommand implements Callable<Integer> {

    @Mixin
    ServerOptionsMixin server;

    @Option(names = "--recv-allocator", paramLabel = "R", defaultValue = "adaptive",
            description = "Read-buffer size predictor: adaptive (Netty's), fixed:BYTES, halving (Mina's double/halve). Default: ${DEFAULT-VALUE}.")
    RecvAllocator recvAllocator;

    @Option(names = "--executor", paramLabel = "E", defaultValue = "none",
            description = "Where the echo handler runs: none (event loop), group (a DefaultEventExecutorGroup). Default: ${DEFAULT-VALUE}.")
    EchoExecutor executor;

    @Option(names = "--executor-threads", paramLabel = "N",
            description = "Threads of that group. Default: the number of cores.")
    Integer executorThreads;

    @Override
    public Integer call() {
        EchoConfig config = Cli.validated(() -> new EchoConfig(recvAllocator, executor,
                executorThreads == null ? EchoConfig.DEFAULT_EXECUTOR_THREADS : executorThreads));
        ServerOptions options = Cli.validated(server::toServerOptions); // a bad value is a usage error (exit 2)
        return ServerRunner.serveUntilSignalled(() -> EchoServer.start(options, config),
                System.out, System.err, server.exitWithParent);
    }
}
