package loopbench.bench;

import com.google.gson.JsonObject;
import loopbench.claims.SideFile;
import loopbench.knobs.Transport;
import loopbench.line.NettyLine;
import loopbench.process.ServerProcess;
import loopbench.report.EndToEndMetrics;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * ProxySideBySideBenchmark does what its name says: each cycle loads every arm, each through its own proxy (or
 * straight to the origin), and the origin answered exactly the requests the cycles counted; each arm's figures are
 * there under its own name; the side file says where each process ran and the CPU each used (no load result: a
 * generator per slice); nothing outlives the trial; a bad arm is refused before anything starts. On Netty 4.1, arms
 * of servers alone in an epoll mode each load an origin of their own in that mode, a new connection per request when
 * asked.
 */
class ProxySideBySideBenchmarkTest {
    private static final Pattern ANSWERED = Pattern.compile("origin answered (\\d+) requests");

    @TempDir
    Path sideFiles;
    private String oldSideFileDir;

    @BeforeEach
    void sideFilesHere() {
        oldSideFileDir = System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, sideFiles.toString());
    }

    @AfterEach
    void noServerLeft() {
        if (oldSideFileDir == null) {
            System.clearProperty(EndToEndMetrics.SIDE_FILE_PROPERTY);
        } else {
            System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, oldSideFileDir);
        }
        assertEquals(List.of(), ServerProcess.live(), "every server process was stopped");
    }

    private static ProxySideBySideBenchmark small(String arms) {
        ProxySideBySideBenchmark b = new ProxySideBySideBenchmark();
        b.arms = arms;
        b.sliceSeconds = 0.3;
        b.transport = "nio";
        b.connections = 4;
        b.bodySize = 100;
        b.maxContentLength = 2000;
        b.l7Mode = "aggregate";
        b.ioThreads = 1;
        b.originIoThreads = 1;
        b.clientTransport = "nio";
        b.clientIoThreads = 1;
        return b;
    }

    @Test
    void everyCycleLoadsEveryArmThroughItsOwnProxy() throws Exception {
        // the last arm is a twin of the one before: the same configuration, its own process and figures
        ProxySideBySideBenchmark b = small("direct;4;7/individual-group/pooled;7/individual-group/pooled/twin-b");
        long served = 0;
        ServerProcess origin;
        Map<String, Double> m;
        List<ServerProcess> proxies;
        try {
            b.startServers(EndToEndTrial.begin(ProxySideBySideBenchmark.class.getName() + ".cycle",
                    Map.of("arms", b.arms)));
            origin = b.trial().server(EndToEndMetrics.ORIGIN);
            proxies = List.of(b.trial().server("proxy[4/reuse-server-thread/adaptive]"),
                    b.trial().server("proxy[7/individual-group/pooled]"),
                    b.trial().server("proxy[7/individual-group/pooled/twin-b]"));
            assertNotEquals(proxies.get(1).pid(), proxies.get(2).pid(), "a twin is its own process");
            String l7 = String.join(" ", proxies.get(1).command());
            assertTrue(l7.contains("--layer 7") && l7.contains("--thread-model individual-group")
                    && l7.contains("--allocator pooled") && l7.contains("--max-content-length 2000"), l7);
            long[] readBefore = proxies.stream().mapToLong(p -> p.io().bytesRead()).toArray();
            for (int cycle = 0; cycle < 2; cycle++) {
                served += b.cycle();
            }
            m = b.trial().lastIterationMetrics();
            for (int i = 0; i < proxies.size(); i++) {
                assertTrue(proxies.get(i).io().bytesRead() - readBefore[i] > 100L * 4,
                        "responses went through " + proxies.get(i));
            }
        } finally {
            b.stop();
        }
        assertEquals(served, answered(origin), "the origin answered exactly what the cycles counted");
        for (String arm : List.of("direct", "4/reuse-server-thread/adaptive", "7/individual-group/pooled",
                "7/individual-group/pooled/twin-b")) {
            assertTrue(m.get(EndToEndMetrics.arm(arm, EndToEndMetrics.REQUESTS_PER_SECOND)) > 0, arm + ": " + m);
            assertTrue(m.get(EndToEndMetrics.arm(arm, EndToEndMetrics.cpu(EndToEndMetrics.ORIGIN))) > 0, arm);
            assertTrue(m.get(EndToEndMetrics.arm(arm, EndToEndMetrics.cpu(EndToEndMetrics.CLIENT))) > 0, arm);
            double connects = m.get(EndToEndMetrics.arm(arm, EndToEndMetrics.CONNECTIONS_PER_REQUEST));
            assertTrue(connects > 0 && connects <= 4.0 / 20, "keep-alive: at most the slice's 4 connections for "
                    + "many requests: " + connects);
            String proxyCpu = EndToEndMetrics.arm(arm, EndToEndMetrics.cpu(EndToEndMetrics.PROXY));
            if ("direct".equals(arm)) {
                assertNull(m.get(proxyCpu), "no proxy, no proxy figures: " + m);
            } else {
                assertTrue(m.get(proxyCpu) > 0, arm + ": " + m);
                assertTrue(m.get(EndToEndMetrics.arm(arm, EndToEndMetrics.contextSwitches(EndToEndMetrics.PROXY)))
                        > 0, arm + ": " + m);
            }
        }
        assertTrue(m.get(EndToEndMetrics.IDLE_ARMS_CPUS) >= 0, m::toString);
        assertEquals(java.util.Set.of(0.0, 1.0, 2.0), java.util.Set.of(
                m.get(EndToEndMetrics.arm("4/reuse-server-thread/adaptive", EndToEndMetrics.START_POSITION)),
                m.get(EndToEndMetrics.arm("7/individual-group/pooled", EndToEndMetrics.START_POSITION)),
                m.get(EndToEndMetrics.arm("7/individual-group/pooled/twin-b", EndToEndMetrics.START_POSITION))),
                "each proxy's place in the order they started: " + m);
        JsonObject side = SmallBenchmarks.onlySideFile(sideFiles);
        assertFalse(side.has("load"), "no one load result: a generator per slice");
        JsonObject placement = side.getAsJsonObject("placement");
        assertEquals(b.placement, placement.get("name").getAsString());
        for (String role : List.of("client", "proxy", "origin")) {
            assertTrue(placement.getAsJsonObject("cpus").has(role), role + ": " + placement);
            assertTrue(placement.getAsJsonObject("cpuUse").get(role).getAsDouble() > 0, role + ": " + placement);
        }
        assertTrue(SideFile.read(onlyFile()).cpus().containsKey("proxy"), "the claims read it");
        assertFalse(origin.isAlive());
        proxies.forEach(p -> assertFalse(p.isAlive(), p::toString));
    }

    @Test
    void everyArmStartsFirstInSomeForks() {
        List<ProxySideBySideBenchmark.Arm> arms = ProxySideBySideBenchmark.Arm.parseAll("direct;4;7;7/"
                + "reuse-server-thread/adaptive/twin-b");
        java.util.Random random = new java.util.Random(27);
        Map<ProxySideBySideBenchmark.Arm, Integer> first = new java.util.HashMap<>();
        for (int fork = 0; fork < 200; fork++) {
            List<ProxySideBySideBenchmark.Arm> order = ProxySideBySideBenchmark.startOrder(arms, random);
            assertEquals(java.util.Set.copyOf(arms), java.util.Set.copyOf(order), "a permutation");
            first.merge(order.get(0), 1, Integer::sum);
        }
        for (ProxySideBySideBenchmark.Arm a : arms) {
            assertTrue(first.getOrDefault(a, 0) > 20, a.name() + " first in " + first.get(a) + " of 200");
        }
    }

    @Test
    void aBadArmIsRefusedBeforeAnythingStarts() {
        Map<String, String> named = Map.of("4;5", "'5'", "4", "at least two", "4;4/reuse-server-thread",
                "4/reuse-server-thread/adaptive twice", "4;7/threads", "threads", "direct;4/x/y/z", "'4/x/y/z'",
                "4;4/twin-b", "'4/twin-b'", "4;4/reuse-server-thread/adaptive/twin",
                "'4/reuse-server-thread/adaptive/twin'", "7/reuse-server-thread/adaptive/twin-b;"
                        + "7/reuse-server-thread/adaptive/twin-b", "adaptive/twin-b twice");
        named.forEach((arms, says) -> {
            ProxySideBySideBenchmark b = small(arms);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> b.startServers(EndToEndTrial.begin("ProxySideBySideBenchmark.cycle", Map.of())), arms);
            assertTrue(e.getMessage().contains(says), arms + ": " + e.getMessage());
            assertNull(b.trial().server(EndToEndMetrics.ORIGIN), "no server was started");
        });
    }

    @Test
    void epollArmsAreNamedByTheirMode() {
        List<ProxySideBySideBenchmark.Arm> arms = ProxySideBySideBenchmark.Arm.parseAll(
                "direct/edge-edge;direct/level-edge;direct/level-edge/twin-b;direct");
        assertEquals(List.of("direct/edge-edge", "direct/level-edge", "direct/level-edge/twin-b", "direct"),
                arms.stream().map(ProxySideBySideBenchmark.Arm::name).toList());
        assertEquals(List.of(true, true, true, false), arms.stream().map(ProxySideBySideBenchmark.Arm::ownOrigin)
                .toList());
        for (String bad : List.of("direct/edge", "direct/edge-fast", "direct/edge-edge/x",
                "direct/twin-b/edge-edge")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ProxySideBySideBenchmark.Arm.parse(bad), bad);
            assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("EPOLL_MODE"),
                    e.getMessage());
        }
    }

    /** An epoll arm where this line or transport cannot set the mode: refused, saying why, before anything starts. */
    @Test
    void anEpollArmTheLineCannotHaveIsRefusedFirst() {
        ProxySideBySideBenchmark b = small("direct/edge-edge;direct/level-level");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.startServers(EndToEndTrial.begin("ProxySideBySideBenchmark.cycle", Map.of())));
        assertTrue(e.getMessage().contains(NettyLine.current().epollModeRefusal() == null ? "needs --transport epoll"
                : "level-triggered only"), e.getMessage());
        assertNull(b.trial().server(EndToEndMetrics.ORIGIN), "no server was started");
        assertEquals(List.of(), ServerProcess.live());
    }

    /**
     * Netty 4.1 (C004-1's line): each epoll arm loads an origin of its own, started in its mode (read back from its
     * listening socket), a new connection per request; no shared origin starts when every arm has its own.
     */
    @Test
    void eachEpollArmLoadsAnOriginOfItsOwnInItsMode() throws Exception {
        assumeTrue(NettyLine.current().epollModeRefusal() == null, NettyLine.current()::epollModeRefusal);
        assumeTrue(Transport.EPOLL.isAvailable(), "native epoll is not available here");
        ProxySideBySideBenchmark b = small("direct/edge-edge;direct/level-edge");
        b.transport = "epoll";
        b.connection = "close";
        Map<String, Double> m;
        List<ServerProcess> origins;
        long served = 0;
        try {
            b.startServers(EndToEndTrial.begin(ProxySideBySideBenchmark.class.getName() + ".cycle",
                    Map.of("arms", b.arms)));
            assertNull(b.trial().server(EndToEndMetrics.ORIGIN), "no shared origin: every arm has its own");
            origins = List.of(b.trial().server("origin[direct/edge-edge]"),
                    b.trial().server("origin[direct/level-edge]"));
            assertEquals("edge,edge", origins.get(0).stack().get("epoll-mode"), origins.get(0)::toString);
            assertEquals("level,edge", origins.get(1).stack().get("epoll-mode"), origins.get(1)::toString);
            for (int cycle = 0; cycle < 2; cycle++) {
                served += b.cycle();
            }
            m = b.trial().lastIterationMetrics();
        } finally {
            b.stop();
        }
        assertEquals(served, answered(origins.get(0)) + answered(origins.get(1)),
                "the two origins answered exactly what the cycles counted");
        for (String arm : List.of("direct/edge-edge", "direct/level-edge")) {
            assertTrue(m.get(EndToEndMetrics.arm(arm, EndToEndMetrics.REQUESTS_PER_SECOND)) > 0, arm + ": " + m);
            assertTrue(m.get(EndToEndMetrics.arm(arm, EndToEndMetrics.cpu(EndToEndMetrics.ORIGIN))) > 0, arm);
            double connects = m.get(EndToEndMetrics.arm(arm, EndToEndMetrics.CONNECTIONS_PER_REQUEST));
            assertTrue(connects >= 1.0 && connects < 1.2, "a new connection per request: " + connects);
        }
        assertEquals(java.util.Set.of(0.0, 1.0), java.util.Set.of(
                m.get(EndToEndMetrics.arm("direct/edge-edge", EndToEndMetrics.START_POSITION)),
                m.get(EndToEndMetrics.arm("direct/level-edge", EndToEndMetrics.START_POSITION))));
        origins.forEach(p -> assertFalse(p.isAlive(), p::toString));
    }

    private Path onlyFile() throws IOException {
        try (Stream<Path> files = Files.list(sideFiles)) {
            return files.findFirst().orElseThrow();
        }
    }

    private static long answered(ServerProcess origin) {
        Matcher matcher = ANSWERED.matcher(origin.stderr());
        assertTrue(matcher.find(), () -> "the origin says how many requests it answered:\n" + origin.stderr());
        return Long.parseLong(matcher.group(1));
    }
}
