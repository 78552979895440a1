package loopbench.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.ssl.ReferenceCountedOpenSslEngine;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import loopbench.embedded.EmbeddedConnection;
import loopbench.embedded.EmbeddedSocket;
import loopbench.origin.ResponseBody;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.openjdk.jmh.infra.Blackhole;

import javax.net.ssl.SSLEngine;
import java.io.InputStream;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TlsBenchmark's pairs really do TLS with the provider they claim: the handshake completes with the
 * protocol asked for, every handshake is a full one (the server's certificate crosses the wire each time),
 * and application bytes cross intact both ways, encrypted.
 */
@Tag("jdk25")
class TlsBenchmarkTest {
    private static final Blackhole BH = TestBlackhole.INSTANCE;

    private static TlsBenchmark benchmark(String provider, String protocol) throws Exception {
        TlsBenchmark b = new TlsBenchmark();
        b.provider = provider;
        b.protocol = protocol;
        b.setUp();
        return b;
    }

    private static SSLEngine engine(EmbeddedSocket side) {
        return side.pipeline().get(SslHandler.class).engine();
    }

    private static int certificateLength() throws Exception {
        try (InputStream in = TlsBenchmark.class.getResourceAsStream(TlsBenchmark.CERT)) {
            X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
            return cert.getEncoded().length;
        }
    }

    /** Sends {@code payload} from {@code from} to {@code to} over {@code c}; returns what {@code to} read. */
    private static byte[] send(EmbeddedConnection c, EmbeddedSocket from, EmbeddedSocket to, byte[] payload) {
        from.writeAndFlush(Unpooled.wrappedBuffer(payload));
        c.pump();
        ByteBuf got = Unpooled.buffer();
        try {
            Object msg;
            while ((msg = to.readInbound()) != null) {
                try {
                    got.writeBytes((ByteBuf) msg);
                } finally {
                    ReferenceCountUtil.release(msg);
                }
            }
            byte[] bytes = new byte[got.readableBytes()];
            got.readBytes(bytes);
            return bytes;
        } finally {
            got.release();
        }
    }

    @ParameterizedTest
    @CsvSource({"jdk,TLSv1.3", "jdk,TLSv1.2", "openssl,TLSv1.3", "openssl,TLSv1.2"})
    void thePairSpeaksTlsWithTheClaimedProvider(String provider, String protocol) throws Exception {
        TlsBenchmark b = benchmark(provider, protocol);
        try {
            EmbeddedConnection s = b.session;
            // setUp's handshake used contexts nobody had used before: certainly a full one.
            long fullHandshakeBytes = s.toClient().bytes();
            for (EmbeddedSocket side : new EmbeddedSocket[] {s.client(), s.server()}) {
                SSLEngine engine = engine(side);
                assertEquals(protocol, engine.getSession().getProtocol());
                if ("openssl".equals(provider)) {
                    assertInstanceOf(ReferenceCountedOpenSslEngine.class, engine, "OpenSSL engine");
                } else {
                    assertFalse(engine instanceof ReferenceCountedOpenSslEngine, engine.getClass().getName());
                    assertTrue(engine.getClass().getName().startsWith("sun.security.ssl."),
                            engine.getClass().getName());
                }
            }
            assertEquals(engine(s.client()).getSession().getCipherSuite(),
                    engine(s.server()).getSession().getCipherSuite());

            // Application bytes, both ways, intact; and not in the clear on the wire.
            byte[] up = ResponseBody.bytes(TlsBenchmark.RECORD);
            long wireBefore = s.toServer().bytes();
            byte[] got = send(s, s.client(), s.server(), up);
            assertEquals(up.length, got.length);
            assertTrue(java.util.Arrays.equals(up, got), "client to server bytes intact");
            assertTrue(s.toServer().bytes() - wireBefore > up.length, "record framing and tag on the wire");
            byte[] down = ResponseBody.bytes(40_000); // more than two records
            assertTrue(java.util.Arrays.equals(down, send(s, s.server(), s.client(), down)),
                    "server to client bytes intact");

            // The benchmark ops.
            for (int i = 0; i < 3; i++) {
                long wire = s.toServer().bytes();
                assertEquals(TlsBenchmark.RECORD, b.bulk16k());
                assertTrue(s.toServer().bytes() - wire > TlsBenchmark.RECORD, "encrypted on the wire");
            }
            // Every op is a full handshake too: a resumed one would not send the certificate (nor sign
            // anything with it), and would be hundreds of bytes shorter.
            int cert = certificateLength();
            for (int i = 0; i < 3; i++) {
                long serverBytes = b.fullHandshake();
                BH.consume(serverBytes);
                assertTrue(Math.abs(serverBytes - fullHandshakeBytes) < cert / 2, "server sent " + serverBytes
                        + " bytes; a full handshake sends " + fullHandshakeBytes + ", the certificate is " + cert);
            }
        } finally {
            b.tearDown();
        }
    }
}
