package loopbench.knobs;

import loopbench.line.NettyLine;

/**
 * The epoll mode of a server's listening socket and of the connections it accepts: {@code MODE[,MODE]} on the
 * command line, the first for the listening socket, the second for accepted connections, one value for both.
 */
public record EpollModes(EpollMode listening, EpollMode accepted) {

    public static EpollModes parse(String value) {
        String[] parts = value.split(",", -1);
        if (parts.length > 2) {
            throw new IllegalArgumentException("bad epoll mode '" + value + "'; expected MODE or MODE,MODE (listening "
                    + "socket, accepted connections), each one of: " + Knob.validValues(EpollMode.class));
        }
        EpollMode listening = EpollMode.parse(parts[0].trim());
        return new EpollModes(listening, parts.length == 1 ? listening : EpollMode.parse(parts[1].trim()));
    }

    /**
     * Throws IllegalArgumentException unless these modes can be set: this Netty line can choose (4.1, not 4.2), and
     * {@code transport} is epoll.
     */
    public void requireSupportedBy(Transport transport) {
        String refusal = NettyLine.current().epollModeRefusal();
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        if (transport != Transport.EPOLL) {
            throw new IllegalArgumentException("--epoll-mode " + cliName() + " needs --transport epoll (the transport "
                    + "is " + transport.cliName() + ")");
        }
    }

    /** {@code listening,accepted}, as parsed. */
    public String cliName() {
        return listening.cliName() + "," + accepted.cliName();
    }

    @Override
    public String toString() {
        return cliName();
    }
}
