package loopbench.cli;

import loopbench.origin.ResponseBody;
import loopbench.process.ServerProcess;
import loopbench.testing.CliProcess;
import loopbench.testing.RawHttp;
import loopbench.topology.Host;
import loopbench.topology.NetnsTopology;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code loopbench netns}: the benchmarks' netns topology for servers started by hand, held until a signal, then
 * removed; a clear error without the privileges it needs.
 */
class NetnsCommandTest {

    @Test
    void holdsTheNamespacesWhileServersRunInThemAndRemovesThemOnSignal() throws Exception {
        String why = NetnsTopology.unavailableReason();
        assumeTrue(why == null, why);
        List<String> lines = new ArrayList<>();
        try (CliProcess cli = CliProcess.start("netns", "--hosts", "origin", "--link", "100mbit")) {
            for (String line = cli.nextLine(); line != null && !"ready".equals(line); line = cli.nextLine()) {
                lines.add(line);
            }
            assertEquals(2, lines.size(), cli::toString);
            String[] client = lines.get(0).split(" ");
            String[] origin = lines.get(1).split(" ");
            assertEquals(List.of("client", "-"), List.of(client[0], client[1]), cli::toString);
            assertEquals("origin", origin[0], cli::toString);
            assertTrue(origin[1].startsWith("loopbench-" + cli.pid() + "-") && origin[2].startsWith("198.1"),
                    cli::toString);
            assertTrue(NetnsTopology.namespaceNames().contains(origin[1]));
            // a server started by hand in its namespace, through the CLI contract
            ServerProcess server = ServerProcess.start("origin", List.of("--body-size", "200", "--io-threads", "1",
                    "--listen", origin[2] + ":0"), List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"),
                    new Host(origin[1], null));
            try (RawHttp.Conn c = RawHttp.open(new InetSocketAddress(origin[2], server.address().getPort()))) {
                assertArrayEquals(ResponseBody.bytes(200), c.exchange(RawHttp.get("/")).body());
            } finally {
                assertEquals(0, server.stop(), server::stderr);
            }
            cli.sigterm();
            assertEquals(0, cli.waitForExit(), cli::toString);
            assertFalse(NetnsTopology.namespaceNames().contains(origin[1]), "removed on the signal");
            assertTrue(NetnsTopology.linkNames().stream().noneMatch(n -> n.startsWith("lb" + cli.pid() + "-")));
        }
    }

    /** A killed owner runs no teardown: the next setup (here its first step alone) removes what it left. */
    @Test
    void whatAKilledOwnerLeftIsRemovedByTheNextRun() throws Exception {
        String why = NetnsTopology.unavailableReason();
        assumeTrue(why == null, why);
        List<String> namespaces = new ArrayList<>();
        long pid;
        try (CliProcess cli = CliProcess.start("netns", "--hosts", "proxy,origin")) {
            pid = cli.pid();
            for (String line = cli.nextLine(); line != null && !"ready".equals(line); line = cli.nextLine()) {
                namespaces.add(line.split(" ")[1]);
            }
            ProcessHandle.of(pid).orElseThrow().destroyForcibly(); // SIGKILL: no hook runs
            cli.waitForExit();
        }
        namespaces.remove("-");
        assertEquals(2, namespaces.size(), namespaces::toString);
        String link = "lb" + pid + "-1";
        assertTrue(NetnsTopology.namespaceNames().containsAll(namespaces), "left behind by the killed owner");
        assertTrue(NetnsTopology.linkNames().contains(link), "left behind by the killed owner");
        // Another run on the machine (a second test suite, a benchmark) may clean them up first: what counts is
        // that after a later run's clean-up nothing of the killed owner is left.
        NetnsTopology.removeStale();
        assertTrue(NetnsTopology.namespaceNames().stream().noneMatch(n -> n.startsWith("loopbench-" + pid + "-")));
        assertFalse(NetnsTopology.linkNames().contains(link));
    }

    @Test
    void withoutThePrivilegesItSaysWhichAreMissing() throws Exception {
        String why = NetnsTopology.unavailableReason();
        assumeTrue(why == null, "runs as root and drops every capability; here: " + why);
        try (CliProcess cli = CliProcess.start(List.of("setpriv", "--bounding-set", "-all", "--inh-caps", "-all"),
                "netns")) {
            assertEquals(1, cli.waitForExit(), cli::toString);
            assertTrue(cli.stderr().contains("needs root, or CAP_SYS_ADMIN (to create network namespaces) and "
                    + "CAP_NET_ADMIN (to create and shape links)"), cli::toString);
        }
    }
}
