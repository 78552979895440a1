package loopbench.knobs;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The I/O mechanism under an event loop (claim C004-1 asks what it costs): Java NIO's selector,
 * Netty's native epoll, or Netty's native io_uring. Each one pairs a Netty 4.2 {@link IoHandlerFactory}
 * with the channel classes that can register on it.
 */
public enum Transport implements Knob {
    NIO("nio") {
        @Override public IoHandlerFactory ioHandlerFactory() { return NioIoHandler.newFactory(); }
        @Override public Class<? extends ServerChannel> serverChannelClass() { return NioServerSocketChannel.class; }
        @Override public Class<? extends Channel> socketChannelClass() { return NioSocketChannel.class; }
        @Override public Throwable unavailabilityCause() { return null; }
    },
    EPOLL("epoll") {
        @Override public IoHandlerFactory ioHandlerFactory() { return EpollIoHandler.newFactory(); }
        @Override public Class<? extends ServerChannel> serverChannelClass() { return EpollServerSocketChannel.class; }
        @Override public Class<? extends Channel> socketChannelClass() { return EpollSocketChannel.class; }
        @Override public Throwable unavailabilityCause() { return Epoll.unavailabilityCause(); }
    },
    IO_URING("io_uring") {
        @Override public IoHandlerFactory ioHandlerFactory() { return IoUringIoHandler.newFactory(); }
        @Override public Class<? extends ServerChannel> serverChannelClass() { return IoUringServerSocketChannel.class; }
        @Override public Class<? extends Channel> socketChannelClass() { return IoUringSocketChannel.class; }
        @Override public Throwable unavailabilityCause() { return IoUring.unavailabilityCause(); }
    };

    private final String cliName;

    Transport(String cliName) {
        this.cliName = cliName;
    }

    public abstract IoHandlerFactory ioHandlerFactory();

    public abstract Class<? extends ServerChannel> serverChannelClass();

    public abstract Class<? extends Channel> socketChannelClass();

    /** Why this transport cannot be used here, or null when it can. */
    public abstract Throwable unavailabilityCause();

    public boolean isAvailable() {
        return unavailabilityCause() == null;
    }

    /** Throws a {@link TransportUnavailableException} naming the cause and the transports that do work. */
    public Transport ensureAvailable() {
        Throwable cause = unavailabilityCause();
        if (cause != null) {
            String usable = Arrays.stream(values()).filter(Transport::isAvailable)
                    .map(Transport::cliName).collect(Collectors.joining(", "));
            throw new TransportUnavailableException("transport '" + cliName + "' is not available on this machine: "
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
