package loopbench.process;

import loopbench.line.NettyLine;
import loopbench.metrics.MemoryReport;
import loopbench.metrics.ProcStat;
import loopbench.origin.ResponseBody;
import loopbench.testing.CliProcess;
import loopbench.testing.RawHttp;
import loopbench.testing.Rig;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ServerProcessTest {
    /** A small heap and C1 only: these children serve a handful of requests, not a benchmark. */
    private static final List<String> TEST_JVM = List.of("-Xmx128m", "-XX:TieredStopAtLevel=1");

    @Test
    void startsServesAndStopsAnOriginInItsOwnProcess() throws Exception {
        ServerProcess origin = ServerProcess.start("origin", List.of("--body-size", "300", "--io-threads", "1"),
                TEST_JVM);
        int port = origin.address().getPort();
        try {
            assertTrue(origin.isAlive());
            assertTrue(ServerProcess.live().contains(origin));
            assertTrue(origin.pid() != ProcessHandle.current().pid());
            ProcStat.Io before = origin.io();
            byte[] request = RawHttp.get("/");
            RawHttp.Response r;
            try (RawHttp.Conn c = RawHttp.open(port)) {
                r = c.exchange(request);
            }
            assertEquals(200, r.status());
            assertArrayEquals(ResponseBody.bytes(300), r.body());
            ProcStat.Io traffic = origin.io().minus(before);
            // It read the request and wrote the response (header + 300 bytes) with read/write system calls.
            assertTrue(traffic.bytesRead() >= request.length, () -> "read " + traffic);
            assertTrue(traffic.bytesWritten() >= 300, () -> "wrote " + traffic);
            assertTrue(origin.procStat().cpuNanos() > 0);
        } finally {
            assertEquals(0, origin.stop(), origin::stderr);
        }
        assertFalse(origin.isAlive());
        assertFalse(ServerProcess.live().contains(origin));
        assertTrue(origin.stderr().contains("origin stopped"), origin::stderr);
        Rig.assertPortFree(port);
        assertEquals(0, origin.stop(), "stop is idempotent");
    }

    /**
     * A server in its own process reports its memory when asked on its stdin, with its allocator's figures and its
     * Netty's version, as many times as asked; a server without a Netty allocator (Mina) reports the process only.
     */
    @Test
    void aServerReportsItsMemoryWhenAsked() throws Exception {
        try (ServerProcess echo = ServerProcess.start("echo", List.of("--allocator", "pooled", "--io-threads", "1"),
                TEST_JVM); ServerProcess mina = ServerProcess.start("echo", List.of("--server", "mina",
                "--io-threads", "1"), TEST_JVM)) {
            for (int i = 0; i < 2; i++) {
                MemoryReport r = echo.memory();
                assertEquals("pooled", r.allocator(), r::line);
                assertEquals(NettyLine.current().version(), r.netty(), r::line);
                assertTrue(r.figures().containsKey(MemoryReport.ALLOCATOR_DIRECT_RESERVED), r::line);
                assertTrue(r.figures().containsKey(MemoryReport.ALLOCATOR_DIRECT_IN_USE), r::line);
                assertTrue(r.figures().get(MemoryReport.RSS) > 0, r::line);
            }
            MemoryReport m = mina.memory();
            assertEquals(MemoryReport.NO_ALLOCATOR, m.allocator(), m::line);
            assertTrue(m.figures().get(MemoryReport.RSS) > 0, m::line);
        }
    }

    /** The path the end-to-end echo benchmark takes to Mina: {@code echo --server mina ...} in a child JVM. */
    @Test
    void startsEchoesAndStopsAMinaEchoServerInItsOwnProcess() throws Exception {
        ServerProcess echo = ServerProcess.start("echo", List.of("--server", "mina", "--recv-allocator", "fixed:2048",
                "--executor", "group", "--executor-threads", "1", "--io-threads", "1"), TEST_JVM);
        int port = echo.address().getPort();
        try {
            assertTrue(echo.isAlive());
            byte[] message = RawHttp.uniqueBody(7, 5 * 1024);
            try (RawHttp.Conn c = RawHttp.open(port)) {
                for (int i = 0; i < 3; i++) {
                    c.send(message);
                    assertArrayEquals(message, RawHttp.readExactly(c.in(), message.length));
                }
            }
            // Mina's own defaults where nothing was asked: heap buffers; the rest as asked.
            assertTrue(echo.stderr().contains("echo (Apache Mina)") && echo.stderr().contains(
                    "io-processors=1 buffers=heap recv-allocator=fixed:2048 executor=group/1"), echo::stderr);
        } finally {
            assertEquals(0, echo.stop(), echo::stderr);
        }
        assertTrue(echo.stderr().contains("echo stopped"), echo::stderr);
        Rig.assertPortFree(port);
    }

    @Test
    void aMinaEchoServerStopsWhenItsParentGoes() throws Exception {
        try (CliProcess server = CliProcess.start("echo", "--server", "mina", "--exit-with-parent")) {
            assertEquals(0, server.waitForExit(), server::toString);
            assertTrue(server.stderr().contains("echo stopped"), server::stderr);
        }
    }

    @Test
    void aServerThatCannotStartIsReportedWithItsStderr() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ServerProcess.start("origin", List.of("--transport", "carrier-pigeon"), TEST_JVM));
        assertTrue(e.getMessage().contains("carrier-pigeon") && e.getMessage().contains("valid values"),
                e.getMessage());
        assertTrue(ServerProcess.live().isEmpty());
    }

    @Test
    void exitWithParentStopsAServerWhenItsStdinCloses() throws IOException, InterruptedException {
        // CliProcess closes the child's stdin right away: that is what the child sees when its parent dies.
        try (CliProcess server = CliProcess.start("origin", "--exit-with-parent")) {
            assertEquals(0, server.waitForExit(), server::toString);
            assertTrue(server.stderr().contains("origin stopped"), server::stderr);
        }
    }
}
