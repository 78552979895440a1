package loopbench.proxy;

import loopbench.knobs.Knob;

/**
 * Which client connections an L7 backend connection serves (claims C000-2 .. C000-5). L7 only: an L4 relay's backend
 * connection carries one client's byte stream, with no message boundary at which another client could take it over.
 */
public enum BackendPool implements Knob {
    /**
     * One keep-alive backend connection per client connection, opened with its first request and closed with it
     * (Netty's HexDumpProxy and the seeds' design).
     */
    PER_CLIENT("per-client"),
    /**
     * A keep-alive pool of idle backend connections per event loop, shared by the client connections of that loop
     * (nginx's upstream {@code keepalive}, HAProxy's {@code http-reuse}): a request takes an idle connection, or
     * opens one, and gives it back as soon as its response has been read whole. See {@link KeepAlivePool} for what
     * each thread model means with a pool.
     */
    PER_LOOP("per-loop");

    private final String cliName;

    BackendPool(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static BackendPool parse(String value) {
        return Knob.parse(BackendPool.class, "backend pool", value);
    }
}
