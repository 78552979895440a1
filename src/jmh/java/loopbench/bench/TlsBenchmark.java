package loopbench.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.ReferenceCountUtil;
import loopbench.embedded.EmbeddedConnection;
import loopbench.embedded.EmbeddedSocket;
import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.origin.ResponseBody;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * What does TLS cost with the JDK's provider and with OpenSSL (netty-tcnative's BoringSSL)?
 *
 * <p>No claim of the articles is about TLS; this measures what putting TLS on the proxy's client side would
 * cost, per provider. A client and a server SslHandler, each on an EmbeddedChannel that looks like a
 * socket, exchange bytes through a {@code Wire} each way (each hop copies into the reader's buffers, as a
 * socket read would). Certificate: one self-signed EC P-256 key, loopback-benchmark-only
 * ({@code src/main/resources/loopbench/tls/}); the client trusts exactly that certificate.
 * <ul>
 *   <li>{@link #fullHandshake}: new engines and channels per op, from contexts made once per trial; the
 *       client gives its engine no peer host, so neither provider's client offers a session to resume:
 *       every op is a full handshake (ECDHE + ECDSA). Handshakes per second.</li>
 *   <li>{@link #bulk16k}: on one established session, the client sends 16 KiB of application data (one TLS
 *       record) and the server decrypts it. Ops per second; MB/s = score x 16,384 / 10^6.</li>
 * </ul>
 *
 * <p>What to expect: OpenSSL handshakes several times faster than the JDK (EC math in C); for bulk AES-GCM
 * both use AES-NI, so the gap is smaller and the copies matter.
 *
 * <p>The ops run on a Netty event loop ({@link EventLoopHarnessExecutor}), with the servers' default
 * allocator (adaptive, direct). {@code provider=openssl} fails its setup if netty-tcnative cannot load,
 * naming the cause.
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar TlsBenchmark}
 */
@State(Scope.Thread)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dio.netty.leakDetection.level=disabled",
        "-Dio.netty.noUnsafe=false", EventLoopHarnessExecutor.EXECUTOR, EventLoopHarnessExecutor.EXECUTOR_CLASS})
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
// Warm-up longer than AbstractBenchmark's 3 x 1 s: the JDK provider's EC handshake takes ~8 s of JIT to settle.
@Warmup(iterations = 10, time = 1)
public class TlsBenchmark extends AbstractBenchmark {
    static final int RECORD = 16 * 1024;
    static final String CERT = "/loopbench/tls/cert.pem";
    static final String KEY = "/loopbench/tls/key.pem";
    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 50000);
    private static final InetSocketAddress SERVER = new InetSocketAddress("127.0.0.1", 8443);

    /** {@code jdk} or {@code openssl}. */
    @Param({"jdk", "openssl"})
    public String provider;

    @Param({"TLSv1.3", "TLSv1.2"})
    public String protocol;

    SslContext serverContext;
    SslContext clientContext;
    ByteBufAllocator alloc;
    /** The established session {@link #bulk16k} sends over. */
    EmbeddedConnection session;
    ByteBuf record;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        SslProvider p = sslProvider(provider);
        try (InputStream cert = resource(CERT); InputStream key = resource(KEY)) {
            serverContext = SslContextBuilder.forServer(cert, key).sslProvider(p).protocols(protocol).build();
        }
        try (InputStream cert = resource(CERT)) {
            clientContext = SslContextBuilder.forClient().sslProvider(p).protocols(protocol).trustManager(cert)
                    .endpointIdentificationAlgorithm(null) // no peer host is given, see the class comment
                    .build();
        }
        alloc = Allocator.ADAPTIVE.instance(BufferType.DIRECT);
        session = handshake();
        byte[] data = ResponseBody.bytes(RECORD);
        record = Unpooled.directBuffer(RECORD).writeBytes(data);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (session != null) {
            session.close();
        }
        if (record != null) {
            record.release();
        }
        ReferenceCountUtil.release(serverContext);
        ReferenceCountUtil.release(clientContext);
    }

    static SslProvider sslProvider(String name) {
        switch (name) {
            case "jdk":
                return SslProvider.JDK;
            case "openssl":
                if (!OpenSsl.isAvailable()) {
                    throw new IllegalStateException("provider=openssl needs netty-tcnative (BoringSSL), which cannot"
                            + " load here: " + OpenSsl.unavailabilityCause(), OpenSsl.unavailabilityCause());
                }
                return SslProvider.OPENSSL;
            default:
                throw new IllegalArgumentException("provider must be jdk or openssl, was " + name);
        }
    }

    private static InputStream resource(String name) {
        InputStream in = TlsBenchmark.class.getResourceAsStream(name);
        if (in == null) {
            throw new UncheckedIOException(new IOException(name
                    + " is not on the classpath (it lives in src/main/resources)"));
        }
        return in;
    }

    /** A client and a server channel that have completed a full handshake; the caller closes it. */
    EmbeddedConnection handshake() {
        SslHandler server = serverContext.newHandler(alloc);
        SslHandler client = clientContext.newHandler(alloc);
        EmbeddedSocket serverSide = new EmbeddedSocket(server, SERVER, CLIENT, alloc, true);
        EmbeddedSocket clientSide = new EmbeddedSocket(client, CLIENT, SERVER, alloc, true);
        EmbeddedConnection connection = new EmbeddedConnection(clientSide, serverSide);
        try {
            serverSide.open();
            clientSide.open(); // the client's SslHandler sends its ClientHello
            connection.pump();
            if (!client.handshakeFuture().isSuccess() || !server.handshakeFuture().isSuccess()) {
                Throwable cause = client.handshakeFuture().cause() != null ? client.handshakeFuture().cause()
                        : server.handshakeFuture().cause();
                throw new IllegalStateException(provider + " " + protocol + " handshake did not complete", cause);
            }
            return connection;
        } catch (RuntimeException | Error e) {
            connection.close();
            throw e;
        }
    }

    /** One full handshake on new channels and engines; returns the bytes the server sent. */
    @Benchmark
    public long fullHandshake() {
        EmbeddedConnection connection = handshake();
        long serverBytes = connection.toClient().bytes();
        connection.close();
        return serverBytes;
    }

    /** The client sends one 16 KiB record; the server decrypts it. Returns the bytes the server read. */
    @Benchmark
    public int bulk16k() {
        session.client().writeAndFlush(record.retainedDuplicate());
        session.pump();
        int received = readAll(session.server());
        if (received != RECORD) {
            throw new IllegalStateException("the server decrypted " + received + " of " + RECORD + " bytes");
        }
        return received;
    }

    /** Counts and releases the application bytes {@code side} has received. */
    static int readAll(EmbeddedSocket side) {
        int n = 0;
        Object msg;
        while ((msg = side.readInbound()) != null) {
            try {
                n += ((ByteBuf) msg).readableBytes();
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
        return n;
    }
}
