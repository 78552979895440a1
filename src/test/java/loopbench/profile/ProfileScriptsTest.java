package loopbench.profile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The scripts under {@code profiles/} (the gate's proof, the soak, the reference-proxy comparison, the proxy's profile,
 * noise and collector probes, and the Python tools that read their output) take minutes to hours, so a typo must fail
 * at once: exit 2, with the bad option or value named and, where there is a list, the valid ones. Every check here
 * runs before the scripts look for their jars and tools, so it holds on a fresh clone without wrk, nginx or a build.
 * The Python tools are also run on committed records, whose figures they must reproduce.
 */
class ProfileScriptsTest {
    private static final String GATE_PROOF = "profiles/gate-proof.sh";
    private static final String SOAK = "profiles/soak.sh";
    private static final String COMPARE = "profiles/reference-proxies/compare.sh";
    private static final String LATENCY = "profiles/reference-proxies/latency-probe.sh";
    private static final String CLAIMS_NULL = "profiles/claims-null-proof.sh";
    private static final String PROFILE = "profiles/proxy-profile.sh";
    private static final String NOISE = "profiles/proxy-noise.sh";
    private static final String GC = "profiles/proxy-gc.sh";
    private static final String BREAKDOWN = "profiles/profile-breakdown.py";
    private static final String GATE_STATS = "profiles/gate-stats.py";
    private static final String EXTERNAL = "profiles/reference-proxies/external.sh";
    private static final String ALLOC_DIFF = "profiles/alloc-diff.py";
    private static final String SSH_LOOPBACK = "profiles/ssh-loopback.sh";

