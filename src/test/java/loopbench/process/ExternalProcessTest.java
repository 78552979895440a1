package loopbench.process;

import loopbench.metrics.ProcStat;
import loopbench.origin.ResponseBody;
import loopbench.testing.RawHttp;
import loopbench.testing.Rig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ExternalProcessTest {
    private static final List<String> TEST_JVM = List.of("-Xmx128m", "-XX:TieredStopAtLevel=1");

    /** loopbench's own L7 proxy, started the way a user's gateway is: from a command template. */
    static String proxyTemplate() {
        return "'" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -Xmx128m -XX:TieredStopAtLevel=1"
                + " -cp '" + System.getProperty("java.class.path") + "' loopbench.cli.Main proxy"
                + " --listen 127.0.0.1:{listenPort} --backend {backendHost}:{backendPort} --layer 7 --io-threads 1";
    }

    @Test
    void aTemplateIsStartedMeasuredAndStoppedWithItsWholeProcessTree() throws Exception {
        try (ServerProcess origin = ServerProcess.start("origin", List.of("--body-size", "300", "--io-threads", "1"),
                TEST_JVM)) {
            // A shell with a helper process beside the gateway: the tree is measured and stopped as one.
            CommandTemplate t = new CommandTemplate("sleep 300 & " + proxyTemplate());
            ExternalProcess proxy = ExternalProcess.start("proxy", t, "127.0.0.1", origin.address().getPort(),
                    Duration.ofSeconds(60));
            int port = proxy.port();
            List<ProcessHandle> tree;
            try {
                assertTrue(proxy.isAlive());
                assertEquals("127.0.0.1:" + port, proxy.hostPort());
                tree = ProcessHandle.of(proxy.pid()).orElseThrow().descendants().toList();
                assertTrue(tree.stream().anyMatch(h -> h.info().command().orElse("").endsWith("sleep")),
                        tree::toString);
                assertTrue(tree.stream().anyMatch(h -> h.info().command().orElse("").endsWith("java")), tree::toString);
                ProcStat.Snapshot before = proxy.procStat();
                RawHttp.Response r;
                try (RawHttp.Conn c = RawHttp.open(port)) {
                    for (int i = 0; i < 20; i++) {
                        r = c.exchange(RawHttp.get("/"));
                        assertEquals(200, r.status());
                        assertArrayEquals(ResponseBody.bytes(300), r.body());
                    }
                }
                ProcStat.Snapshot used = proxy.procStat().minus(before);
                assertTrue(used.cpuNanos() > 0, "the gateway's CPU time is read from its process tree");
                assertTrue(used.contextSwitches() > 0);
                assertTrue(proxy.io().bytesRead() > 0);
            } finally {
                assertEquals(0, proxy.stop(), proxy::stderr);
            }
            assertFalse(proxy.isAlive());
            for (ProcessHandle h : tree) {
                assertFalse(h.isAlive(), () -> h + " outlived the stop");
            }
            Rig.assertPortFree(port);
            assertEquals(0, proxy.stop(), "stop is idempotent");
        }
    }

    @Test
    void aTemplateThatNeverOpensItsPortFailsWithinTheBound() {
        CommandTemplate t = new CommandTemplate("echo starting; sleep 300 # would listen on {listenPort}");
        long start = System.nanoTime();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ExternalProcess.start("proxy", t, "127.0.0.1", 9, Duration.ofSeconds(2)));
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
        assertTrue(seconds < 2 + ExternalProcess.STOP_GRACE_SECONDS + 5, "gave up after " + seconds + " s");
        assertTrue(e.getMessage().contains("did not open 127.0.0.1:") && e.getMessage().contains("within 2 s")
                && e.getMessage().contains("sleep 300") && e.getMessage().contains("starting"), e.getMessage());
        assertNoProcess("sleep 300 # would listen");
    }

    @Test
    void aTemplateThatExitsBeforeListeningFailsAtOnceWithItsLog() {
        CommandTemplate t = new CommandTemplate("echo 'no such gateway' >&2; exit 3 # {listenPort}");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ExternalProcess.start("proxy", t, "127.0.0.1", 9, Duration.ofSeconds(60)));
        assertTrue(e.getMessage().contains("exited before it opened") && e.getMessage().contains("no such gateway"),
                e.getMessage());
    }

    /**
     * The JVM that started it is killed (SIGKILL: no shutdown hook runs): the gateway goes too. The parent's
     * temporary files (the gateway's log, deleted only on a normal exit) go to a folder the test removes.
     */
    @Test
    void nothingOutlivesAKilledParent(@TempDir Path tmp) throws Exception {
        try (ServerProcess origin = ServerProcess.start("origin", List.of("--io-threads", "1"), TEST_JVM)) {
            Process parent = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx64m", "-Djava.io.tmpdir=" + tmp, "-cp", System.getProperty("java.class.path"),
                    Parent.class.getName(),
                    "sleep 300 & " + proxyTemplate(), Integer.toString(origin.address().getPort()))
                    .redirectErrorStream(true).start();
            long pid;
            List<ProcessHandle> tree;
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream(),
                        StandardCharsets.UTF_8));
                String line = out.readLine();
                assertTrue(line != null && line.startsWith("pid "), "the parent said: " + line);
                pid = Long.parseLong(line.substring(4));
                ProcessHandle root = ProcessHandle.of(pid).orElseThrow();
                tree = java.util.stream.Stream.concat(java.util.stream.Stream.of(root), root.descendants()).toList();
                assertTrue(tree.size() >= 3, tree::toString);
            } finally {
                parent.destroyForcibly();
                parent.waitFor(30, TimeUnit.SECONDS);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ExternalProcess.STOP_GRACE_SECONDS + 10);
            for (ProcessHandle h : tree) {
                while (h.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(100);
                }
                assertFalse(h.isAlive(), () -> h + " outlived its killed parent");
            }
        }
    }

    private static void assertNoProcess(String commandLinePart) {
        Optional<ProcessHandle> left = ProcessHandle.allProcesses()
                .filter(h -> h.info().commandLine().orElse("").contains(commandLinePart)).findAny();
        assertFalse(left.isPresent(), () -> "still running: " + left);
    }

    /** A parent JVM that starts a gateway, says its pid and waits to be killed. */
    public static final class Parent {
        public static void main(String[] args) throws Exception {
            ExternalProcess p = ExternalProcess.start("proxy", new CommandTemplate(args[0]), "127.0.0.1",
                    Integer.parseInt(args[1]), Duration.ofSeconds(60));
            System.out.println("pid " + p.pid());
            System.out.flush();
            Thread.sleep(TimeUnit.MINUTES.toMillis(5));
        }
    }
}
