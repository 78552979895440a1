package loopbench.cli;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * README.md shows only what exists: every {@code java -jar target/loopbench.jar ...} command's subcommand and flags
 * (checked against the CLI's own picocli model, in process), every benchmark command's JMH options, benchmarks and
 * {@code -p} parameters, every {@code ./mvnw ...} command's profiles, properties and files, every repository path,
 * link and anchor, every {@code -Dloopbench.*} property; the same of the findings log, docs/results/README.md. And
 * {@code .ci/run} runs exactly the command under "Run the tests", and the Layout names every package, profile and tool.
 */
class ReadmeCommandsTest {
    private static final Path ROOT = Path.of("");
    private static final Path README = Path.of("README.md");

    @Test
    void everyCommandPathAndLinkOfTheReadmeExists() throws Exception {
        List<String> problems = ReadmeReferences.problems(Files.readString(README), ROOT);
        assertEquals(List.of(), problems, "README.md shows what does not exist:\n" + String.join("\n", problems));
    }

    /** The findings log: its links to the records (relative to docs/results), the paths and commands it names. */
    @Test
    void everyRecordPathAndCommandOfTheFindingsLogExists() throws Exception {
        Path log = Path.of("docs/results/README.md");
        List<String> problems = ReadmeReferences.problems(Files.readString(log), ROOT, log.getParent());
        assertEquals(List.of(), problems, log + " names what does not exist:\n" + String.join("\n", problems));
    }

    /** The check above is only as good as what it finds: the README's commands of every kind are found. */
    @Test
    void theExtractorFindsTheReadmesCommandsOfEveryKind() throws Exception {
        ReadmeReferences.References refs = ReadmeReferences.extract(Files.readString(README));
        assertTrue(count(refs, c -> c.text().startsWith("java -jar target/loopbench.jar")) >= 10, refs.toString());
        assertTrue(count(refs, c -> c.text().startsWith("java -jar target/benchmarks.jar")) >= 5, refs.toString());
        assertTrue(count(refs, c -> c.text().startsWith("./mvnw")) >= 5, refs.toString());
        assertTrue(count(refs, c -> c.text().contains("loopbench.suite.Suite")) >= 1, refs.toString());
        assertTrue(refs.paths().size() >= 20, refs.paths().toString());
        assertTrue(refs.paths().contains("profiles/claims.jmh"), refs.paths().toString());
        assertTrue(refs.links().contains("CLAIMS.md"), refs.links().toString());
    }

    @Test
    void ciRunsExactlyTheReadmesTestCommand() throws Exception {
        String readme = Files.readString(README);
        int heading = readme.indexOf("\n### Run the tests\n");
        assertTrue(heading >= 0, "README.md has the heading 'Run the tests' (.ci/run refers to it)");
        int open = readme.indexOf("```sh\n", heading);
        String command = readme.substring(open + 6, readme.indexOf('\n', open + 6)).replaceAll("\\s+#.*", "").trim();
        assertEquals("./mvnw -B verify", command);
        String ci = Files.readString(Path.of(".ci/run"));
        assertTrue(ci.contains("\nexec " + command + "\n"), ".ci/run ends with: exec " + command + "\n" + ci);
    }

    /** The Layout section names every package, every profile and every tool a user runs. */
    @Test
    void theLayoutNamesEveryPackageProfileAndTool() throws Exception {
        String readme = Files.readString(README);
        String layout = readme.substring(readme.indexOf("\n## Layout\n"));
        List<String> missing = new ArrayList<>();
        for (String dir : List.of("src/main/java/loopbench", "src/jmh/java/loopbench")) {
            try (Stream<Path> packages = Files.list(Path.of(dir))) {
                packages.filter(Files::isDirectory).map(p -> "`" + p.getFileName() + "`")
                        .filter(name -> !layout.contains(name)).forEach(missing::add);
            }
        }
        try (Stream<Path> files = Files.walk(Path.of("profiles"))) {
            files.map(Path::toString).filter(f -> f.matches(".*\\.(jmh|sh|py)"))
                    .filter(f -> !layout.contains(f.substring(f.lastIndexOf('/') + 1))).forEach(missing::add);
        }
        assertEquals(List.of(), missing, "README.md's Layout does not name these");
    }

    @Test
    void theCheckFindsABadFlagABadCommandAMissingPathAndABrokenLink() {
        String markdown = """
                # Guide

                Run `java -jar target/loopbench.jar load http://127.0.0.1:8080/ --connections 64 --no-such-flag 3`.

                ```sh
                java -jar target/loopbench.jar no-such-command --listen 127.0.0.1:0
                java -jar target/loopbench.jar proxy --backend 127.0.0.1:8080 --layer 7 \\
                     --no-such-proxy-flag x
                java -jar target/benchmarks.jar PipelineCostBenchmark -p noSuchParam=1 -prof gc
                java -jar target/benchmarks.jar NoSuchBenchmark
                ./mvnw -Pno-such-profile verify -Djmh.profile=profiles/no-such.jmh
                ```

                See profiles/missing.jmh, [the rules](NO-SUCH.md), [below](#no-such-heading), -Dloopbench.no.such.
                """;
        List<String> problems = ReadmeReferences.problems(markdown, ROOT);
        for (String expected : List.of("--no-such-flag", "no-such-command", "--no-such-proxy-flag", "noSuchParam",
                "NoSuchBenchmark", "no-such-profile", "profiles/no-such.jmh", "profiles/missing.jmh", "NO-SUCH.md",
                "#no-such-heading", "loopbench.no.such")) {
            assertTrue(problems.stream().anyMatch(p -> p.contains(expected)),
                    "a problem names " + expected + ":\n" + String.join("\n", problems));
        }
        assertEquals(12, problems.size(), String.join("\n", problems)); // the missing profile: as a path and as -D
    }

    @Test
    void theCheckPassesWhatExists() {
        String markdown = """
                # Guide

                ## Run it

                Run `java -jar target/loopbench.jar load http://127.0.0.1:8080/ --rate 100 --json -` (see
                [Run it](#run-it) and [CLAIMS.md](CLAIMS.md)); `profiles/default.jmh` is the default.

                ```sh
                java -jar target/loopbench.jar proxy --listen 127.0.0.1:0 --backend 127.0.0.1:8080 --layer 4  # L4
                java -jar target/benchmarks.jar PipelineCostBenchmark -p layer=7 -prof loopbench.bench.ProcCpuProfiler
                ./mvnw -Pjmh verify -Djmh.profile=profiles/claims.jmh && ./mvnw -B verify -DskipTests
                ```
                """;
        assertEquals(List.of(), ReadmeReferences.problems(markdown, ROOT));
    }

    private static long count(ReadmeReferences.References refs, Predicate<ReadmeReferences.Command> p) {
        return refs.commands().stream().filter(p).count();
    }
}
