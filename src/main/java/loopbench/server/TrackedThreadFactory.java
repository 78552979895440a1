package loopbench.server;

import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Netty's thread factory (FastThreadLocalThreads, so allocators give them per-thread caches) that
 * remembers every thread it made, so that shutting a server down can wait until each one has exited.
 */
final class TrackedThreadFactory extends DefaultThreadFactory {
    private final List<Thread> threads;

    TrackedThreadFactory(String poolName, List<Thread> threads) {
        super(poolName, false);
        this.threads = threads;
    }

    @Override
    protected Thread newThread(Runnable r, String name) {
        Thread t = super.newThread(r, name);
        synchronized (threads) {
            threads.add(t);
        }
        return t;
    }
}
