package loopbench.bench;

import com.google.gson.JsonObject;
import loopbench.process.ServerProcess;
import loopbench.report.EndToEndMetrics;
import loopbench.topology.Affinity;
import loopbench.topology.CpuSet;
import loopbench.topology.Placement;
import loopbench.topology.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The {@code placement} parameter of the end-to-end benchmarks: every server process and every thread of the fork
 * (here: this test JVM, which plays the fork) really run on the CPUs asked for, read back from /proc; the fork gets
 * its CPUs back after the trial; the side file and the per-iteration figures say where each ran and how much CPU
 * it used; a placement this machine cannot satisfy fails before anything starts, naming the CPUs it has.
 */
class PlacementEndToEndTest {
    private static final long SELF = ProcessHandle.current().pid();

    @TempDir
    Path sideFiles;
    private String oldSideFileDir;
    private CpuSet available;
    private Map<Long, CpuSet> threadsBefore;

    @BeforeEach
    void before() {
        oldSideFileDir = System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, sideFiles.toString());
        available = Affinity.available();
        threadsBefore = Affinity.byThread(SELF);
    }

    @AfterEach
    void nothingLeftAndTheForkHasItsCpusBack() {
        if (oldSideFileDir == null) {
            System.clearProperty(EndToEndMetrics.SIDE_FILE_PROPERTY);
        } else {
            System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, oldSideFileDir);
        }
        assertEquals(List.of(), ServerProcess.live(), "every server process was stopped");
        assertThreadsWhereTheyWere();
    }

    /** Every thread of this JVM that was there at the start has the CPUs it had then. */
    private void assertThreadsWhereTheyWere() {
        Affinity.byThread(SELF).forEach((tid, cpus) -> {
            if (threadsBefore.containsKey(tid)) {
                assertEquals(threadsBefore.get(tid), cpus, "thread " + tid + " has the CPUs it had");
            }
        });
    }

    private void twoCpus() {
        assumeTrue(available.size() >= 2, "needs 2 CPUs to tell components apart; this process may use " + available);
    }

    /** Every thread of {@code pid}, by thread id, runs on exactly {@code cpus}. */
    private static void assertRunsOn(CpuSet cpus, long pid, String who) {
        Map<Long, CpuSet> threads = Affinity.byThread(pid);
        assertFalse(threads.isEmpty());
        threads.forEach((tid, had) -> assertEquals(cpus, had, who + " pid " + pid + " thread " + tid + ": " + threads));
    }

    private JsonObject placementOfTheSideFile() throws Exception {
        return SmallBenchmarks.onlySideFile(sideFiles).getAsJsonObject("placement");
    }

    @Test
    void pinnedPutsTheProxyAloneOnTheUpperCpuAndTheClientAndOriginOnTheOthers() throws Exception {
        twoCpus();
        CpuSet own = available.highest(available.size() / 2);
        CpuSet rest = available.minus(own);
        ProxyEndToEndBenchmark b = SmallBenchmarks.proxy("4", Placement.PINNED);
        Map<String, Double> m;
        try {
            b.startTrial(EndToEndTrial.begin("loopbench.bench.ProxyEndToEndBenchmark.requests",
                    Map.of("layer", "4", "placement", "pinned")));
            ServerProcess proxy = b.trial.server(EndToEndMetrics.PROXY);
            ServerProcess origin = b.trial.server(EndToEndMetrics.ORIGIN);
            assertTrue(proxy.command().subList(0, 3).equals(List.of("taskset", "-c", own.toString())), proxy::toString);
            assertRunsOn(own, proxy.pid(), "proxy");
            assertRunsOn(rest, origin.pid(), "origin");
            m = SmallBenchmarks.oneIteration(b, b::requests);
            assertRunsOn(rest, SELF, "the fork (load generator), its generator threads included");
        } finally {
            b.stopTrial();
        }
        for (String role : List.of("client", "proxy", "origin")) {
            assertTrue(m.get(EndToEndMetrics.cpusUsed(role)) > 0, role + ": " + m);
        }
        assertEquals((double) own.size(), m.get(EndToEndMetrics.cpusAllowed(EndToEndMetrics.PROXY)));
        assertEquals((double) rest.size(), m.get(EndToEndMetrics.cpusAllowed(EndToEndMetrics.CLIENT)));
        JsonObject p = placementOfTheSideFile();
        assertEquals("pinned", p.get("name").getAsString());
        assertEquals(available.toString(), p.get("available").getAsString());
        JsonObject cpus = p.getAsJsonObject("cpus");
        assertEquals(own.toString(), cpus.get("proxy").getAsString());
        assertEquals(rest.toString(), cpus.get("origin").getAsString());
        assertEquals(rest.toString(), cpus.get("client").getAsString());
        JsonObject use = p.getAsJsonObject("cpuUse");
        for (String role : List.of("client", "proxy", "origin")) {
            double u = use.get(role).getAsDouble();
            assertTrue(u > 0 && u <= CpuSet.parse(cpus.get(role).getAsString()).size() + 0.05, role + " " + u);
        }
    }

    @Test
    void pinnedWithoutTheProxyKeepsItsCpusIdleAndTheOthersWhereTheyWere() throws Exception {
        twoCpus();
        CpuSet rest = available.minus(available.highest(available.size() / 2));
        ProxyEndToEndBenchmark b = SmallBenchmarks.proxy("direct", Placement.PINNED);
        try {
            b.startTrial(EndToEndTrial.begin("loopbench.bench.ProxyEndToEndBenchmark.requests",
                    Map.of("layer", "direct")));
            assertEquals(null, b.trial.server(EndToEndMetrics.PROXY));
            assertRunsOn(rest, b.trial.server(EndToEndMetrics.ORIGIN).pid(), "origin");
            SmallBenchmarks.oneIteration(b, b::requests);
            assertRunsOn(rest, SELF, "the fork");
        } finally {
            b.stopTrial();
        }
        JsonObject p = placementOfTheSideFile();
        assertEquals(available.highest(available.size() / 2).toString(),
                p.getAsJsonObject("plan").get("proxy").getAsString(), "the proxy's CPUs are kept for it");
        assertFalse(p.getAsJsonObject("cpus").has("proxy"), "no proxy process ran");
    }

    @Test
    void explicitPutsEachComponentWhereItSays() throws Exception {
        twoCpus();
        CpuSet first = available.lowest(1);
        CpuSet second = available.minus(first).lowest(1);
        String placement = "echo=" + first + "/client=" + second;
        EchoEndToEndBenchmark b = SmallBenchmarks.echo(placement);
        try {
            b.startTrial(EndToEndTrial.begin("loopbench.bench.EchoEndToEndBenchmark.messages",
                    Map.of("placement", placement)));
            assertRunsOn(first, b.trial.server(EndToEndMetrics.ECHO).pid(), "echo");
            SmallBenchmarks.oneIteration(b, b::messages);
            assertRunsOn(second, SELF, "the fork");
        } finally {
            b.stopTrial();
        }
        JsonObject p = placementOfTheSideFile();
        assertEquals(placement, p.get("name").getAsString());
        assertEquals(first.toString(), p.getAsJsonObject("cpus").get("echo").getAsString());
    }

    @Test
    void sharedLeavesEveryAffinityAlone() throws Exception {
        BlockingWorkEndToEndBenchmark b = new BlockingWorkEndToEndBenchmark();
        b.workMs = 0;
        b.strategy = "block-event-loop";
        b.connections = 4;
        b.ioThreads = 1;
        b.executorThreads = 1;
        b.clientTransport = "nio";
        b.clientIoThreads = 1;
        b.placement = Placement.SHARED;
        try {
            b.startTrial(EndToEndTrial.begin("loopbench.bench.BlockingWorkEndToEndBenchmark.requests", Map.of()));
            ServerProcess origin = b.trial.server(EndToEndMetrics.ORIGIN);
            assertFalse(origin.command().contains("taskset"), origin.command()::toString);
            assertRunsOn(available, origin.pid(), "origin");
            SmallBenchmarks.oneIteration(b, b::requests);
            assertThreadsWhereTheyWere();
        } finally {
            b.stopTrial();
        }
        JsonObject p = placementOfTheSideFile();
        assertEquals("shared", p.get("name").getAsString());
        assertEquals(0, p.getAsJsonObject("plan").size());
        assertEquals(available.toString(), p.getAsJsonObject("cpus").get("origin").getAsString());
    }

    @Test
    void aCpuThisMachineDoesNotHaveFailsBeforeAnythingStartsNamingTheCpusItHas() {
        ProxyEndToEndBenchmark b = SmallBenchmarks.proxy("7", "proxy=7/client=0/origin=0");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.startTrial(EndToEndTrial.begin("loopbench.bench.ProxyEndToEndBenchmark.requests", Map.of())));
        assertTrue(e.getMessage().contains("CPU 7") && e.getMessage().contains("may use CPUs " + available),
                e.getMessage());
        assertEquals(null, b.trial.server(EndToEndMetrics.ORIGIN), "nothing started");
    }

    @Test
    void aMisspelledPlacementNamesItselfAndTheValidForms() {
        EchoEndToEndBenchmark b = SmallBenchmarks.echo("pined");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.startTrial(EndToEndTrial.begin("loopbench.bench.EchoEndToEndBenchmark.messages", Map.of())));
        assertTrue(e.getMessage().contains("'pined'") && e.getMessage().contains(Placement.FORMS), e.getMessage());
    }

    @Test
    void theRolesArePlacedUnderTheNamesOfTheirFigures() {
        assertEquals(List.of(EndToEndMetrics.CLIENT, EndToEndMetrics.PROXY, EndToEndMetrics.ORIGIN,
                EndToEndMetrics.ECHO),
                Stream.of(Role.values()).map(Role::cliName).toList());
    }
}
