package loopbench.proxy;

import loopbench.knobs.Knob;

/** How the L4 proxy moves bytes between the two sockets of a connection. */
public enum L4Mode implements Knob {
    /**
     * Read into a buffer, write it to the other socket (Netty's HexDumpProxy): every byte passes through user space.
     */
    COPY("copy"),
    /**
     * splice(2) through a pipe, socket to socket, without copying the bytes through user space (Netty's
     * {@code AbstractEpollStreamChannel.spliceTo}; HAProxy's {@code option splice-auto} does the same for large
     * transfers). epoll only, and both sockets must be on one event loop: thread model reuse-server-thread.
     */
    SPLICE("splice");

    private final String cliName;

    L4Mode(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static L4Mode parse(String value) {
        return Knob.parse(L4Mode.class, "l4 mode", value);
    }
}
