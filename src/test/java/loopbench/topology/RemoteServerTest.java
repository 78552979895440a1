package loopbench.topology;

import loopbench.metrics.ProcStat;
import loopbench.origin.ResponseBody;
import loopbench.testing.RawHttp;
import loopbench.testing.Rig;
import loopbench.testing.TestSshd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Servers on "another machine": this one, through an sshd the test starts on a loopback port. */
class RemoteServerTest {
    @RegisterExtension
    static final TestSshd sshd = new TestSshd();

    @Test
    void aServerOnAnotherHostIsStartedMeasuredAndStopped() throws Exception {
        HostsFile hosts = HostsFile.parse(sshd.hosts("origin"), "test hosts");
        RemoteServer origin = hosts.startServer("origin", "origin", List.of("--body-size", "300", "--io-threads", "1"));
        int port;
        try {
            assertTrue(origin.isAlive());
            assertTrue(origin.hostPort().startsWith("127.0.0.1:"), origin.hostPort());
            port = Integer.parseInt(origin.hostPort().substring("127.0.0.1:".length()));
            // The jar was copied there with scp, under its content's name.
            String classPath = hosts.jvm(origin.host()).classPath();
            assertTrue(classPath.matches("/tmp/loopbench-[0-9a-f]{16}\\.jar"), classPath);
            assertTrue(Files.isRegularFile(Path.of(classPath)), classPath);
            ProcStat.Snapshot before = origin.procStat();
            try (RawHttp.Conn c = RawHttp.open(port)) {
                for (int i = 0; i < 20; i++) {
                    RawHttp.Response r = c.exchange(RawHttp.get("/"));
                    assertEquals(200, r.status());
                    assertArrayEquals(ResponseBody.bytes(300), r.body());
                }
            }
            ProcStat.Snapshot used = origin.procStat().minus(before);
            assertTrue(used.cpuNanos() > 0 && used.contextSwitches() > 0, "read from /proc there: " + used);
            assertTrue(origin.io().bytesWritten() >= 20 * 300);
            // There is this machine: the pid it reported is the server's, a JVM running the origin command.
            String there = ProcessHandle.of(origin.remotePid()).flatMap(h -> h.info().commandLine()).orElse("");
            assertTrue(there.contains("loopbench.cli.Main origin"), there);
        } finally {
            assertEquals(0, origin.stop(), origin::stderr);
        }
        assertFalse(origin.isAlive());
        awaitGone(origin.remotePid());
        Rig.assertPortFree(port);
    }

    @Test
    void aDroppedLinkLeavesNoProcessBehind() throws Exception {
        HostsFile hosts = HostsFile.parse(sshd.hosts("proxy"), "test hosts");
        RemoteServer echo = hosts.startServer("proxy", "echo", List.of("--io-threads", "1"));
        long remotePid = echo.remotePid();
        int port = Integer.parseInt(echo.hostPort().substring(echo.hostPort().lastIndexOf(':') + 1));
        try {
            assertTrue(ProcessHandle.of(remotePid).isPresent());
            // The link drops: the ssh client dies at once, nothing is said to the other side.
            echo.sshProcess().destroyForcibly();
            echo.sshProcess().waitFor(30, TimeUnit.SECONDS);
            awaitGone(remotePid);
            Rig.assertPortFree(port);
        } finally {
            echo.stop();
        }
    }

    /** The link goes silent without a reset (the ssh client frozen): the server stops after its heartbeat. */
    @Test
    void aLinkThatGoesSilentLeavesNoProcessBehind() throws Exception {
        Properties p = sshd.hosts("origin");
        p.setProperty("heartbeat", "2s");
        HostsFile hosts = HostsFile.parse(p, "test hosts");
        RemoteServer origin = hosts.startServer("origin", "origin", List.of("--io-threads", "1"));
        long ssh = origin.sshProcess().pid();
        try {
            Thread.sleep(3_000); // the heartbeat keeps it up meanwhile
            assertTrue(ProcessHandle.of(origin.remotePid()).isPresent(), "alive while the link carries heartbeats");
            signal("STOP", ssh); // the connection stays up; nothing more goes through it
            awaitGone(origin.remotePid());
        } finally {
            signal("CONT", ssh);
            origin.stop();
        }
    }

    private static void signal(String name, long pid) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start().waitFor());
    }

    private static void awaitGone(long pid) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        while (h.isPresent() && h.get().isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertFalse(h.isPresent() && h.get().isAlive(), () -> "pid " + pid + " outlived its session");
    }
}
