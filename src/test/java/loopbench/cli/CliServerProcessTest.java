package loopbench.cli;

import loopbench.line.NettyLine;
import loopbench.origin.ResponseBody;
import loopbench.server.LoopbackServer;
import loopbench.testing.CliProcess;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.Rig;
import loopbench.testing.TestBackend;
import loopbench.topology.Affinity;
import loopbench.topology.CpuSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The servers' CLI contract, each in a child JVM: exactly one stdout line, {@code listening on 127.0.0.1:PORT} and what
 * the server runs on ({@code netty=VERSION transport=T}, and the epoll mode on epoll), once the port accepts (the real
 * port when 0 was asked); it serves; SIGTERM or SIGINT shuts it down gracefully with exit
 * code 0, and nothing more appears on stdout. Failures to start exit 1 saying why.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CliServerProcessTest {
    static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+) (.+)");

    private LoopbackServer origin;

    @BeforeAll
    void startBackendOrigin() {
        origin = Rig.origin(777);
    }

    @AfterAll
    void stop() {
        if (origin != null) {
            origin.close();
        }
    }

    enum Signal { TERM, INT }

    static Stream<Arguments> servers() {
        List<Arguments> all = new ArrayList<>();
        for (String kind : new String[] {"origin", "echo", "echo-mina", "proxy-4", "proxy-7"}) {
            for (Signal signal : Signal.values()) {
                all.add(Arguments.of(kind, signal));
            }
        }
        return all.stream();
    }

    private String[] args(String kind, String listen) {
        switch (kind) {
            case "origin":
                return new String[] {"origin", "--listen", listen, "--body-size", "777", "--transport", "epoll"};
            case "echo":
                return new String[] {"echo", "--listen", listen, "--recv-allocator", "fixed:2048", "--executor",
                        "group"};
            case "echo-mina":
                return new String[] {"echo", "--server", "mina", "--listen", listen, "--recv-allocator", "halving",
                        "--executor", "group", "--io-threads", "2", "--buffers", "direct"};
            case "proxy-4":
            case "proxy-7":
                return new String[] {"proxy", "--listen", listen, "--layer", kind.substring(6), "--backend",
                        "127.0.0.1:" + origin.port(), "--thread-model", "individual-group", "--transport", "io_uring",
                        "--allocator", "pooled"};
            default:
                throw new AssertionError(kind);
        }
    }

    @ParameterizedTest(name = "{0} SIG{1}")
    @MethodSource("servers")
    void printsOneLineServesAndExitsZeroOnSignal(String kind, Signal signal) throws Exception {
        assumeFalse(signal == Signal.INT && CliProcess.sigintIgnoredHere(),
                "the tests run with SIGINT ignored (started in the background by a script), so the CLI inherits it "
                        + "ignored and must not stop on it; run them from a terminal or a CI step to test SIGINT");
        // Port 0 for SIGTERM; a port chosen here for SIGINT (then the line must name exactly that one).
        int asked = signal == Signal.TERM ? 0 : freePort();
        try (CliProcess cli = CliProcess.start(args(kind, "127.0.0.1:" + asked))) {
            String line = cli.nextLine();
            assertNotNull(line, () -> "no 'listening on' line: " + cli);
            Matcher m = LISTENING.matcher(line);
            assertTrue(m.matches(), () -> "first stdout line: '" + line + "' " + cli);
            int port = Integer.parseInt(m.group(1));
            assertEquals(stack(kind), m.group(2), "what the server runs on");
            if (asked == 0) {
                assertNotEquals(0, port, "the real port, not 0");
            } else {
                assertEquals(asked, port);
            }
            serve(kind, port); // right after the line: it already accepts

            if (signal == Signal.TERM) {
                cli.sigterm();
            } else {
                cli.sigint();
            }
            assertEquals(0, cli.waitForExit(), () -> "exit code after SIG" + signal + ": " + cli);
            assertEquals(List.of(line), cli.stdoutLines(), () -> "stdout must be exactly one line: " + cli);
            assertTrue(cli.stderr().contains("stopped"), cli::toString);
            assertEquals(kind.equals("echo-mina"), cli.stderr().contains(
                    "(Apache Mina) on 127.0.0.1:" + port
                            + " (io-processors=2 buffers=direct recv-allocator=halving executor=group/"),
                    cli::toString);
            Rig.assertPortFree(port);
        }
    }

    /** What each kind of server of {@link #args} runs on, as its ready line must say. */
    private static String stack(String kind) {
        String netty = "netty=" + NettyLine.current().version();
        switch (kind) {
            case "origin": // epoll at the line's default mode: 4.1 edge-triggered, 4.2 level-triggered only
                return netty + " transport=epoll epoll-mode=" + ("4.1".equals(NettyLine.current().name())
                        ? "edge,edge" : "level,level");
            case "echo":
                return netty + " transport=nio";
            case "echo-mina":
                return "framework=mina transport=nio";
            default:
                return netty + " transport=io_uring";
        }
    }

    /** Netty 4.1: the epoll mode asked for on the command line is the one the ready line reads back. */
    @Test
    void epollModeOnTheCommandLineReachesTheListeningSocket() throws Exception {
        assumeTrue(NettyLine.current().epollModeRefusal() == null, NettyLine.current()::epollModeRefusal);
        try (CliProcess cli = CliProcess.start("origin", "--transport", "epoll", "--epoll-mode", "level,edge",
                "--body-size", "777")) {
            Matcher m = LISTENING.matcher(String.valueOf(cli.nextLine()));
            assertTrue(m.matches(), cli::toString);
            assertEquals("netty=" + NettyLine.current().version() + " transport=epoll epoll-mode=level,edge",
                    m.group(2));
            serve("origin", Integer.parseInt(m.group(1)));
            cli.sigterm();
            assertEquals(0, cli.waitForExit(), cli::toString);
        }
    }

    private void serve(String kind, int port) throws Exception {
        try (Conn c = RawHttp.open(port)) {
            if (kind.startsWith("echo")) {
                byte[] b = RawHttp.uniqueBody(5, 10_000);
                var sent = c.sendInBackground(b, null);
                assertArrayEquals(b, RawHttp.readExactly(c.in(), b.length));
                RawHttp.await(sent, 30);
            } else {
                for (int i = 0; i < 2; i++) {
                    assertArrayEquals(ResponseBody.bytes(777), c.exchange(RawHttp.get("/")).body());
                }
                byte[] body = RawHttp.uniqueBody(6, 100_000);
                assertArrayEquals(body, c.exchange(RawHttp.post("/", body)).body());
            }
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Test
    void portTakenExits1SayingWhy() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             CliProcess cli = CliProcess.run("echo", "--listen", "127.0.0.1:" + taken.getLocalPort())) {
            assertEquals(1, cli.exitCode(), cli::toString);
            assertTrue(cli.stdoutLines().isEmpty(), cli::toString);
            assertTrue(cli.stderr().contains("cannot listen on 127.0.0.1:" + taken.getLocalPort()), cli::toString);
        }
    }

    @Test
    void proxyToARefusingBackendStillStartsAndStops() throws Exception {
        try (TestBackend.RefusingPort refusing = TestBackend.refusingPort();
             CliProcess cli = CliProcess.start("proxy", "--layer", "7", "--backend", "127.0.0.1:" + refusing.port())) {
            Matcher m = LISTENING.matcher(String.valueOf(cli.nextLine()));
            assertTrue(m.matches(), cli::toString);
            try (Conn c = RawHttp.open(Integer.parseInt(m.group(1)))) {
                assertEquals(502, c.exchange(RawHttp.get("/")).status());
            }
            cli.sigterm();
            assertEquals(0, cli.waitForExit(), cli::toString);
        }
    }

    /** {@code --cpus}: the server pins every thread of its own before it listens, and serves from there. */
    @Test
    void aServerGivenCpusRunsOnThemOnly() throws Exception {
        CpuSet available = Affinity.available();
        assumeTrue(available.size() >= 2, "needs 2 CPUs to tell them apart; this process may use " + available);
        CpuSet last = available.highest(1);
        try (CliProcess cli = CliProcess.start("origin", "--body-size", "777", "--cpus", last.toString())) {
            Matcher m = LISTENING.matcher(String.valueOf(cli.nextLine()));
            assertTrue(m.matches(), cli::toString);
            serve("origin", Integer.parseInt(m.group(1)));
            Map<Long, CpuSet> threads = Affinity.byThread(cli.pid());
            assertTrue(threads.size() > 5 && threads.values().stream().allMatch(last::equals), threads::toString);
            cli.sigterm();
            assertEquals(0, cli.waitForExit(), cli::toString);
        }
    }

    /**
     * The servers run with Netty's leak detection off unless asked (as the suite measures them), and say so; the
     * proxy's error answers are fixed texts, their causes (the backend's address, the exception) in its debug log.
     */
    @Test
    void leakDetectionOffUnlessAskedAndErrorDetailsOnlyInTheDebugLog() throws Exception {
        try (TestBackend.RefusingPort refusing = TestBackend.refusingPort();
             CliProcess quiet = CliProcess.start("proxy", "--layer", "7", "--backend", "127.0.0.1:" + refusing.port());
             CliProcess debug = CliProcess.start("proxy", "--layer", "7", "--backend", "127.0.0.1:" + refusing.port(),
                     "--log-level", "debug", "--leak-detection", "paranoid")) {
            for (CliProcess cli : List.of(quiet, debug)) {
                Matcher m = LISTENING.matcher(String.valueOf(cli.nextLine()));
                assertTrue(m.matches(), cli::toString);
                try (Conn c = RawHttp.open(Integer.parseInt(m.group(1)))) {
                    RawHttp.Response r = c.exchange(RawHttp.get("/"));
                    assertEquals(502, r.status(), r::toString);
                    assertEquals("502 Bad Gateway\n", r.bodyText());
                }
                cli.sigterm();
                assertEquals(0, cli.waitForExit(), cli::toString);
            }
            String backend = "127.0.0.1:" + refusing.port();
            assertTrue(quiet.stderr().contains("Netty leak detection disabled"), quiet::toString);
            assertFalse(quiet.stderr().contains(backend), () -> "no details at the default level: " + quiet);
            assertTrue(debug.stderr().contains("Netty leak detection paranoid"), debug::toString);
            assertTrue(debug.stderr().contains("FINE loopbench.proxy: client /127.0.0.1:"), debug::toString);
            assertTrue(debug.stderr().contains("502 Bad Gateway: cannot connect to the backend"), debug::toString);
            assertTrue(debug.stderr().contains(backend), () -> "the backend's address in the log: " + debug);
        }
    }

    /** virtual-thread: on JDK 21+ it serves; before, the CLI refuses with exit 1 naming JDK 21. Also run on JDK 25. */
    @Test
    @Tag("jdk25")
    void virtualThreadStrategyDependsOnTheJdk() throws Exception {
        String[] args = {"origin", "--work-strategy", "virtual-thread", "--work-ms", "5", "--body-size", "777"};
        if (Runtime.version().feature() < 21) {
            try (CliProcess cli = CliProcess.run(args)) {
                assertEquals(1, cli.exitCode(), cli::toString);
                assertTrue(cli.stdoutLines().isEmpty(), cli::toString);
                assertTrue(cli.stderr().contains("needs JDK 21 or newer"), cli::toString);
                assertTrue(cli.stderr().contains("virtual-thread"), cli::toString);
            }
            return;
        }
        try (CliProcess cli = CliProcess.start(args)) {
            Matcher m = LISTENING.matcher(String.valueOf(cli.nextLine()));
            assertTrue(m.matches(), cli::toString);
            try (Conn c = RawHttp.open(Integer.parseInt(m.group(1)))) {
                c.send(RawHttp.concat(RawHttp.get("/1"), RawHttp.post("/2", new byte[] {1, 2, 3}), RawHttp.get("/3")));
                assertArrayEquals(ResponseBody.bytes(777), c.read().body());
                assertArrayEquals(new byte[] {1, 2, 3}, c.read().body());
                assertArrayEquals(ResponseBody.bytes(777), c.read().body());
            }
            cli.sigterm();
            assertEquals(0, cli.waitForExit(), cli::toString);
            assertEquals(1, cli.stdoutLines().size(), cli::toString);
        }
    }
}
