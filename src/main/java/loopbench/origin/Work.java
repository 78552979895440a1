package loopbench.origin;

import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.EventExecutorGroup;
import loopbench.server.ServerResources;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Spends the configured time on one request the way its {@link WorkStrategy} says, then runs the
 * continuation on the handler's executor (where all of {@link OriginHandler}'s state lives).
 */
abstract class Work {

    /** Does the work for one request, then runs {@code then} on {@code ctx.executor()}. */
    abstract void perform(ChannelHandlerContext ctx, Runnable then);

    /** The executor group the origin handler must be bound to in the pipeline, or null for the event loop. */
    EventExecutorGroup pipelineGroup() {
        return null;
    }

    static Work create(OriginConfig config, ServerResources resources) {
        int ms = config.workMs();
        switch (config.workStrategy().ensureSupported()) {
            case NONE:
                return new Inline(0);
            case BLOCK_EVENT_LOOP:
                return new Inline(ms);
            case PIPELINE_EXECUTOR: {
                EventExecutorGroup group = resources.newExecutorGroup("pipeline-executor", config.executorThreads());
                return new Inline(ms) {
                    @Override
                    EventExecutorGroup pipelineGroup() {
                        return group;
                    }
                };
            }
            case OFFLOAD_EXECUTOR:
                return new Offload(resources.newExecutorGroup("offload-executor", config.executorThreads()), ms);
            case VIRTUAL_THREAD:
                return new Offload(resources.registerExecutor(newVirtualThreadPerTaskExecutor()), ms);
            case TIMER:
                return new Timer(ms);
            default:
                throw new AssertionError(config.workStrategy());
        }
    }

    /** Sleeps on whatever thread runs the handler: the event loop, or the pipeline-bound executor. */
    private static class Inline extends Work {
        private final int ms;

        Inline(int ms) {
            this.ms = ms;
        }

        @Override
        void perform(ChannelHandlerContext ctx, Runnable then) {
            sleep(ms);
            then.run();
        }
    }

    /** Sleeps on another executor, then hands the response back to the event loop. */
    private static final class Offload extends Work {
        private final java.util.concurrent.Executor executor;
        private final int ms;

        Offload(java.util.concurrent.Executor executor, int ms) {
            this.executor = executor;
            this.ms = ms;
        }

        @Override
        void perform(ChannelHandlerContext ctx, Runnable then) {
            executor.execute(() -> {
                sleep(ms);
                ctx.executor().execute(then);
            });
        }
    }

    /** Blocks no thread: the event loop's timer runs the continuation when the time is up. */
    private static final class Timer extends Work {
        private final int ms;

        Timer(int ms) {
            this.ms = ms;
        }

        @Override
        void perform(ChannelHandlerContext ctx, Runnable then) {
            ctx.executor().schedule(then, ms, TimeUnit.MILLISECONDS);
        }
    }

    static void sleep(int ms) {
        if (ms <= 0) {
            return;
        }
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // shutting down: answer now
        }
    }

    /** Executors.newVirtualThreadPerTaskExecutor(), looked up at run time: this code compiles for Java 17. */
    private static ExecutorService newVirtualThreadPerTaskExecutor() {
        try {
            return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new UnsupportedOperationException("virtual threads are not available on " + Runtime.version(), e);
        }
    }
}
