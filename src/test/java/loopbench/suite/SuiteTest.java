package loopbench.suite;

import loopbench.profile.ProfileLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
        Options on17 = Suite.options(new CommandLineOptions("Foo"), 17, Path.of("target/jmh/e2e"), "run-1");
        Options on25 = Suite.options(new CommandLineOptions("Foo", "-jvmArgsPrepend", "-Dx=1"), 25,
                Path.of("target/jmh/e2e"), "run-1");
        List<String> args17 = new ArrayList<>(on17.getJvmArgsPrepend().get());
        List<String> args25 = new ArrayList<>(on25.getJvmArgsPrepend().get());
        assertEquals(List.of("-Dloopbench.requireUnsafe=true",
                "-Dloopbench.e2e.dir=" + Path.of("target/jmh/e2e"), "-Dloopbench.run=run-1"), args17,
                "JDK 17 needs no Unsafe flag; every fork learns where end-to-end side files go, and its run");
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

    @Test
    void endToEndForksAreToldWhereTheirSideFilesGo() throws Exception {
        Options o = Suite.options(new CommandLineOptions("Foo"), 17, Paths.get("/tmp/out/e2e"), "run-1");
        assertTrue(o.getJvmArgsPrepend().get().contains("-Dloopbench.e2e.dir=/tmp/out/e2e"),
                o.getJvmArgsPrepend().get().toString());
    }

    private static String dryRun(Path dir, String... extra) throws Exception {
        Path p = Files.writeString(dir.resolve("p.jmh"), "FooBenchmark -f 3\n");
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.PrintStream old = System.out;
        int code;
        try {
            System.setOut(new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
            List<String> args = new ArrayList<>(List.of("--profile", p.toString(), "--out",
                    dir.resolve("out").toString(), "--dry-run"));
            args.addAll(List.of(extra));
            code = new picocli.CommandLine(new Suite()).execute(args.toArray(new String[0]));
        } finally {
            System.setOut(old);
        }
        return code + "\n" + bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void oneFlagAddsTheFlameGraphProfilerToEveryRun(@TempDir Path dir) throws Exception {
        String out = dryRun(dir, "--flame", "alloc");
        assertTrue(out.startsWith("0\n"), out);
        assertTrue(out.contains("would run: FooBenchmark -f 3 -prof loopbench.bench.FlameProfiler:event=alloc;dir="
                + dir.resolve("out").toAbsolutePath().resolve("flame")), out);
        assertFalse(dryRun(dir).contains("FlameProfiler"), "none by default");
        assertEquals(2, Integer.parseInt(dryRun(dir, "--flame", "cycles").split("\n")[0]), "a bad event exits 2");
    }
}
