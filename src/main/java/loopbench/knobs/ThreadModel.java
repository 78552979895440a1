package loopbench.knobs;

/**
 * Which event loop a proxy's backend connection runs on (claims C000-3, C000-4, C000-5).
 */
public enum ThreadModel implements Knob {
    /** The backend Bootstrap has an EventLoopGroup of its own: every byte crosses threads twice. */
    INDIVIDUAL_GROUP("individual-group"),
    /** The backend Bootstrap uses the server's worker group: the backend lands on whichever loop comes next. */
    REUSE_SERVER_GROUP("reuse-server-group"),
    /** The backend Bootstrap uses the inbound channel's own EventLoop: no thread hand-off at all. */
    REUSE_SERVER_THREAD("reuse-server-thread");

    private final String cliName;

    ThreadModel(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static ThreadModel parse(String value) {
        return Knob.parse(ThreadModel.class, "thread model", value);
    }
}
