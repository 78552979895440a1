package loopbench.cli;

import loopbench.echo.EchoConfig;
import loopbench.echo.EchoExecutor;
import loopbench.echo.EchoFramework;
import loopbench.echo.MinaEchoServer;
import loopbench.knobs.RecvAllocator;
import loopbench.server.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(name = "echo", mixinStandardHelpOptions = true, sortOptions = false,
        description = "TCP echo server (the C003 article): writes back every byte it reads.")
final class EchoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--server", paramLabel = "S", defaultValue = "netty",
            description = "What the echo server is built on: netty, mina (Apache Mina 2.2 as the C003 article set it "
                    + "up: --io-threads I/O processors, initial read buffer 2048 B, an ExecutorFilter for --executor "
                    + "group). With mina: --transport nio only; --allocator unpooled only (Mina's "
                    + "SimpleBufferAllocator, a new buffer per read); --buffers heap (the default for mina, Mina's "
                    + "own) or direct: the IoBuffer of each read; --recv-allocator halving (the default for mina: "
                    + "Mina's own double/halve sizing) or fixed:BYTES. Default: ${DEFAULT-VALUE}.")
    EchoFramework framework;

    @Mixin
    ServerOptionsMixin server;

    @Option(names = "--recv-allocator", paramLabel = "R",
            description = "Read-buffer size predictor: adaptive (Netty's), fixed:BYTES, halving (Mina's double/halve: "
                    + "on Netty a predictor written after Mina's, on --server mina Mina's own). "
                    + "Default: adaptive for netty, halving for mina.")
    RecvAllocator recvAllocator;

    @Option(names = "--executor", paramLabel = "E", defaultValue = "none",
            description = "Where the echo handler runs: none (event loop, or Mina's I/O processor), group (a "
                    + "DefaultEventExecutorGroup; with mina an ExecutorFilter). Default: ${DEFAULT-VALUE}.")
    EchoExecutor executor;

    @Option(names = "--executor-threads", paramLabel = "N",
            description = "Threads of that group (of the ExecutorFilter with mina). Default: the number of cores.")
    Integer executorThreads;

    @Override
    public Integer call() {
        server.cpus.pinThisProcess();
        RecvAllocator recv = recvAllocator != null ? recvAllocator : framework.defaultRecvAllocator();
        EchoConfig config = Cli.validated(() -> new EchoConfig(recv, executor,
                executorThreads == null ? EchoConfig.DEFAULT_EXECUTOR_THREADS : executorThreads));
        ServerOptions given = Cli.validated(server::toServerOptions); // a bad value is a usage error (exit 2)
        // Unless told otherwise, Mina runs with its own defaults (a new heap buffer per read), as the C003 article ran
        // it.
        ServerOptions options = framework != EchoFramework.MINA ? given : given.withAllocator(
                given("--allocator") ? given.allocator() : MinaEchoServer.DEFAULT_ALLOCATOR,
                given("--buffers") ? given.buffers() : MinaEchoServer.DEFAULT_BUFFERS);
        Cli.validated(() -> {
            framework.checkSupported(options, config);
            return options;
        });
        return server.serve(() -> framework.start(options, config));
    }

    private boolean given(String option) {
        return spec.commandLine().getParseResult().hasMatchedOption(option);
    }
}
