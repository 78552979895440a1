package loopbench.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code pairs}: bad usage and input that is not a rounds run's JMH JSON. */
class PairsCommandTest {
    private static final String NETNS = "docs/results/2026-11-26/netns-proxy/results.json";

    @Test
    void badSelectorsAndFilesExitNonZeroSayingWhy(@TempDir Path dir) throws Exception {
        CliArgumentsTest.Result malformed = CliArgumentsTest.run("pairs", NETNS, "--baseline", "topology",
                "--candidate", "topology=netns");
        assertEquals(2, malformed.exitCode(), malformed::toString);
        assertTrue(malformed.err().contains("'topology' is not a selector"), malformed::toString);

        CliArgumentsTest.Result typo = CliArgumentsTest.run("pairs", NETNS, "--baseline", "topology=locl",
                "--candidate", "topology=netns");
        assertEquals(2, typo.exitCode(), typo::toString);
        assertTrue(typo.err().contains("topology takes local, netns here"), typo::toString);

        CliArgumentsTest.Result missing = CliArgumentsTest.run("pairs", NETNS);
        assertEquals(2, missing.exitCode(), missing::toString);
        assertTrue(missing.err().contains("--baseline") && missing.err().contains("--candidate"), missing::toString);

        Path text = Files.writeString(dir.resolve("notes.json"), "these are notes, not JSON");
        CliArgumentsTest.Result notJson = CliArgumentsTest.run("pairs", text.toString(), "--baseline", "a=b",
                "--candidate", "a=c");
        assertEquals(1, notJson.exitCode(), notJson::toString);
        assertTrue(notJson.err().contains(text + " is not a JMH JSON result (not JSON"), notJson::toString);
    }
}
