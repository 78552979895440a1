package loopbench.cli;

import loopbench.origin.OriginConfig;
import loopbench.origin.OriginServer;
import loopbench.origin.WorkStrategy;
import loopbench.server.ServerOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

@Command(name = "origin", mixinStandardHelpOptions = true, sortOptions = false,
        description = "HTTP/1.1 keep-alive origin server. GET and HEAD answer a fixed body of --body-size bytes; POST "
                + "and PUT echo the request body. With --work-ms it spends that long on every request, the way "
                + "--work-strategy says (the C001 article).")
final class OriginCommand implements Callable<Integer> {

    @Mixin
    ServerOptionsMixin server;

    @Option(names = "--body-size", paramLabel = "BYTES", defaultValue = "" + OriginConfig.DEFAULT_BODY_SIZE,
            description = "Bytes in every GET response body. Default: ${DEFAULT-VALUE}.")
    int bodySize;

    @Option(names = "--work-ms", paramLabel = "N", defaultValue = "0",
            description = "Milliseconds of work per request. Default: ${DEFAULT-VALUE} (no work).")
    int workMs;

    @Option(names = "--work-strategy", paramLabel = "S", defaultValue = "none",
            description = "How the work is done: none, block-event-loop (Thread.sleep on the event loop), "
                    + "pipeline-executor (handler bound to a DefaultEventExecutorGroup), offload-executor (dispatch to "
                    + "a DefaultEventExecutorGroup, answer on the event loop), virtual-thread (JDK 21+), timer "
                    + "(non-blocking wait on the event loop's timer). Default: ${DEFAULT-VALUE}.")
    WorkStrategy workStrategy;

    @Option(names = "--executor-threads", paramLabel = "N",
            description = "Threads of the executor group for pipeline-executor and offload-executor. Default: 2 x "
                    + "cores.")
    Integer executorThreads;

    @Override
    public Integer call() {
        server.cpus.pinThisProcess();
        OriginConfig config = Cli.validated(() -> new OriginConfig(bodySize, workMs, workStrategy,
                executorThreads == null ? OriginConfig.DEFAULT_EXECUTOR_THREADS : executorThreads,
                OriginConfig.DEFAULT_MAX_CONTENT_LENGTH));
        ServerOptions options = Cli.validated(server::toServerOptions); // a bad value is a usage error (exit 2)
        return server.serve(() -> OriginServer.start(options, config));
    }
}
