package loopbench.bench;

import loopbench.report.EndToEndMetrics;
import loopbench.testing.TestSshd;
import loopbench.topology.HostsFile;
import loopbench.topology.Placement;
import loopbench.topology.RemoteServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code -Dloopbench.hosts}: the benchmark's origin on "another machine" (this one, through a test sshd). */
class RemoteHostsEndToEndTest {
    @RegisterExtension
    static final TestSshd sshd = new TestSshd();

    @TempDir
    Path dir;

    @AfterEach
    void clear() {
        System.clearProperty(HostsFile.PROPERTY);
        System.clearProperty(EndToEndMetrics.SIDE_FILE_PROPERTY);
    }

    private void hostsFile(Properties p) throws Exception {
        Path file = dir.resolve("hosts.properties");
        try (Writer w = Files.newBufferedWriter(file)) {
            p.store(w, null);
        }
        System.setProperty(HostsFile.PROPERTY, file.toString());
        System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, dir.resolve("e2e").toString());
    }

    @Test
    void theOriginRunsOnAnotherHostIsMeasuredThereAndStopped() throws Exception {
        hostsFile(sshd.hosts("origin"));
        ProxyEndToEndBenchmark b = SmallBenchmarks.proxy("7", Placement.SHARED);
        Map<String, Double> m;
        RemoteServer origin;
        try {
            b.startTrial(EndToEndTrial.begin("loopbench.bench.ProxyEndToEndBenchmark.requests", Map.of("layer", "7")));
            origin = (RemoteServer) b.trial.component(EndToEndMetrics.ORIGIN);
            m = SmallBenchmarks.oneIteration(b, b::requests);
        } finally {
            b.stopTrial();
        }
        assertEquals(0.0, m.get(EndToEndMetrics.ERRORS));
        assertTrue(m.get(EndToEndMetrics.cpu(EndToEndMetrics.ORIGIN)) > 0, "read there: " + m);
        assertTrue(m.get(EndToEndMetrics.BYTES_RESPONSE_BACK) >= 100, "the origin's bytes, from /proc there: " + m);
        assertFalse(origin.isAlive());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (ProcessHandle.of(origin.remotePid()).isPresent() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertFalse(ProcessHandle.of(origin.remotePid()).isPresent(), "the origin there was stopped");
    }

    @Test
    void aRemoteClientIsRefusedInTheBenchmarks() throws Exception {
        hostsFile(sshd.hosts("client"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EndToEndTrial.begin("loopbench.bench.ProxyEndToEndBenchmark.requests", Map.of()));
        assertTrue(e.getMessage().contains("client must be local in the benchmarks"), e.getMessage());
    }
}
