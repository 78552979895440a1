package loopbench.proxy;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Read batches of a backend channel, counted on that channel's event loop and looked at from the client's (where the
 * connection's {@link Watchdog} runs, another thread with some thread models). Opaque access: one writer, and a reader
 * that only needs to see the count move eventually; on x86 both are plain moves, no fence on the read path.
 */
final class ReadCount {
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(ReadCount.class, "count", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private long count;

    /** From the counted channel's loop only. */
    void increment() {
        COUNT.setOpaque(this, count + 1);
    }

    /** From any thread. */
    long get() {
        return (long) COUNT.getOpaque(this);
    }
}
