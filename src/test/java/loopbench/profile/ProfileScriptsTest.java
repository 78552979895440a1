package loopbench.profile;

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

/**
 * The scripts under {@code profiles/} (the gate's proof, the soak, the reference-proxy comparison) take hours, so a
 * typo must fail at once: exit 2, with the bad option or value named and, where there is a list, the valid ones. Every
 * check here runs before the scripts look for their jars and tools, so it holds on a fresh clone without wrk, nginx
 * or a build.
 */
class ProfileScriptsTest {
    private static final String GATE_PROOF = "profiles/gate-proof.sh";
    private static final String SOAK = "profiles/soak.sh";
    private static final String COMPARE = "profiles/reference-proxies/compare.sh";
    private static final String CLAIMS_NULL = "profiles/claims-null-proof.sh";

    @ParameterizedTest
    @ValueSource(strings = {GATE_PROOF, SOAK, COMPARE, CLAIMS_NULL})
    void helpPrintsTheUsageAndExitsZero(String script) throws Exception {
        Result r = run(script, "--help");
        assertEquals(0, r.exit, r.stderr);
        assertTrue(r.stdout.contains("--"), "the usage names the options: " + r.stdout);
        assertFalse(r.stdout.contains("#!/"), r.stdout);
    }

    static Stream<Arguments> badInput() {
        return Stream.of(
                Arguments.of(GATE_PROOF, List.of("--bogus"), List.of("unknown option '--bogus'", "--runs N", "--kinds aa,power,flag")),
                Arguments.of(GATE_PROOF, List.of("--runs", "x"), List.of("--runs 'x' is not a positive integer")),
                Arguments.of(GATE_PROOF, List.of("--runs", "0"), List.of("--runs '0' is not a positive integer")),
                Arguments.of(GATE_PROOF, List.of("--rounds", "-3"), List.of("--rounds '-3' is not a positive integer")),
                Arguments.of(GATE_PROOF, List.of("--kinds", "aa,bb"), List.of("unknown kind 'bb'", "valid: aa, power, flag")),
                Arguments.of(GATE_PROOF, List.of("--profile", "nope.jmh"), List.of("--profile 'nope.jmh'", "profiles/gate.jmh")),
                Arguments.of(GATE_PROOF, List.of("--runs"), List.of("option '--runs' needs a value")),
                Arguments.of(SOAK, List.of("--bogus"), List.of("unknown option '--bogus'", "--requests N")),
                Arguments.of(SOAK, List.of("--requests", "0"), List.of("--requests '0' is not a positive integer")),
                Arguments.of(SOAK, List.of("--body-size", "1k"), List.of("--body-size '1k' is not a positive integer")),
                Arguments.of(SOAK, List.of("--out"), List.of("option '--out' needs a value")),
                Arguments.of(COMPARE, List.of("--bogus"), List.of("unknown option '--bogus'", "--pages small|large|both")),
                Arguments.of(COMPARE, List.of("--rounds", "x"), List.of("--rounds 'x' is not a non-negative integer")),
                Arguments.of(COMPARE, List.of("--pages", "medium"), List.of("--pages 'medium'", "valid: small, large, both")),
                Arguments.of(COMPARE, List.of("--jvm-variant", "UseSerialGC"), List.of("'UseSerialGC' is not a JVM option")),
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
                Arguments.of(CLAIMS_NULL, List.of("--out"), List.of("option '--out' needs a value")));
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

    private record Result(int exit, String stdout, String stderr) {
    }

    private static Result run(String script, String... args) throws IOException, InterruptedException {
        assertTrue(Files.isRegularFile(Path.of(script)), script);
        List<String> command = new ArrayList<>(List.of("bash", script));
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
}