    @ParameterizedTest
    @ValueSource(strings = {GATE_PROOF, SOAK, COMPARE, LATENCY, CLAIMS_NULL, PROFILE, NOISE, GC, BREAKDOWN, GATE_STATS,
            EXTERNAL, ALLOC_DIFF, SSH_LOOPBACK})
    void helpPrintsTheUsageAndExitsZero(String script) throws Exception {
        Result r = run(script, "--help");
        assertEquals(0, r.exit, r.stderr);
        assertTrue(r.stdout.contains("--"), "the usage names the options: " + r.stdout);
        assertFalse(r.stdout.contains("#!/"), r.stdout);
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of(GATE_PROOF, List.of("--bogus"),
                        List.of("unknown option '--bogus'", "--runs N", "--kinds aa,power,flag")),
                Arguments.of(GATE_PROOF, List.of("--runs", "x"), List.of("--runs 'x' is not a positive integer")),
                Arguments.of(GATE_PROOF, List.of("--runs", "0"), List.of("--runs '0' is not a positive integer")),
                Arguments.of(GATE_PROOF, List.of("--rounds", "-3"), List.of("--rounds '-3' is not a positive integer")),
                Arguments.of(GATE_PROOF, List.of("--kinds", "aa,bb"),
                        List.of("unknown kind 'bb'", "valid: aa, power, flag")),
                Arguments.of(GATE_PROOF, List.of("--profile", "nope.jmh"),
                        List.of("--profile 'nope.jmh'", "profiles/gate.jmh")),
                Arguments.of(GATE_PROOF, List.of("--runs"), List.of("option '--runs' needs a value")),
                Arguments.of(SOAK, List.of("--bogus"), List.of("unknown option '--bogus'", "--requests N")),
                Arguments.of(SOAK, List.of("--requests", "0"), List.of("--requests '0' is not a positive integer")),
                Arguments.of(SOAK, List.of("--body-size", "1k"), List.of("--body-size '1k' is not a positive integer")),
                Arguments.of(SOAK, List.of("--out"), List.of("option '--out' needs a value")),
                Arguments.of(COMPARE, List.of("--bogus"),
                        List.of("unknown option '--bogus'", "--pages small|large|both")),
                Arguments.of(COMPARE, List.of("--rounds", "x"), List.of("--rounds 'x' is not a non-negative integer")),
                Arguments.of(COMPARE, List.of("--pages", "medium"),
                        List.of("--pages 'medium'", "valid: small, large, both")),
                Arguments.of(COMPARE, List.of("--jvm-variant", "UseSerialGC"),
                        List.of("'UseSerialGC' is not a JVM option")),
                Arguments.of(COMPARE, List.of("--proxy-variant", "transport io_uring"),
                        List.of("--proxy-variant 'transport io_uring'", "'transport' is not one")),
                Arguments.of(COMPARE, List.of("--proxy-variant", "--transport"), List.of("'--transport' is not one")),
                Arguments.of(COMPARE, List.of("--no-generators", "--duration"),
                        List.of("option '--duration' needs a value")),
                Arguments.of(CLAIMS_NULL, List.of("--bogus"), List.of("unknown option '--bogus'", "--families N",
                        "--family-timeout MINUTES")),
                Arguments.of(CLAIMS_NULL, List.of("--families", "0"),
                        List.of("--families '0' is not a whole number from 1 to 1000")),
                Arguments.of(CLAIMS_NULL, List.of("--families", "x"), List.of("--families 'x'")),
                Arguments.of(CLAIMS_NULL, List.of("--families", "1001"), List.of("--families '1001'")),
                Arguments.of(CLAIMS_NULL, List.of("--seed", "-1"),
                        List.of("--seed '-1' is not a non-negative whole number")),
                Arguments.of(CLAIMS_NULL, List.of("--family-timeout", "0"), List.of("--family-timeout '0'")),
                Arguments.of(CLAIMS_NULL, List.of("--profile", "nope.jmh"),
                        List.of("--profile 'nope.jmh'", "profiles/claims-null.jmh")),
                Arguments.of(CLAIMS_NULL, List.of("--profile", "profiles/gate.jmh"), List.of("has no [twins] line")),
                Arguments.of(CLAIMS_NULL, List.of("--benchmarks-jar", "no/such.jar"),
                        List.of("no no/such.jar", "-Pjmh package")),
                Arguments.of(CLAIMS_NULL, List.of("--out"), List.of("option '--out' needs a value")),
                Arguments.of(PROFILE, List.of("--bogus"), List.of("unknown option '--bogus'", "--layer 4|7")),
                Arguments.of(PROFILE, List.of("--layer", "5"), List.of("--layer '5'; valid: 4, 7")),
                Arguments.of(PROFILE, List.of("--connections", "0"),
                        List.of("--connections '0' is not a positive integer")),
                Arguments.of(PROFILE, List.of("--warmup", "-1"),
                        List.of("--warmup '-1' is not a non-negative integer")),
                Arguments.of(PROFILE, List.of("--out"), List.of("option '--out' needs a value")),
                Arguments.of(NOISE, List.of("--bogus"), List.of("unknown option '--bogus'", "--runs N")),
                Arguments.of(NOISE, List.of("--layer", "l4"), List.of("--layer 'l4'; valid: 4, 7")),
                Arguments.of(NOISE, List.of("--runs", "x"), List.of("--runs 'x' is not a positive integer")),
                Arguments.of(NOISE, List.of("--duration", "0"), List.of("--duration '0' is not a positive integer")),
                Arguments.of(GC, List.of("--bogus"), List.of("unknown option '--bogus'", "--collectors")),
                Arguments.of(GC, List.of("--collectors", "g1,zgc"), List.of("'zgc'; valid: g1, parallel, serial")),
                Arguments.of(GC, List.of("--rounds", "0"), List.of("--rounds '0' is not a positive integer")),
                Arguments.of(GC, List.of("--layer"), List.of("option '--layer' needs a value")),
                Arguments.of(LATENCY, List.of("--bogus"), List.of("unknown option '--bogus'", "--connections C")),
                Arguments.of(LATENCY, List.of("--runs", "0"), List.of("--runs '0' is not a positive integer")),
                Arguments.of(LATENCY, List.of("--warmup", "20s"), List.of("--warmup '20s' is not a non-negative")),
                Arguments.of(BREAKDOWN, List.of(), List.of("the following arguments are required: FILE")),
                Arguments.of(BREAKDOWN, List.of("no/such.collapsed"), List.of("no/such.collapsed")),
                Arguments.of(BREAKDOWN, List.of("README.md"), List.of("README.md:1: not \"frame;frame;... COUNT\"")),
                Arguments.of(GATE_STATS, List.of("bogus"), List.of("invalid choice: 'bogus'", "'pool'", "'order'")),
                Arguments.of(GATE_STATS, List.of("pool", "no/such/dir"), List.of("no/such/dir: no finished gate")),
                Arguments.of(GATE_STATS, List.of("spread"), List.of("the following arguments are required: JSON")),
                Arguments.of(GATE_STATS, List.of("components", "README.md", "--from", "0"),
                        List.of("--from 0: iterations count from 1")),
                Arguments.of(GATE_STATS, List.of("components", "no/such.json.xz"), List.of("no/such.json.xz")),
                Arguments.of(EXTERNAL, List.of("--bogus"), List.of("unknown option '--bogus'", "--only REGEX")),
                Arguments.of(EXTERNAL, List.of("--forks", "0"), List.of("--forks '0' is not a positive integer")),
                Arguments.of(EXTERNAL, List.of("--only", "squid"), List.of("--only 'squid' matches no target",
                        "loopbench-l7 nginx haproxy zuul")),
                Arguments.of(EXTERNAL, List.of("--out"), List.of("option '--out' needs a value")),
                Arguments.of(ALLOC_DIFF, List.of("README.md", "README.md", "--before-bytes", "1", "--after-bytes", "1"),
                        List.of("README.md: not a collapsed-stack line")),
                Arguments.of(ALLOC_DIFF, List.of("a.csv", "b.csv", "--before-bytes", "0", "--after-bytes", "1"),
                        List.of("--before-bytes 0.0", "must be > 0")),
                Arguments.of(SSH_LOOPBACK, List.of("--bogus"), List.of("unknown option '--bogus'", "--roles LIST")),
                Arguments.of(SSH_LOOPBACK, List.of("--roles", "proxy,db", "--", "true"),
                        List.of("--roles: role 'db'", "valid: client, proxy, origin, echo")),
                Arguments.of(SSH_LOOPBACK, List.of("--roles", "proxy"), List.of("no COMMAND after --")));
    }

    @ParameterizedTest
    @MethodSource("badInput")
    void badInputExitsTwoNamingTheValue(String script, List<String> args, List<String> expected) throws Exception {
        Result r = run(script, args.toArray(new String[0]));
        assertEquals(2, r.exit, "exit status; stderr: " + r.stderr);
        for (String e : expected) {
            assertTrue(r.stderr.contains(e), "stderr should contain \"" + e + "\": " + r.stderr);
        }
        assertEquals("", r.stdout, "nothing started");
    }

    /**
     * The loopback "other machine": an sshd of the script's own that lets the hosts file's key in, named by the hosts
     * file for the roles asked, for as long as the command runs; nothing of it left after.
     */
    @Test
    void sshLoopbackRunsTheCommandWithAnSshdForTheRoles(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/sbin/sshd")), "/usr/sbin/sshd is not installed (apt-get install "
                + "openssh-server; .ci/run installs it when it runs as root)");
        Path hosts = dir.resolve("hosts.properties");
        String login = "o=$(sed -n 's/^ssh.options=//p' \"$LOOPBENCH_HOSTS\"); "
                + "p=$(sed -n 's/^origin=.*:\\([0-9]*\\)$/\\1/p' \"$LOOPBENCH_HOSTS\"); "
                + "ssh $o -o BatchMode=yes -p \"$p\" \"$(id -un)@127.0.0.1\" echo logged-in-there";
        Result r = run(SSH_LOOPBACK, "--roles", "origin,echo", "--hosts-file", hosts.toString(), "--", "bash", "-c",
                "cat \"$LOOPBENCH_HOSTS\"; " + login);
        assertEquals(0, r.exit, r.stderr);
        assertTrue(r.stdout.matches("(?s).*\norigin=ssh://[^@]+@127\\.0\\.0\\.1:\\d+\n.*"), r.stdout);
        assertTrue(r.stdout.matches("(?s).*\necho=ssh://[^@]+@127\\.0\\.0\\.1:\\d+\n.*"), r.stdout);
        assertFalse(r.stdout.contains("proxy="), r.stdout);
        assertTrue(r.stdout.contains("logged-in-there"), r.stdout + r.stderr);
        String key = r.stdout.replaceAll("(?s).*ssh\\.options=-i (\\S+).*", "$1");
        assertFalse(Files.exists(Path.of(key)), "the generated key is removed at the end: " + key);
    }

    /** An object only the after build allocates shows up at its site, scaled to the bytes per operation given. */
    @Test
    void allocDiffNamesWhatOnlyOneBuildAllocates(@TempDir Path dir) throws Exception {
        Path before = Files.writeString(dir.resolve("before.csv"),
                "a;loopbench/proxy/L7FrontendHandler.read;byte[]_[i] 90\nb;loopbench/proxy/Relay.go;Object_[i] 10\n");
        Path after = Files.writeString(dir.resolve("after.csv"),
                "a;loopbench/proxy/L7FrontendHandler.read;byte[]_[i] 90\nb;loopbench/proxy/Relay.go;Object_[i] 10\n"
                        + "c;loopbench/proxy/L7FrontendHandler.next;loopbench.proxy.Exchange_[i] 11\n");
        Result r = run(ALLOC_DIFF, before.toString(), after.toString(), "--before-bytes", "100",
                "--after-bytes", "111");
        assertEquals(0, r.exit, r.stderr);
        assertTrue(r.stdout.contains("| loopbench.proxy.Exchange | L7FrontendHandler.next | 0.0 | 11.0 | +11.0 |"),
                r.stdout);
        assertTrue(r.stdout.contains("| byte[] | L7FrontendHandler.read | 90.0 | 90.0 | +0.0 |"), r.stdout);
    }

    /** The gate's proof pooled its 20 A/A gates of the five-line gate.jmh with this tool: the same table again. */
    @Test
    void gateStatsPoolsTheCommittedGatesIntoTheCommittedTable() throws Exception {
        Path gates = Path.of("docs/results/2026-11-23/gate-proof/gate-jmh-aa/five-lines");
        Result r = run(GATE_STATS, "pool", gates.toString());
        assertEquals(0, r.exit, r.stderr);
        assertEquals(Files.readString(gates.resolve("pooled.md")), r.stdout);
    }

    /**
     * Three forks of four iterations, log values a_f + e with fork levels a = 0, 0.2, 0.4 and e = +-0.1: within a
     * fork sd sqrt(0.12 / 9) = 0.115, the fork means' sd 0.200, of which 0.115 / sqrt(4) = 0.058 is the within-fork
     * noise and sqrt(0.04 - 0.0133 / 4) = 0.191 lies between forks.
     */
    @Test
    void gateStatsSplitsTheForkSpreadIntoWithinAndBetween(@TempDir Path dir) throws Exception {
        // The primary metric as above; a secondary one, its inverse, moves against it in every fork and iteration.
        List<String> forks = new ArrayList<>();
        List<String> inverse = new ArrayList<>();
        for (double a : new double[] {0, 0.2, 0.4}) {
            List<String> f = new ArrayList<>();
            List<String> g = new ArrayList<>();
            for (double e : new double[] {0.1, -0.1, 0.1, -0.1}) {
                f.add(Double.toString(Math.exp(a + e)));
                g.add(Double.toString(Math.exp(-a - e)));
            }
            forks.add("[" + String.join(",", f) + "]");
            inverse.add("[" + String.join(",", g) + "]");
        }
        Path json = Files.writeString(dir.resolve("r.json"), "[{\"benchmark\":\"X\",\"primaryMetric\":{\"score\":1,"
                + "\"rawData\":[" + String.join(",", forks) + "]},\"secondaryMetrics\":{\"inverse\":{\"rawData\":["
                + String.join(",", inverse) + "]}}}]");
        Result r = run(GATE_STATS, "components", json.toString(), "--metric", "primary", "--with", "inverse");
        assertEquals(0, r.exit, r.stderr);
        assertTrue(r.stdout.contains("within a fork, sd of log per iteration 0.115 (9 df); sd of the fork means 0.200 "
                + "(2 df), of which the within-fork noise explains 0.058; between forks 0.191"), r.stdout);
        assertTrue(r.stdout.contains("with inverse: correlation of the fork means (each from its result's mean) -1.00 "
                + "over 3 forks; of the iterations within their fork -1.00 over 12"), r.stdout);
    }

    /** The L7 profile's record: 19,314 samples, 80.2% of them in the kernel, HTTP encoding 1.7% of all. */
    @Test
    void profileBreakdownReadsTheCommittedProfileAsRecorded() throws Exception {
        Result r = run(BREAKDOWN, "docs/results/2026-11-24/l7-profile/l7.collapsed.gz");
        assertEquals(0, r.exit, r.stderr);
        assertTrue(r.stdout.startsWith("19314 samples (1 ms of CPU each); user space (leaf frame not in the kernel): "
                + "3828, 19.8%; kernel: 80.2%"), r.stdout);
        assertTrue(r.stdout.contains("| HTTP encoding, both sides (HttpObjectEncoder.encode) | 8.6% | 1.7% |"),
                r.stdout);
    }

    private record Result(int exit, String stdout, String stderr) {
    }

    private static Result run(String script, String... args) throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(Path.of(script)), script);
        List<String> command = new ArrayList<>(List.of(interpreter(script), script));
        command.addAll(List.of(args));
        Path out = Files.createTempFile("script", ".out");
        Path err = Files.createTempFile("script", ".err");
        try {
            Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError(command + " did not exit within 30 s");
            }
            return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /** bash for the shell scripts; python3 for the Python tools, whose tests are skipped, saying so, without it. */
    private static String interpreter(String script) {
        if (!script.endsWith(".py")) {
            return "bash";
        }
        assumeTrue(onPath("python3"), script + " needs python3, which is not on the PATH: skipped");
        return "python3";
    }

    private static boolean onPath(String program) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator))
                .anyMatch(dir -> !dir.isEmpty() && Files.isExecutable(Path.of(dir, program)));
    }
}
