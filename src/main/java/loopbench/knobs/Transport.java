package loopbench.knobs;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ServerChannel;
import loopbench.line.LineTransport;
import loopbench.line.NettyLine;

import java.util.Arrays;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The I/O mechanism under an event loop (claim C004-1 asks what it costs): Java NIO's selector, Netty's native
 * epoll, or Netty's native io_uring. How each is spelled (event-loop group, channel classes) depends on the Netty
 * line the build is for: {@link NettyLine} says.
 */
public enum Transport implements Knob {
    NIO("nio", line -> line.transports().nio()),
    EPOLL("epoll", line -> line.transports().epoll()),
    IO_URING("io_uring", line -> line.transports().ioUring());

    private final String cliName;
    private final Function<NettyLine, LineTransport> onLine;

    Transport(String cliName, Function<NettyLine, LineTransport> onLine) {
        this.cliName = cliName;
        this.onLine = onLine;
    }

    private LineTransport onLine() {
        return onLine.apply(NettyLine.current());
    }

    /** A group of {@code nThreads} event loops of this transport (call {@link #ensureAvailable()} first). */
    public EventLoopGroup newEventLoopGroup(int nThreads, ThreadFactory threads) {
        return onLine().newEventLoopGroup(nThreads, threads);
    }

    public Class<? extends ServerChannel> serverChannelClass() {
        return onLine().serverChannelClass();
    }

    public Class<? extends Channel> socketChannelClass() {
        return onLine().socketChannelClass();
    }

    /** Whether its listening socket may be told to accept many connections per wake-up (not so on every line). */
    public boolean batchAccepts() {
        return onLine().batchAccepts();
    }

    /** Why this transport cannot be used here, or null when it can. */
    public Throwable unavailabilityCause() {
        return onLine().unavailabilityCause();
    }

    /** The transport {@code channel} runs on (its class says), or null for another kind (Local, Embedded). */
    public static Transport of(Channel channel) {
        for (Transport t : values()) {
            if (t.onLine().owns(channel)) {
                return t;
            }
        }
        return null;
    }

    public boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    /** Throws a {@link TransportUnavailableException} naming the cause and the transports that do work. */
    public Transport ensureAvailable() {
        Throwable cause = unavailabilityCause();
        if (cause != null) {
            String usable = Arrays.stream(values()).filter(Transport::isAvailable)
                    .map(Transport::cliName).collect(Collectors.joining(", "));
            throw new TransportUnavailableException("transport '" + cliName + "' is not available on this machine with "
                    + "Netty " + NettyLine.current().version() + " (line " + NettyLine.current().name() + "): "
                    + describe(cause) + " (available here: " + usable + ")", cause);
        }
        return this;
    }

    private static String describe(Throwable cause) {
        StringBuilder sb = new StringBuilder(String.valueOf(cause.getMessage()));
        for (Throwable c = cause.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            sb.append("; caused by ").append(c.getMessage());
        }
        return sb.toString();
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static Transport parse(String value) {
        return Knob.parse(Transport.class, "transport", value);
    }
}
