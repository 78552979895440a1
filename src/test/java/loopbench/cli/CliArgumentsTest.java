package loopbench.cli;

import io.netty.util.ResourceLeakDetector;
import loopbench.knobs.RecvAllocator;
import loopbench.proxy.ProxyTimeouts;
import loopbench.topology.Affinity;
import loopbench.topology.CpuSet;
import loopbench.topology.LinkSpec;
import loopbench.line.NettyLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Argument handling, in process through {@link Main#run}: every command has --help (exit 0, naming its options), and a
 * bad flag or value exits 2 with a message that names the bad value and the valid ones, before any server starts.
 * (Only inputs rejected before a server would start are checked here: a valid command line would serve until a
 * signal; those are in {@link CliServerProcessTest}.)
 */
class CliArgumentsTest {
    private static final String SELF = Long.toString(ProcessHandle.current().pid());

    record Result(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\nstdout:\n" + out + "\nstderr:\n" + err;
        }
    }

    static synchronized Result run(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            code = Main.run(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Stream<Arguments> helps() {
        return Stream.of(
                Arguments.of("origin", new String[] {"--listen", "--cpus", "--transport", "--epoll-mode", "--allocator",
                        "--buffers", "--io-threads",
                        "--body-size", "--work-ms", "--work-strategy", "block-event-loop", "virtual-thread", "timer"}),
                Arguments.of("echo",
                        new String[] {"--listen", "--cpus", "--transport", "--epoll-mode", "--recv-allocator",
                        "fixed:BYTES", "halving",
                        "--executor", "--executor-threads", "--server", "netty, mina", "ExecutorFilter"}),
                Arguments.of("proxy", new String[] {"--listen", "--cpus", "--backend", "--epoll-mode", "--layer",
                        "--thread-model", "individual-group",
                        "reuse-server-group", "reuse-server-thread", "--max-content-length", "--allocator", "--l7-mode",
                        "aggregate",
                        "stream", "--backend-pool", "per-client", "per-loop", "--l4-mode", "copy", "splice",
                        "--client-header-timeout", "--client-body-timeout", "--keepalive-timeout",
                        "--backend-connect-timeout", "--backend-timeout", "--idle-timeout", "0: off", "408", "504",
                        "--log-level", "debug", "--leak-detection", "paranoid", "--handler"}),
                Arguments.of("netns", new String[] {"--hosts", "--link", "1gbit", "netem", "--remove-stale",
                        "198.18.0.0/15", "CAP_NET_ADMIN"}),
                Arguments.of("cost", new String[] {"--pid", "--requests-from", "--out", "COMMAND", "descending",
                        "ProcStat", "cpuMicrosPerRequest"}));
    }

    @ParameterizedTest(name = "{0} --help")
    @MethodSource("helps")
    void helpExitsZeroAndNamesTheOptions(String command, String[] mentions) {
        for (String flag : new String[] {"--help", "-h"}) {
            Result r = run(command, flag);
            assertEquals(0, r.exitCode(), r::toString);
            assertTrue(r.out().startsWith("Usage: loopbench " + command), r::toString);
            for (String m : mentions) {
                assertTrue(r.out().contains(m), () -> "help of " + command + " should mention " + m + ": " + r);
            }
        }
        Result viaHelpCommand = run("help", command);
        assertEquals(0, viaHelpCommand.exitCode(), viaHelpCommand::toString);
        assertTrue(viaHelpCommand.out().contains("Usage: loopbench " + command), viaHelpCommand::toString);
    }

    @Test
    void topLevelHelpAndNoCommand() {
        Result help = run("--help");
        assertEquals(0, help.exitCode(), help::toString);
        for (String c : new String[] {"origin", "echo", "proxy"}) {
            assertTrue(help.out().contains(c), help::toString);
        }
        Result none = run();
        assertEquals(2, none.exitCode(), none::toString);
        assertTrue(none.err().contains("valid commands: origin, echo, proxy"), none::toString);
    }

    static Stream<Arguments> badInputs() {
        String backend = "127.0.0.1:9";
        return Stream.of(
                Arguments.of(new String[] {"origin", "--transport", "foo"},
                        new String[] {"'foo'", "nio, epoll, io_uring"}),
                Arguments.of(new String[] {"origin", "--parent-heartbeat", "5s"},
                        new String[] {"--parent-heartbeat needs --exit-with-parent"}),
                Arguments.of(new String[] {"echo", "--transport", "NIO"},
                        new String[] {"'NIO'", "nio, epoll, io_uring"}),
                Arguments.of(new String[] {"origin", "--leak-detection", "on"},
                        new String[] {"'on'", "disabled, simple, advanced, paranoid"}),
                Arguments.of(new String[] {"echo", "--leak-detection", "PARANOID"},
                        new String[] {"'PARANOID'", "disabled, simple, advanced, paranoid"}),
                Arguments.of(new String[] {"proxy", "--layer", "7", "--backend", backend, "--backend-timeout", "60"},
                        new String[] {"--backend-timeout", "'60'", "0 (off)", "500ms, 10s, 2m"}),
                Arguments.of(new String[] {"proxy", "--layer", "4", "--backend", backend, "--idle-timeout", "-1s"},
                        new String[] {"--idle-timeout", "'-1s'", "0 (off)"}),
                Arguments.of(new String[] {"proxy", "--layer", "7", "--backend", backend, "--log-level", "trace"},
                        new String[] {"'trace'", "warn, info, debug"}),
                Arguments.of(new String[] {"proxy", "--layer", "7", "--backend", backend,
                        "--backend-connect-timeout", "30d"}, new String[] {"'30d'", "0 (off)"}),
                Arguments.of(new String[] {"origin", "--allocator", "x"},
                        new String[] {"'x'", "pooled, unpooled, adaptive"}),
                Arguments.of(new String[] {"origin", "--buffers", "x"}, new String[] {"'x'", "direct, heap"}),
                Arguments.of(new String[] {"proxy", "--layer", "7", "--backend", backend, "--thread-model", "y"},
                        new String[] {"'y'", "individual-group, reuse-server-group, reuse-server-thread"}),
                Arguments.of(new String[] {"proxy", "--layer", "5", "--backend", backend},
                        new String[] {"'5'", "4, 7"}),
                Arguments.of(new String[] {"proxy", "--layer", "7", "--backend", backend, "--handler", "com.x.Nope"},
                        new String[] {"'com.x.Nope' is not on the class path", "none"}),
                Arguments.of(new String[] {"proxy", "--layer", "4", "--backend", backend, "--handler",
                        "loopbench.proxy.RequestIdHandler"}, new String[] {"needs --layer 7", "none"}),
                Arguments.of(new String[] {"proxy", "--layer", "7", "--backend", backend, "--l7-mode", "buffer"},
                        new String[] {"'buffer'", "aggregate, stream"}),
                Arguments.of(new String[] {"proxy", "--layer", "7", "--backend", backend, "--backend-pool", "shared"},
                        new String[] {"'shared'", "per-client, per-loop"}),
                Arguments.of(new String[] {"proxy", "--layer", "4", "--backend", backend, "--backend-pool", "per-loop"},
                        new String[] {"'per-loop' needs layer 7", "valid with layer 4: per-client"}),
                Arguments.of(new String[] {"proxy", "--layer", "4", "--backend", backend, "--l4-mode", "zerocopy"},
                        new String[] {"'zerocopy'", "copy, splice"}),
                Arguments.of(new String[] {"proxy", "--layer", "4", "--backend", backend, "--l4-mode", "splice"},
                        new String[] {"needs transport 'epoll'", "not 'nio'", "valid transports with splice: epoll"}),
                Arguments.of(new String[] {"proxy", "--layer", "4", "--backend", backend, "--l4-mode", "splice",
                        "--transport", "epoll", "--thread-model", "individual-group"},
                        new String[] {"needs thread model 'reuse-server-thread'", "not 'individual-group'"}),
                Arguments.of(new String[] {"proxy", "--layer", "7", "--backend", backend, "--l4-mode", "splice",
                        "--transport", "epoll"}, new String[] {"'splice' needs layer 4", "valid with layer 7: copy"}),
                Arguments.of(new String[] {"echo", "--recv-allocator", "fixed:abc"},
                        new String[] {"'fixed:abc'", "'abc' is not a number", RecvAllocator.VALID}),
                Arguments.of(new String[] {"echo", "--recv-allocator", "fixed:0"},
                        new String[] {"'fixed:0'", RecvAllocator.VALID}),
                Arguments.of(new String[] {"echo", "--recv-allocator", "big"},
                        new String[] {"'big'", RecvAllocator.VALID}),
                Arguments.of(new String[] {"echo", "--executor", "pool"}, new String[] {"'pool'", "none, group"}),
                Arguments.of(new String[] {"echo", "--server", "foo"}, new String[] {"'foo'", "netty, mina"}),
                Arguments.of(new String[] {"echo", "--server", "mina", "--recv-allocator", "adaptive"},
                        new String[] {"'adaptive'", "valid values for --server mina: halving", "fixed:BYTES"}),
                Arguments.of(new String[] {"echo", "--server", "mina", "--transport", "epoll"},
                        new String[] {"'epoll'", "valid values for --server mina: nio"}),
                Arguments.of(new String[] {"echo", "--server", "mina", "--transport", "io_uring"},
                        new String[] {"'io_uring'", "valid values for --server mina: nio"}),
                Arguments.of(new String[] {"echo", "--server", "mina", "--allocator", "adaptive"},
                        new String[] {"'adaptive'", "valid values for --server mina: unpooled"}),
                Arguments.of(new String[] {"echo", "--server", "mina", "--allocator", "pooled"},
                        new String[] {"'pooled'", "valid values for --server mina: unpooled"}),
                Arguments.of(new String[] {"echo", "--server", "mina", "--recv-allocator", "fixed:0"},
                        new String[] {"'fixed:0'", RecvAllocator.VALID}),
                Arguments.of(new String[] {"echo", "--server", "mina", "--executor-threads", "0"},
                        new String[] {"executor threads must be >= 1"}),
                Arguments.of(new String[] {"origin", "--work-strategy", "nope"},
                        new String[] {"'nope'",
                                "none, block-event-loop, pipeline-executor, offload-executor, virtual-thread, timer"}),
                Arguments.of(new String[] {"origin", "--listen", "nonsense"}, new String[] {"'nonsense'", "HOST:PORT"}),
                Arguments.of(new String[] {"origin", "--listen", "127.0.0.1:70000"},
                        new String[] {"70000", "0..65535"}),
                Arguments.of(new String[] {"proxy", "--layer", "7", "--backend", "localhost"},
                        new String[] {"'localhost'", "HOST:PORT"}),
                Arguments.of(new String[] {"proxy", "--layer", "7"}, new String[] {"--backend", "HOST:PORT"}),
                Arguments.of(new String[] {"proxy", "--backend", backend}, new String[] {"--layer"}),
                Arguments.of(new String[] {"proxy", "--layer", "7", "--backend", backend, "--max-content-length", "-1"},
                        new String[] {"max content length must be >= 0, was -1"}),
                Arguments.of(new String[] {"origin", "--body-size", "-1"},
                        new String[] {"body size must be >= 0, was -1"}),
                Arguments.of(new String[] {"origin", "--body-size", "lots"}, new String[] {"'lots'", "--body-size"}),
                Arguments.of(new String[] {"origin", "--work-ms", "5"},
                        new String[] {"--work-ms 5", "--work-strategy"}),
                Arguments.of(new String[] {"origin", "--executor-threads", "0"},
                        new String[] {"executor threads must be >= 1"}),
                Arguments.of(new String[] {"echo", "--io-threads", "0"},
                        new String[] {"--io-threads must be at least 1, was 0"}),
                Arguments.of(new String[] {"origin", "--cpus", "7"}, new String[] {"--cpus 7", "CPU 7",
                        "CPUs this process may use: " + Affinity.available()}),
                Arguments.of(new String[] {"load", "tcp://127.0.0.1:9", "--cpus", "0-1+9"},
                        new String[] {"CPU 9", "CPUs this process may use: " + Affinity.available()}),
                Arguments.of(new String[] {"echo", "--cpus", "one"}, new String[] {"'one'", CpuSet.FORMS}),
                Arguments.of(new String[] {"proxy", "--layer", "4", "--backend", backend, "--cpus", "1-0"},
                        new String[] {"'1-0'", "runs backwards", CpuSet.FORMS}),
                Arguments.of(new String[] {"netns", "--link", "1gbps"}, new String[] {"'1gbps'", LinkSpec.FORMS}),
                Arguments.of(new String[] {"netns", "--hosts", "origin,gateway"},
                        new String[] {"'gateway'", "client, proxy, origin, echo"}),
                Arguments.of(new String[] {"netns", "--hosts", "client"},
                        new String[] {"the client's host is this namespace", "proxy, origin, echo"}),
                Arguments.of(new String[] {"origin", "--bogus"}, new String[] {"--bogus"}),
                Arguments.of(new String[] {"nope"}, new String[] {"'nope'"}),
                Arguments.of(new String[] {"cost", "--pid", "999999999", "--", "true"},
                        new String[] {"--pid 999999999: no such process"}),
                Arguments.of(new String[] {"cost", "--pid", SELF, "--requests-from", "(", "--", "true"},
                        new String[] {"--requests-from '(' is not a regular expression"}),
                Arguments.of(new String[] {"cost", "--pid", SELF, "--requests-from", "requests", "--", "true"},
                        new String[] {"--requests-from 'requests' has no group"}),
                Arguments.of(new String[] {"cost", "--pid", "x", "--", "true"}, new String[] {"'x'"}),
                Arguments.of(new String[] {"cost", "--", "true"}, new String[] {"--pid"}),
                Arguments.of(new String[] {"cost", "--pid", SELF}, new String[] {"COMMAND"}),
                Arguments.of(new String[] {"cost", "--pid", SELF, "wrk", "-t1"}, new String[] {"-t1"}));
    }

    /** The proxy's timeouts default to nginx's, as ProxyTimeouts.DEFAULTS says; each can be set or turned off. */
    @Test
    void proxyTimeoutsDefaultToNginxsAndParseDurations() {
        ProxyCommand defaults = parsedProxy("--layer", "7", "--backend", "127.0.0.1:9");
        assertEquals(ProxyTimeouts.DEFAULTS, defaults.config().timeouts());
        ProxyCommand set = parsedProxy("--layer", "4", "--backend", "127.0.0.1:9", "--client-header-timeout", "500ms",
                "--client-body-timeout", "0", "--keepalive-timeout", "2m", "--backend-connect-timeout", "1s",
                "--backend-timeout", "0s", "--idle-timeout", "1h");
        assertEquals(new ProxyTimeouts(Duration.ofMillis(500), Duration.ZERO, Duration.ofMinutes(2),
                Duration.ofSeconds(1), Duration.ZERO, Duration.ofHours(1)), set.config().timeouts());
    }

    private static ProxyCommand parsedProxy(String... args) {
        ProxyCommand command = new ProxyCommand();
        CommandLine cmd = new CommandLine(command);
        Converters.register(cmd);
        cmd.parseArgs(args);
        return command;
    }

    /** In this JVM the system property asks for paranoid (the tests' setting): no option, so it stays. */
    @Test
    void leakDetectionFollowsTheSystemPropertyWhenNotAsked() {
        assertEquals("paranoid", System.getProperty(LeakDetection.PROPERTY));
        assertEquals(ResourceLeakDetector.Level.PARANOID, LeakDetection.apply(null, null));
        for (ResourceLeakDetector.Level level : ResourceLeakDetector.Level.values()) {
            assertEquals(level, LeakDetection.parse(LeakDetection.name(level)));
        }
    }

    /**
     * {@code --epoll-mode}: a bad value names the valid ones; on Netty 4.2 (level-triggered only) any value is refused
     * saying so, on 4.1 a transport other than epoll is. Every server takes the option.
     */
    @Test
    void epollModeIsRefusedWhereTheLineOrTheTransportCannotHaveIt() {
        String refusal = NettyLine.current().epollModeRefusal();
        String[][] servers = {{"origin"}, {"echo"}, {"proxy", "--layer", "4", "--backend", "127.0.0.1:9"}};
        for (String[] server : servers) {
            expectExit2(concat(server, "--epoll-mode", "sideways"), "'sideways'", "edge, level");
            expectExit2(concat(server, "--epoll-mode", "edge,level,edge"), "MODE or MODE,MODE", "edge, level");
            expectExit2(concat(server, "--transport", "nio", "--epoll-mode", "edge"),
                    refusal == null ? "needs --transport epoll" : "level-triggered only");
            if (refusal != null) { // on 4.1 this would start a server
                expectExit2(concat(server, "--transport", "epoll", "--epoll-mode", "edge,level"),
                        "4.2's epoll is level-triggered only", "-Dnetty.version=4.1");
            }
        }
        if (refusal == null) { // 4.1's spliceTo takes level-triggered channels only
            expectExit2(new String[] {"proxy", "--layer", "4", "--backend", "127.0.0.1:9", "--l4-mode", "splice",
                    "--transport", "epoll", "--epoll-mode", "edge"}, "'splice' needs level-triggered connections",
                    "valid with splice: --epoll-mode edge,level");
        }
    }

    private static String[] concat(String[] head, String... tail) {
        return Stream.concat(Stream.of(head), Stream.of(tail)).toArray(String[]::new);
    }

    private static void expectExit2(String[] args, String... mentions) {
        Result r = run(args);
        assertEquals(2, r.exitCode(), r::toString);
        assertEquals("", r.out(), "nothing on stdout for a usage error");
        for (String m : mentions) {
            assertTrue(r.err().contains(m), () -> "the message should contain " + m + ": " + r);
        }
        assertTrue(r.err().contains("--help"), () -> "points to --help: " + r);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badInputs")
    void badFlagOrValueExits2NamingIt(String[] args, String[] mentions) {
        expectExit2(args, mentions);
    }
}
