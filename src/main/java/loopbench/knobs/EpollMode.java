package loopbench.knobs;

/**
 * How epoll reports a ready socket (claim C004-1): {@code edge}-triggered (once per change; the reader must drain
 * the socket) or {@code level}-triggered (as long as it is ready). Netty 4.1 can set either per channel
 * ({@code EpollChannelOption.EPOLL_MODE}, edge by default); 4.2's epoll is level-triggered only.
 */
public enum EpollMode implements Knob {
    EDGE("edge"),
    LEVEL("level");

    private final String cliName;

    EpollMode(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static EpollMode parse(String value) {
        return Knob.parse(EpollMode.class, "epoll mode", value);
    }
}
