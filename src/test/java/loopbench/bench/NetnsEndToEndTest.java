package loopbench.bench;

import com.google.gson.JsonObject;
import loopbench.process.ServerProcess;
import loopbench.report.EndToEndMetrics;
import loopbench.topology.Affinity;
import loopbench.topology.CpuSet;
import loopbench.topology.NetnsTopology;
import loopbench.topology.Placement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code topology} and {@code link} parameters of the end-to-end benchmarks: with netns every server runs in a
 * namespace of its own and the load crosses the links (the generator, in this JVM, reaches the servers at their
 * 198.18 addresses), placement still applies, and every namespace and link is gone after the trial, also after a
 * setup that failed.
 */
class NetnsEndToEndTest {
    private static final Pattern ANSWERED = Pattern.compile("origin answered (\\d+) requests");
    private static final String MINE = "loopbench-" + ProcessHandle.current().pid() + "-";

    @TempDir
    Path sideFiles;
    private String oldSideFileDir;
    private CpuSet available;

    @BeforeEach
    void before() {
        oldSideFileDir = System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, sideFiles.toString());
        available = Affinity.available();
    }

    @AfterEach
    void nothingLeft() {
        if (oldSideFileDir == null) {
            System.clearProperty(EndToEndMetrics.SIDE_FILE_PROPERTY);
        } else {
            System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, oldSideFileDir);
        }
        assertEquals(List.of(), ServerProcess.live(), "every server process was stopped");
        if (NetnsTopology.unavailableReason() == null) {
            assertEquals(List.of(), NetnsTopology.namespaceNames().stream().filter(n -> n.startsWith(MINE)).toList());
        }
        assertEquals(available, Affinity.available(), "the fork has its CPUs back");
    }

    private static void privileged() {
        String why = NetnsTopology.unavailableReason();
        assumeTrue(why == null, why);
    }

    @Test
    void echoOverAShapedLinkRunsTheServerInItsNamespaceOnItsCpus() throws Exception {
        privileged();
        EchoEndToEndBenchmark b = SmallBenchmarks.echo(Placement.PINNED);
        b.topology = "netns";
        b.link = "1gbit";
        Map<String, Double> m;
        String namespace;
        try {
            b.startTrial(EndToEndTrial.begin("loopbench.bench.EchoEndToEndBenchmark.messages",
                    Map.of("topology", "netns", "link", "1gbit")));
            ServerProcess echo = b.trial.server(EndToEndMetrics.ECHO);
            List<String> cmd = echo.command();
            assertEquals(List.of("ip", "netns", "exec"), cmd.subList(0, 3), cmd::toString);
            namespace = cmd.get(3);
            assertTrue(namespace.startsWith(MINE) && namespace.endsWith("-echo"), namespace);
            if (available.size() >= 2) {
                assertEquals(List.of("taskset", "-c", available.highest(available.size() / 2).toString()),
                        cmd.subList(4, 7), "and on its CPUs: " + cmd);
                assertEquals(available.highest(available.size() / 2), Affinity.ofAllThreads(echo.pid()));
            }
            assertTrue(echo.hostPort().startsWith("198.1"), echo::toString);
            m = SmallBenchmarks.oneIteration(b, b::messages);
            assertTrue(echo.io().bytesWritten() >= 200L * 1024, "the echo server wrote the messages back");
        } finally {
            b.stopTrial();
        }
        assertTrue(m.get(EndToEndMetrics.ECHO_MIB_PER_SECOND) > 0);
        assertFalse(NetnsTopology.namespaceNames().contains(namespace), "its namespace is gone");
        JsonObject topology = SmallBenchmarks.onlySideFile(sideFiles).getAsJsonObject("topology");
        assertEquals("netns", topology.get("name").getAsString());
        assertEquals("1gbit", topology.get("link").getAsString());
        assertEquals(namespace, topology.getAsJsonObject("namespaces").get("echo").getAsString());
        assertTrue(topology.getAsJsonObject("addresses").get("client").getAsString().startsWith("198.1"));
        assertTrue(topology.get("setupMillis").getAsLong() > 0);
    }

    @Test
    void theL7ProxyForwardsFromItsNamespaceToTheOriginsAcrossTheSwitch() throws Exception {
        privileged();
        ProxyEndToEndBenchmark b = SmallBenchmarks.proxy("7", Placement.SHARED);
        b.topology = "netns";
        long counted;
        ServerProcess origin;
        ServerProcess proxy;
        try {
            b.startTrial(EndToEndTrial.begin("loopbench.bench.ProxyEndToEndBenchmark.requests", Map.of()));
            origin = b.trial.server(EndToEndMetrics.ORIGIN);
            proxy = b.trial.server(EndToEndMetrics.PROXY);
            assertTrue(String.join(" ", proxy.command()).contains("--backend " + origin.hostPort()), proxy::toString);
            assertTrue(proxy.hostPort().startsWith("198.1") && origin.hostPort().startsWith("198.1"));
            SmallBenchmarks.oneIteration(b, b::requests);
        } finally {
            b.stopTrial();
            counted = b.trial.generator() == null ? -1 : b.trial.generator().successes();
        }
        Matcher answered = ANSWERED.matcher(origin.stderr());
        assertTrue(answered.find(), origin::stderr);
        assertTrue(counted >= 200);
        assertEquals(counted, Long.parseLong(answered.group(1)), "the origin answered what the generator counted");
    }

    /** The namespaces are up and the origin runs in its own when the proxy refuses its options. */
    @Test
    void aSetupThatFailsHalfWayLeavesNoNamespaceProcessOrPinBehind() {
        privileged();
        ProxyEndToEndBenchmark b = SmallBenchmarks.proxy("7", Placement.PINNED);
        b.topology = "netns";
        b.link = "100mbit";
        b.maxContentLength = -1;
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> b.startTrial(EndToEndTrial.begin("loopbench.bench.ProxyEndToEndBenchmark.requests", Map.of())));
        assertTrue(e.getMessage().contains("max"), e.getMessage());
        ServerProcess origin = b.trial.server(EndToEndMetrics.ORIGIN);
        assertTrue(origin.command().contains("ip") && !origin.isAlive(),
                "the origin started in its namespace, stopped");
        // @AfterEach: no process, namespace or pinning left
    }

    @Test
    void aLinkNeedsTheNetnsTopology() {
        EchoEndToEndBenchmark b = SmallBenchmarks.echo(Placement.SHARED);
        b.link = "100mbit";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.startTrial(EndToEndTrial.begin("loopbench.bench.EchoEndToEndBenchmark.messages", Map.of())));
        assertTrue(e.getMessage().contains("'100mbit' needs topology netns") && e.getMessage().contains("none"),
                e.getMessage());
    }

    @Test
    void aBadTopologyOrLinkNamesItAndTheValidValues() {
        EchoEndToEndBenchmark b = SmallBenchmarks.echo(Placement.SHARED);
        b.topology = "docker";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.startTrial(EndToEndTrial.begin("loopbench.bench.EchoEndToEndBenchmark.messages", Map.of())));
        assertTrue(e.getMessage().contains("'docker'") && e.getMessage().contains("local, netns"), e.getMessage());
        EchoEndToEndBenchmark c = SmallBenchmarks.echo(Placement.SHARED);
        c.topology = "netns";
        c.link = "1gbps";
        e = assertThrows(IllegalArgumentException.class,
                () -> c.startTrial(EndToEndTrial.begin("loopbench.bench.EchoEndToEndBenchmark.messages", Map.of())));
        assertTrue(e.getMessage().contains("'1gbps'") && e.getMessage().contains("1gbit, 100mbit"), e.getMessage());
    }
}
