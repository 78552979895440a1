package loopbench.echo;

import loopbench.knobs.Knob;
import loopbench.knobs.RecvAllocator;
import loopbench.server.RunningServer;
import loopbench.server.ServerOptions;

/**
 * What the echo server is built on (claim C003-2): the C003 article compared Netty with Apache Mina itself, so Mina's
 * own read-buffer sizing can be measured beside the Mina-style predictor on Netty ({@link RecvAllocator#HALVING}).
 */
public enum EchoFramework implements Knob {
    /** {@link EchoServer}: Netty 4.2, every transport, allocator and recv allocator. */
    NETTY("netty", RecvAllocator.ADAPTIVE) {
        @Override
        public void checkSupported(ServerOptions options, EchoConfig config) {
            // every combination runs
        }

        @Override
        public RunningServer start(ServerOptions options, EchoConfig config) {
            return EchoServer.start(options, config);
        }
    },
    /** {@link MinaEchoServer}: Apache Mina 2.2 on its own NIO, set up as the C003 article did. */
    MINA("mina", RecvAllocator.HALVING) {
        @Override
        public void checkSupported(ServerOptions options, EchoConfig config) {
            MinaEchoServer.checkSupported(options, config);
        }

        @Override
        public RunningServer start(ServerOptions options, EchoConfig config) {
            return MinaEchoServer.start(options, config);
        }
    };

    private final String cliName;
    private final RecvAllocator defaultRecvAllocator;

    EchoFramework(String cliName, RecvAllocator defaultRecvAllocator) {
        this.cliName = cliName;
        this.defaultRecvAllocator = defaultRecvAllocator;
    }

    /** The framework's own read-buffer sizing: Netty's adaptive predictor, Mina's double/halve. */
    public RecvAllocator defaultRecvAllocator() {
        return defaultRecvAllocator;
    }

    /** Throws an IllegalArgumentException naming the bad value and the valid ones if this server cannot run so. */
    public abstract void checkSupported(ServerOptions options, EchoConfig config);

    /** Starts the echo server; it listens when this returns. */
    public abstract RunningServer start(ServerOptions options, EchoConfig config);

    @Override
    public String cliName() {
        return cliName;
    }

    public static EchoFramework parse(String value) {
        return Knob.parse(EchoFramework.class, "echo server", value);
    }
}
