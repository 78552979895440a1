package loopbench.echo;

import loopbench.knobs.RecvAllocator;

/**
 * @param recvAllocator   how big each socket read's buffer is
 * @param executor        whether the echo handler runs on the event loop or on an executor group
 * @param executorThreads threads of that group
 */
public record EchoConfig(RecvAllocator recvAllocator, EchoExecutor executor, int executorThreads) {
    public static final int DEFAULT_EXECUTOR_THREADS = Runtime.getRuntime().availableProcessors();

    public EchoConfig {
        if (executorThreads < 1) {
            throw new IllegalArgumentException("executor threads must be >= 1, was " + executorThreads);
        }
    }

    public static EchoConfig defaults() {
        return new EchoConfig(RecvAllocator.ADAPTIVE, EchoExecutor.NONE, DEFAULT_EXECUTOR_THREADS);
    }
}
