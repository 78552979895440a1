package loopbench.echo;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.RecvAllocator;
import loopbench.knobs.Transport;
import loopbench.server.LoopbackServer;
import loopbench.server.RunningServer;
import loopbench.server.ServerOptions;
import loopbench.server.ServerResources;
import org.apache.mina.core.buffer.IoBuffer;
import org.apache.mina.core.service.SimpleIoProcessorPool;
import org.apache.mina.core.session.IoSession;
import org.apache.mina.filter.executor.ExecutorFilter;
import org.apache.mina.transport.socket.SocketSessionConfig;
import org.apache.mina.transport.socket.nio.NioProcessor;
import org.apache.mina.transport.socket.nio.NioSession;
import org.apache.mina.transport.socket.nio.NioSocketAcceptor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The TCP echo server of the C003 article on Apache Mina itself, so that claim C003-2 (Mina's double/halve read-buffer
 * sizing jitters at 5 KiB messages) is tested against Mina's own code, not only against the Mina-style predictor on
 * Netty ({@link RecvAllocator#HALVING} on {@link EchoServer}). Set up as the article did: a {@link NioSocketAcceptor}
 * with {@code --io-threads} I/O processors, an initial read buffer of 2048 bytes, TCP_NODELAY, and for
 * {@code --executor group} an {@link ExecutorFilter} of {@code --executor-threads} threads (the article's
 * {@code new ExecutorFilter(N)}: an OrderedThreadPoolExecutor of 0..N threads, 30 s keep-alive).
 *
 * <p>What the shared knobs mean here:
 * <ul>
 * <li>recv allocator: {@code halving} is Mina's own sizing: NioProcessor doubles the session's read buffer after a
 * read that filled it and halves it after the second read in a row that used less than half (min 64, max 65536,
 * Mina's defaults); nothing here reimplements it. {@code fixed:N} sets min = max = initial = N, so Mina's sizing
 * cannot move it. {@code adaptive} is Netty's predictor and is refused.</li>
 * <li>transport: Mina has its own NIO; only {@code nio} is accepted.</li>
 * <li>buffers: whether the IoBuffer of each read is {@code heap} (Mina's default, and the article's) or
 * {@code direct}. Mina keeps that choice JVM-wide ({@link IoBuffer#setUseDirectBuffer}), so every Mina server of
 * one JVM must agree on it (one server per JVM from the CLI; a second one that disagrees is refused).</li>
 * <li>allocator: only {@code unpooled}: Mina's default SimpleBufferAllocator, a new buffer for every read, as in the
 * article. Mina's pooling CachedBufferAllocator reuses only buffers that the application frees explicitly, which
 * Mina's own write path does not do, so "pooled" would measure nothing the name says; it and Netty's
 * {@code adaptive} are refused.</li>
 * </ul>
 *
 * <p>The handler writes back every IoBuffer it receives, the same object (Mina allocates a new one for each read).
 * It must not buffer without bound when the client stops reading: {@link MinaBackpressureFilter} suspends reading a
 * session while more than {@value #HIGH_WATER_MARK} bytes it read are not written back yet and resumes once at most
 * {@value #LOW_WATER_MARK} are, the defaults of Netty's write-buffer water marks that stop the Netty echo server.
 *
 * <p>Threads: the acceptor, the I/O processors and the executor filter run on pools of this server (named
 * loopbench-echo-mina-acceptor-..., -mina-io-..., -mina-executor-...). While Mina's acceptor and processors run,
 * Mina renames their threads NioSocketAcceptor-N and NioProcessor-N (its NamePreservingRunnable) and gives the
 * pool's name back when they stop. {@link #close()} unbinds (closing every session), disposes the acceptor and the
 * processors, shuts the pools down and waits until each thread has exited.
 */
public final class MinaEchoServer implements RunningServer {
    public static final String ROLE = "echo";
    /** Mina's default, and the article's: a new buffer for each read (SimpleBufferAllocator). */
    public static final Allocator DEFAULT_ALLOCATOR = Allocator.UNPOOLED;
    /** Mina's default, and the article's: heap buffers. */
    public static final BufferType DEFAULT_BUFFERS = BufferType.HEAP;
    /** the C003 article: "初始 buffer 大小，设置为 2048". Also Mina's default. */
    public static final int INITIAL_READ_BUFFER_SIZE = 2048;
    /** Mina's default bounds of its read-buffer sizing (IoSessionConfig). */
    public static final int MIN_READ_BUFFER_SIZE = 64;
    public static final int MAX_READ_BUFFER_SIZE = 65536;
    static final int HIGH_WATER_MARK = 64 * 1024;
    static final int LOW_WATER_MARK = 32 * 1024;
    /** ExecutorFilter(int)'s keep-alive of idle executor threads. */
    private static final long EXECUTOR_KEEP_ALIVE_SECONDS = 30;
    private static final int BACKLOG = 1024; // as LoopbackServer's SO_BACKLOG

    /** Mina's IoBuffer direct/heap default is JVM-wide: the buffer type of the Mina servers running in this JVM. */
    private static final Object BUFFERS_LOCK = new Object();
    private static int runningServers;
    private static BufferType runningBuffers;

    private final ServerOptions options;
    private final EchoConfig config;
    private final ServerResources resources = new ServerResources(ROLE);
    private SimpleIoProcessorPool<NioSession> processors;
    private NioSocketAcceptor acceptor;
    private InetSocketAddress address;

    private MinaEchoServer(ServerOptions options, EchoConfig config) {
        this.options = options;
        this.config = config;
    }

    /** Throws an IllegalArgumentException naming the bad value and the valid ones for a Mina echo server. */
    public static void checkSupported(ServerOptions options, EchoConfig config) {
        if (options.transport() != Transport.NIO) {
            throw new IllegalArgumentException("transport '" + options.transport().cliName()
                    + "' is not available with --server mina (Mina runs on its own NIO); valid values for "
                    + "--server mina: " + Transport.NIO.cliName());
        }
        if (options.allocator() != DEFAULT_ALLOCATOR) {
            throw new IllegalArgumentException("allocator '" + options.allocator().cliName()
                    + "' is not available with --server mina; valid values for --server mina: "
                    + DEFAULT_ALLOCATOR.cliName()
                    + " (Mina's SimpleBufferAllocator, a new buffer per read); --buffers heap|direct picks the "
                    + "buffer type");
        }
        if (config.recvAllocator().kind() == RecvAllocator.Kind.ADAPTIVE) {
            throw new IllegalArgumentException("recv allocator '" + config.recvAllocator().cliName()
                    + "' is Netty's predictor, not available with --server mina; valid values for --server mina: "
                    + "halving (Mina's own double/halve sizing), fixed:BYTES (e.g. fixed:2048)");
        }
    }

    /** Starts the server; it accepts when this returns. A port it cannot bind is an IllegalStateException. */
    public static MinaEchoServer start(ServerOptions options, EchoConfig config) {
        checkSupported(options, config);
        acquireBufferType(options.buffers());
        MinaEchoServer server = new MinaEchoServer(options, config);
        try {
            server.bind();
            return server;
        } catch (RuntimeException | Error e) {
            server.close();
            throw e;
        }
    }

    private void bind() {
        // Closed in this order: Mina first (its last events may still need the pools), then the pools.
        resources.register(this::disposeMina);
        ExecutorService acceptorPool = resources.registerExecutor(
                Executors.newCachedThreadPool(resources.threadFactory("mina-acceptor")));
        ExecutorService ioPool = resources.registerExecutor(
                Executors.newCachedThreadPool(resources.threadFactory("mina-io")));
        processors = new SimpleIoProcessorPool<>(NioProcessor.class, ioPool, options.ioThreads(), null);
        acceptor = new NioSocketAcceptor(acceptorPool, processors);
        acceptor.setReuseAddress(true);
        acceptor.setBacklog(BACKLOG);
        SocketSessionConfig session = acceptor.getSessionConfig();
        session.setTcpNoDelay(true);
        sizeReadBuffers(session, config.recvAllocator());
        // First in the chain, so that it runs on the I/O processor thread (see MinaBackpressureFilter).
        acceptor.getFilterChain().addLast("backpressure", new MinaBackpressureFilter(HIGH_WATER_MARK, LOW_WATER_MARK));
        if (config.executor() == EchoExecutor.GROUP) {
            ExecutorFilter executor = new ExecutorFilter(0, config.executorThreads(), EXECUTOR_KEEP_ALIVE_SECONDS,
                    TimeUnit.SECONDS, resources.threadFactory("mina-executor"));
            resources.registerExecutor((ExecutorService) executor.getExecutor());
            acceptor.getFilterChain().addLast("threadPool", executor);
        }
        acceptor.setHandler(new MinaEchoHandler());
        try {
            acceptor.bind(options.listen());
        } catch (IOException | RuntimeException e) {
            Throwable why = e; // Mina wraps the reason ("Address already in use") in "Error while binding on ..."
            while (why.getCause() != null && why.getCause() != why) {
                why = why.getCause();
            }
            throw new IllegalStateException("cannot listen on " + LoopbackServer.hostPort(options.listen()) + ": "
                    + why.getMessage(), e);
        }
        address = acceptor.getLocalAddress();
    }

    /** halving: Mina's own sizing from 2048 within its default bounds; fixed:N: min = max = initial = N. */
    private static void sizeReadBuffers(SocketSessionConfig session, RecvAllocator recv) {
        int min = MIN_READ_BUFFER_SIZE;
        int initial = INITIAL_READ_BUFFER_SIZE;
        int max = MAX_READ_BUFFER_SIZE;
        if (recv.kind() == RecvAllocator.Kind.FIXED) {
            min = initial = max = recv.fixedBytes();
        }
        // Mina checks min <= max on every setter: widen first, then narrow.
        session.setMaxReadBufferSize(Math.max(max, session.getMaxReadBufferSize()));
        session.setMinReadBufferSize(min);
        session.setMaxReadBufferSize(max);
        session.setReadBufferSize(initial);
    }

    private void disposeMina() {
        try {
            if (acceptor != null) {
                acceptor.unbind(); // closes every session (close on deactivation) and waits until they are gone
                acceptor.dispose(true);
            }
        } finally {
            try {
                if (processors != null) {
                    processors.dispose(); // waits until each processor has stopped
                }
            } finally {
                releaseBufferType();
            }
        }
    }

    private static void acquireBufferType(BufferType buffers) {
        synchronized (BUFFERS_LOCK) {
            if (runningServers > 0 && runningBuffers != buffers) {
                throw new IllegalStateException("Mina's buffer type is JVM-wide and a Mina server with --buffers "
                        + runningBuffers.cliName() + " runs in this JVM; cannot start one with --buffers "
                        + buffers.cliName());
            }
            IoBuffer.setUseDirectBuffer(buffers == BufferType.DIRECT);
            runningBuffers = buffers;
            runningServers++;
        }
    }

    private static void releaseBufferType() {
        synchronized (BUFFERS_LOCK) {
            if (--runningServers == 0) {
                IoBuffer.setUseDirectBuffer(DEFAULT_BUFFERS == BufferType.DIRECT); // back to Mina's default
                runningBuffers = null;
            }
        }
    }

    @Override
    public String stack() {
        return "framework=mina transport=" + Transport.NIO.cliName(); // Mina's own NIO; no Netty in its path
    }

    @Override
    public String role() {
        return ROLE;
    }

    @Override
    public InetSocketAddress address() {
        return address;
    }

    /**
     * The read-buffer size Mina will use for the next read of each open connection: Mina's own sizing moves it under
     * {@code halving}; it stays at N under {@code fixed:N}.
     */
    public List<Integer> readBufferSizes() {
        List<Integer> sizes = new ArrayList<>();
        for (IoSession s : acceptor.getManagedSessions().values()) {
            sizes.add(s.getConfig().getReadBufferSize());
        }
        return sizes;
    }

    public ServerOptions options() {
        return options;
    }

    public EchoConfig config() {
        return config;
    }

    /** Unbinds (closing every connection), disposes Mina's acceptor and processors, and waits for every thread. */
    @Override
    public void close() {
        resources.close();
    }

    @Override
    public String toString() {
        return ROLE + " (Apache Mina) on " + (address == null ? "-" : LoopbackServer.hostPort(address))
                + " (io-processors=" + options.ioThreads() + " buffers=" + options.buffers().cliName()
                + " recv-allocator=" + config.recvAllocator().cliName() + " executor=" + config.executor().cliName()
                + (config.executor() == EchoExecutor.GROUP ? "/" + config.executorThreads() : "") + ")";
    }
}
