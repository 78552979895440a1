package loopbench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** gate's bad usage: exit 2, naming the bad value and the valid ones, before any fork runs. */
class GateCommandTest {

    private static void assertBadUsage(CliArgumentsTest.Result r, String... mentions) {
        assertEquals(2, r.exitCode(), r::toString);
        for (String m : mentions) {
            assertTrue(r.err().contains(m), () -> "should mention '" + m + "': " + r);
        }
    }

    @Test
    void badValuesAreNamed(@TempDir Path dir) throws Exception {
        String jar = Files.writeString(dir.resolve("b.jar"), "x").toString();
        String profile = Files.writeString(dir.resolve("p.jmh"), "CalibrationBenchmark\n").toString();
        String out = dir.resolve("out").toString();
        assertBadUsage(CliArgumentsTest.run("gate", "--baseline", dir.resolve("missing.jar").toString(),
                "--candidate", jar, "--profile", profile, "--out", out), "--baseline", "missing.jar", "no such file");
        assertBadUsage(CliArgumentsTest.run("gate", "--baseline", jar, "--candidate", jar, "--profile", profile,
                "--rounds", "1", "--out", out), "--rounds must be >= 2", "was 1");
        assertBadUsage(CliArgumentsTest.run("gate", "--baseline", jar, "--candidate", jar, "--profile", profile,
                "--candidate-unsafe", "maybe", "--out", out), "'maybe'", "valid: on, off");
        assertBadUsage(CliArgumentsTest.run("gate", "--baseline", jar, "--candidate", jar, "--profile", profile,
                "--threshold", "-2", "--out", out), "--threshold", "-2.0");
        assertBadUsage(CliArgumentsTest.run("gate", "--baseline", jar, "--candidate", jar, "--profile", profile,
                "--baseline-jvm", "/no/such/java", "--out", out), "--baseline-jvm", "/no/such/java");
        assertBadUsage(CliArgumentsTest.run("gate", "--baseline", jar, "--candidate", jar,
                "--profile", dir.resolve("none.jmh").toString(), "--out", out), "none.jmh", "no such profile");
        assertBadUsage(CliArgumentsTest.run("gate", "--candidate", jar), "--baseline");
        assertTrue(Files.notExists(dir.resolve("out")), "nothing ran");
    }

    @Test
    void helpNamesTheOptionsAndExitCodes() {
        CliArgumentsTest.Result r = CliArgumentsTest.run("gate", "--help");
        assertEquals(0, r.exitCode(), r::toString);
        for (String m : new String[] {"--baseline", "--candidate", "--profile", "--rounds", "--baseline-jvm",
                "--candidate-jvm-args", "--threshold", "--alloc-threshold", "--summary", "--json",
                "Exit: 0 pass, 1 regression, 2"}) {
            assertTrue(r.out().contains(m), () -> m + ": " + r);
        }
    }
}
