package loopbench.peers;

import loopbench.origin.ResponseBody;
import loopbench.process.CommandTemplate;
import loopbench.process.ExternalProcess;
import loopbench.process.ServerProcess;
import loopbench.testing.RawHttp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Zuul 2 peer (src/peers/zuul, built into target/peers/zuul.jar by every build unless -DskipPeers) in front of
 * loopbench's origin, started as the end-to-end benchmarks start an external gateway: from a command template.
 */
class ZuulPeerTest {
    static final Path JAR = Path.of("target", "peers", "zuul.jar");

    @BeforeAll
    static void peerBuilt() {
        assumeTrue(Files.isReadable(JAR), JAR + " was not built (the build makes it unless -DskipPeers; alone: "
                + "./mvnw -f src/peers/zuul/pom.xml package)");
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Test
    void zuulForwardsGetsAndPostsIntact() throws Exception {
        try (ServerProcess origin = ServerProcess.start("origin", List.of("--body-size", "5000", "--io-threads", "1"),
                List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"))) {
            CommandTemplate t = new CommandTemplate("'" + java() + "' -Xmx256m -jar " + JAR.toAbsolutePath()
                    + " --listen 127.0.0.1:{listenPort} --backend {backendHost}:{backendPort} --io-threads 1");
            try (ExternalProcess zuul = ExternalProcess.start("proxy", t, "127.0.0.1", origin.address().getPort(),
                    Duration.ofSeconds(90))) {
                try (RawHttp.Conn c = RawHttp.open(zuul.port())) {
                    for (int i = 0; i < 3; i++) { // keep-alive: the same connection each time
                        RawHttp.Response get = c.exchange(RawHttp.get("/"));
                        assertEquals(200, get.status(), zuul::stderr);
                        assertArrayEquals(ResponseBody.bytes(5000), get.body());
                        byte[] body = RawHttp.uniqueBody(i, 20_000);
                        RawHttp.Response post = c.exchange(RawHttp.post("/echo", body));
                        assertEquals(200, post.status(), zuul::stderr);
                        assertArrayEquals(body, post.body());
                    }
                }
                assertTrue(zuul.stderr().contains("zuul peer: Zuul 2 on"), zuul::stderr);
            }
        }
    }

    @Test
    void badUsageExitsTwoNamingTheValidValues() throws Exception {
        Process p = new ProcessBuilder(java(), "-jar", JAR.toString(), "--backend", "127.0.0.1:1", "--transport", "kq")
                .redirectErrorStream(true).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.exitValue(), out);
        assertTrue(out.contains("'kq' is not one of epoll, nio, io_uring"), out);
    }

    /** Starts the peer on a free port in front of a closed port, and waits for its ready line. */
    private static Process startedPeer() throws Exception {
        Process p = new ProcessBuilder(java(), "-Xmx256m", "-jar", JAR.toString(), "--listen", "127.0.0.1:0",
                "--backend", "127.0.0.1:1", "--io-threads", "1", "--exit-with-parent")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        java.io.BufferedReader out = new java.io.BufferedReader(new java.io.InputStreamReader(p.getInputStream(),
                StandardCharsets.UTF_8));
        String line = out.readLine();
        assertTrue(line != null && line.startsWith("listening on "), "ready line: " + line);
        return p;
    }

    @Test
    void theEndOfStdinStopsThePeer() throws Exception {
        Process p = startedPeer();
        try {
            p.getOutputStream().close(); // what the parent's death does to --exit-with-parent
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the peer outlived its parent's stdin");
        } finally {
            p.destroyForcibly();
        }
    }

    @Test
    void sigtermStopsThePeer() throws Exception {
        Process p = startedPeer();
        try {
            p.destroy(); // SIGTERM
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the peer ignored SIGTERM");
        } finally {
            p.destroyForcibly();
        }
    }
}
