package loopbench.origin;

/**
 * What the origin answers and how long it works on each request.
 *
 * @param bodySize         bytes in the body of every GET response (POST and PUT echo their own body)
 * @param workMs           milliseconds of work per request
 * @param workStrategy     how that work is done (see {@link WorkStrategy})
 * @param executorThreads  threads of the DefaultEventExecutorGroup for the executor strategies
 * @param maxContentLength the largest request body accepted (bytes)
 */
public record OriginConfig(int bodySize, int workMs, WorkStrategy workStrategy, int executorThreads,
                           int maxContentLength) {

    public static final int DEFAULT_BODY_SIZE = 1024;
    /** Netty's traditional default group size, twice the cores. */
    public static final int DEFAULT_EXECUTOR_THREADS = 2 * Runtime.getRuntime().availableProcessors();
    public static final int DEFAULT_MAX_CONTENT_LENGTH = 16 * 1024 * 1024;

    public OriginConfig {
        if (bodySize < 0) {
            throw new IllegalArgumentException("body size must be >= 0, was " + bodySize);
        }
        if (workMs < 0) {
            throw new IllegalArgumentException("work ms must be >= 0, was " + workMs);
        }
        if (workMs > 0 && workStrategy == WorkStrategy.NONE) {
            throw new IllegalArgumentException("--work-ms " + workMs + " needs a --work-strategy other than none");
        }
        if (executorThreads < 1) {
            throw new IllegalArgumentException("executor threads must be >= 1, was " + executorThreads);
        }
    }

    /** GET answers {@code bodySize} bytes at once. */
    public static OriginConfig of(int bodySize) {
        return new OriginConfig(bodySize, 0, WorkStrategy.NONE, DEFAULT_EXECUTOR_THREADS, DEFAULT_MAX_CONTENT_LENGTH);
    }

    public OriginConfig withWork(int ms, WorkStrategy strategy) {
        return new OriginConfig(bodySize, ms, strategy, executorThreads, maxContentLength);
    }
}
