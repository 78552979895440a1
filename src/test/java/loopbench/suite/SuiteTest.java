package loopbench.suite;

import loopbench.profile.ProfileLine;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SuiteTest {

    @Test
    void forksGetTheUnsafeFlagsTheirJdkNeeds() throws Exception {
        Options on17 = Suite.options(new CommandLineOptions("Foo"), 17, Path.of("target/jmh/e2e"));
        Options on25 = Suite.options(new CommandLineOptions("Foo", "-jvmArgsPrepend", "-Dx=1"), 25, Path.of("target/jmh/e2e"));
        List<String> args17 = new ArrayList<>(on17.getJvmArgsPrepend().get());
        List<String> args25 = new ArrayList<>(on25.getJvmArgsPrepend().get());
        assertEquals(List.of("-Dloopbench.requireUnsafe=true",
                "-Dloopbench.e2e.dir=" + Path.of("target/jmh/e2e").toAbsolutePath()), args17,
                "JDK 17 needs no Unsafe flag; every fork learns where end-to-end side files go");
        assertTrue(args25.contains("--sun-misc-unsafe-memory-access=allow"), args25.toString());
        assertTrue(args25.contains("-Dloopbench.requireUnsafe=true"), args25.toString());
        assertTrue(args25.contains("-Dx=1"), "user's own prepend args are kept: " + args25);
        assertFalse(args17.contains("--sun-misc-unsafe-memory-access=allow"));
    }

    @Test
    void theShippedProfilesParseAsJmhOptions() throws Exception {
        try (var files = Files.list(Paths.get("profiles"))) {
            List<Path> profiles = files.filter(f -> f.toString().endsWith(".jmh")).toList();
            assertFalse(profiles.isEmpty(), "profiles/*.jmh");
            for (Path p : profiles) {
                for (ProfileLine line : ProfileLine.read(p)) {
                    new CommandLineOptions(line.args().toArray(new String[0])); // throws on a bad option
                }
            }
        }
    }
}
