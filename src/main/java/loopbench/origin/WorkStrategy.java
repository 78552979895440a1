package loopbench.origin;

import loopbench.knobs.Knob;

/**
 * How the origin spends {@code --work-ms} per request (the C001 article, claims C001-2 and C001-3).
 */
public enum WorkStrategy implements Knob {
    /** No work: answer at once on the event loop. */
    NONE("none"),
    /** Thread.sleep in the handler, on the event loop: every connection on that loop waits. */
    BLOCK_EVENT_LOOP("block-event-loop"),
    /** Thread.sleep in a handler bound to a DefaultEventExecutorGroup with the (deprecated in 4.2) pipeline API. */
    PIPELINE_EXECUTOR("pipeline-executor"),
    /** The handler stays on the event loop and dispatches the sleep to a DefaultEventExecutorGroup itself. */
    OFFLOAD_EXECUTOR("offload-executor"),
    /** Thread.sleep in a new virtual thread per request (JDK 21+). */
    VIRTUAL_THREAD("virtual-thread"),
    /** No thread sleeps: the response is scheduled on the event loop's timer, like a coroutine's sleep. */
    TIMER("timer");

    private final String cliName;

    WorkStrategy(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static WorkStrategy parse(String value) {
        return Knob.parse(WorkStrategy.class, "work strategy", value);
    }

    /** Whether this JVM can run the strategy; only {@link #VIRTUAL_THREAD} needs more than JDK 17. */
    public boolean isSupported() {
        return this != VIRTUAL_THREAD || Runtime.version().feature() >= 21;
    }

    /** Throws, naming the JDK it needs and the one running, if this JVM cannot run the strategy. */
    public WorkStrategy ensureSupported() {
        if (!isSupported()) {
            throw new UnsupportedOperationException("work strategy '" + cliName
                    + "' needs JDK 21 or newer; this JVM is "
                    + System.getProperty("java.vm.name") + " " + Runtime.version()
                    + " (run it with a JDK 21+ java, e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/java)");
        }
        return this;
    }
}
