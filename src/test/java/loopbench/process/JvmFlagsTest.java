package loopbench.process;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The servers' JVM options: the defaults, then the options of {@code loopbench.server.jvmArgs} in their order, so an
 * experiment's option wins over a default; anything that is not an option is refused by name.
 */
class JvmFlagsTest {

    @Test
    void extraOptionsComeAfterTheDefaultsInTheirOrder() {
        List<String> defaults = JvmFlags.serverDefaults(17, "");
        List<String> flags = JvmFlags.serverDefaults(17, "  -XX:TieredStopAtLevel=1 \t -XX:+UseParallelGC ");
        assertEquals(defaults, flags.subList(0, defaults.size()));
        assertEquals(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseParallelGC"),
                flags.subList(defaults.size(), flags.size()));
        assertTrue(defaults.contains("-XX:+UseG1GC") && defaults.contains("-Xmx1g"), defaults.toString());
    }

    @Test
    void somethingThatIsNotAnOptionIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JvmFlags.serverDefaults(17, "-Xmx2g UseParallelGC"));
        assertTrue(e.getMessage().contains("'UseParallelGC'") && e.getMessage().contains("loopbench.server.jvmArgs")
                && e.getMessage().contains("start with '-'"), e.getMessage());
    }

    @Test
    void aServerProcessRunsWithTheExtraOptions() throws Exception {
        List<String> flags = JvmFlags.serverDefaults(JvmFlags.currentFeature(),
                "-Xms64m -Xmx128m -XX:TieredStopAtLevel=1 -Dloopbench.test.marker=jvm-flags-test");
        ServerProcess origin = ServerProcess.start("origin", List.of("--io-threads", "1"), flags);
        try {
            String cmdline = Files.readString(Path.of("/proc/" + origin.pid() + "/cmdline")).replace('\0', ' ');
            assertTrue(cmdline.contains(" -Dloopbench.test.marker=jvm-flags-test "), cmdline);
            assertTrue(cmdline.indexOf("-Xmx1g") < cmdline.indexOf("-Xmx128m"), "the extra option comes last: "
                    + cmdline);
        } finally {
            assertEquals(0, origin.stop(), origin::stderr);
        }
    }
}
