package loopbench.topology;

import loopbench.origin.ResponseBody;
import loopbench.process.ServerProcess;
import loopbench.testing.RawHttp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Network namespaces with real links: the servers are reachable only through their links, a shaped link really
 * limits the rate, the addresses are RFC 2544's and nothing routes out, and nothing is left behind: after a run,
 * after a setup that failed, and after an owner that died without cleaning up.
 */
class NetnsTopologyTest {
    /** A small heap and C1 only: these servers serve a handful of requests. */
    private static final List<String> TEST_JVM = List.of("-Xmx128m", "-XX:TieredStopAtLevel=1");
    private static final String MINE = "loopbench-" + ProcessHandle.current().pid() + "-";

    @BeforeEach
    void privileged() {
        String why = NetnsTopology.unavailableReason();
        assumeTrue(why == null, why);
    }

    @AfterEach
    void nothingOfThisProcessLeft() {
        assertEquals(List.of(), NetnsTopology.namespaceNames().stream().filter(n -> n.startsWith(MINE)).toList());
        assertEquals(List.of(), NetnsTopology.linkNames().stream()
                .filter(n -> n.startsWith("lb" + ProcessHandle.current().pid() + "-")).toList());
        assertEquals(List.of(), ServerProcess.live());
    }

    private static String ip(String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of("ip"));
        cmd.addAll(List.of(args));
        return SystemCommand.run(cmd.toArray(new String[0]));
    }

    @Test
    void everyHostHasOneAddressInTheBenchmarkRangeAndNoRouteOut() {
        Set<Role> roles = EnumSet.of(Role.CLIENT, Role.PROXY, Role.ORIGIN);
        try (NetnsTopology t = NetnsTopology.create(roles, LinkSpec.UNSHAPED)) {
            assertEquals(3, t.namespaces().size(), "switch, proxy, origin: " + t.namespaces());
            assertTrue(NetnsTopology.namespaceNames().containsAll(t.namespaces()));
            assertEquals(null, t.namespace(Role.CLIENT), "the client is this namespace");
            for (Role r : roles) {
                String a = t.address(r).getHostAddress();
                assertTrue(a.startsWith("198.18.") || a.startsWith("198.19."), a);
            }
            for (Role r : List.of(Role.PROXY, Role.ORIGIN)) {
                String ns = t.namespace(r);
                String addresses = ip("-n", ns, "-o", "addr", "show");
                // lo's 127.0.0.1 and ::1, the host's one address; no link-local IPv6 on the veth
                Matcher m = Pattern.compile("inet6? (\\S+)").matcher(addresses);
                List<String> all = new java.util.ArrayList<>();
                while (m.find()) {
                    all.add(m.group(1));
                }
                assertEquals(List.of("127.0.0.1/8", "::1/128", t.address(r).getHostAddress() + "/24"), all, addresses);
                assertEquals("", ip("-n", ns, "route", "show", "default").trim(), "no default route in " + ns);
                assertEquals("", ip("-n", ns, "-6", "route", "show", "default").trim(), "no default route in " + ns);
                SystemCommand.Result out = SystemCommand.attempt("ip", "-n", ns, "route", "get", "1.1.1.1");
                assertFalse(out.ok(), "nothing routes out of " + ns + ": " + out.output());
                assertTrue(out.output().contains("unreachable"), out.output());
            }
            assertTrue(ip("-o", "-4", "addr", "show", "dev", t.clientLink()).contains(
                    "inet " + t.address(Role.CLIENT).getHostAddress() + "/24"));
        }
    }

    @Test
    void aServerIsReachableOnlyThroughItsLink() throws Exception {
        try (NetnsTopology t = NetnsTopology.create(EnumSet.of(Role.CLIENT, Role.ORIGIN), LinkSpec.UNSHAPED)) {
            String address = t.address(Role.ORIGIN).getHostAddress();
            ServerProcess origin = ServerProcess.start("origin", List.of("--body-size", "300", "--io-threads", "1",
                    "--listen", address + ":0"), TEST_JVM, t.host(Role.ORIGIN, null));
            try {
                assertEquals(List.of("ip", "netns", "exec", t.namespace(Role.ORIGIN)), origin.command().subList(0, 4));
                int port = origin.address().getPort();
                assertEquals(address, origin.address().getAddress().getHostAddress());
                assertTrue(SystemCommand.run("ip", "netns", "pids", t.namespace(Role.ORIGIN))
                        .contains(Long.toString(origin.pid())), "the server runs in its namespace");
                try (RawHttp.Conn c = RawHttp.open(new InetSocketAddress(address, port))) {
                    assertArrayEquals(ResponseBody.bytes(300), c.exchange(RawHttp.get("/")).body());
                }
                assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close(),
                        "not on this namespace's loopback");
                ip("link", "set", t.clientLink(), "down");
                assertThrows(IOException.class, () -> {
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress(address, port), 1000);
                    }
                }, "not reachable once its link to the client is down");
            } finally {
                assertEquals(0, origin.stop(), origin::stderr);
            }
        }
    }

    /**
     * 16 MiB echoed over 100 Mbit/s links: each direction is limited to 12.5 MB/s, so the bytes cannot come back in
     * less than 16 MiB / 12.5 MB/s = 1.34 s (the slack covers the bucket's depth and the timing of the ends).
     */
    @Test
    void aShapedLinkCarriesNoMoreThanItsRate() throws Exception {
        LinkSpec link = LinkSpec.parse("100mbit");
        int bytes = 16 << 20;
        double seconds;
        try (NetnsTopology t = NetnsTopology.create(EnumSet.of(Role.CLIENT, Role.ECHO), link)) {
            String address = t.address(Role.ECHO).getHostAddress();
            ServerProcess echo = ServerProcess.start("echo", List.of("--io-threads", "1", "--listen", address + ":0"),
                    TEST_JVM, t.host(Role.ECHO, null));
            try (Socket s = new Socket(address, echo.address().getPort())) {
                byte[] chunk = RawHttp.uniqueBody(3, 64 * 1024);
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                long start = System.nanoTime();
                CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
                    try {
                        for (int i = 0; i < bytes / chunk.length; i++) {
                            out.write(chunk);
                        }
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                });
                byte[] buf = new byte[64 * 1024];
                long received = 0;
                while (received < bytes) {
                    int n = in.read(buf);
                    assertTrue(n > 0, "the echo server closed after " + received + " bytes");
                    received += n;
                }
                seconds = (System.nanoTime() - start) / 1e9;
                sent.get(60, TimeUnit.SECONDS);
                String stats = SystemCommand.run("tc", "-n", t.namespace(Role.ECHO), "-s", "qdisc", "show", "dev",
                        "eth0");
                Matcher m = Pattern.compile("tbf .*rate 100Mbit[\\s\\S]*?Sent (\\d+) bytes").matcher(stats);
                assertTrue(m.find() && Long.parseLong(m.group(1)) >= bytes,
                        "the echo's bytes went through the token bucket: " + stats);
            } finally {
                assertEquals(0, echo.stop(), echo::stderr);
            }
        }
        double rate = bytes / seconds;
        System.out.printf("16 MiB echoed over 100mbit links in %.2f s: %.2f MB/s%n", seconds, rate / 1e6);
        assertTrue(rate <= 12.5e6 * 1.15, String.format("%.2f MB/s over a 100mbit link", rate / 1e6));
    }

    @Test
    void aSetupThatFailsRemovesWhatItMade() {
        String delay = "100mbit+5ms";
        // in a namespace of its own that unshare removes at once
        SystemCommand.Result netem = SystemCommand.attempt("unshare", "-n", "tc", "qdisc", "add", "dev", "lo", "root",
                "netem", "delay", "1ms");
        assumeTrue(!netem.ok(), "this kernel has netem; the refusal of a delay cannot be tested here");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> NetnsTopology.create(EnumSet.of(Role.CLIENT, Role.PROXY, Role.ORIGIN), LinkSpec.parse(delay)));
        assertTrue(e.getMessage().contains("'" + delay + "'") && e.getMessage().contains("netem")
                && e.getMessage().contains("valid here: none, or a rate"), e.getMessage());
        // @AfterEach: no namespace, no link of this process is left
    }

    @Test
    void whatADeadOwnerLeftIsRemovedAndALiveOwnersIsNot() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        long dead = gone.pid();
        assumeTrue(ProcessHandle.of(dead).isEmpty(), "pid " + dead + " was reused at once");
        String stale = "loopbench-" + dead + "-1-1-proxy";
        String staleLink = "lb" + dead + "-1";
        long self = ProcessHandle.current().pid();
        long selfStart = ProcessHandle.current().info().startInstant().orElseThrow().getEpochSecond();
        String live = "loopbench-" + self + "-" + selfStart + "-999-proxy";
        ip("netns", "add", stale);
        ip("netns", "add", live);
        try {
            ip("link", "add", staleLink, "type", "veth", "peer", "name", "eth0", "netns", live);
            List<String> removed = NetnsTopology.removeStale();
            assertTrue(removed.contains(stale) && removed.contains(staleLink), removed::toString);
            assertFalse(NetnsTopology.namespaceNames().contains(stale));
            assertFalse(NetnsTopology.linkNames().contains(staleLink));
            assertTrue(NetnsTopology.namespaceNames().contains(live), "a live owner's namespace stays");
        } finally {
            SystemCommand.attempt("ip", "netns", "del", stale);
            SystemCommand.attempt("ip", "link", "del", staleLink);
            SystemCommand.attempt("ip", "netns", "del", live);
        }
    }
}
