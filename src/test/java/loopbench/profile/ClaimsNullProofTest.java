package loopbench.profile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * profiles/claims-null-proof.sh's bookkeeping, with a stand-in for java: the "suite" writes a results.json, the
 * "judging" answers "decisive checks: K of M (0 not measured)" (one family has a decisive check). The tally is
 * rewritten after every family, so a proof that stops keeps what it counted. (Its argument checks are in
 * ProfileScriptsTest.)
 */
class ClaimsNullProofTest {
    private static final String STUB = """
            #!/usr/bin/env bash
            args="$*"
            case "$args" in
              *loopbench.suite.Suite*)
                out=; prev=
                for a in "$@"; do [ "$prev" = --out ] && out=$a; prev=$a; done
                mkdir -p "$out"; echo '[]' > "$out/results.json"; echo "$args" > "$out/suite-args.txt"; exit 0 ;;
              *"claims --null"*)
                f=${@: -1}
                case "$f" in
                  *family-02*) echo "decisive checks: 1 of 3 (0 not measured)" ;;
                  *family-03*) if [ -n "${FAIL_THIRD:-}" ]; then echo boom; exit 3; fi
                               echo "decisive checks: 0 of 3 (0 not measured)" ;;
                  *) echo "null-proxy layer=4 [B]/[A]: 1.003 [0.991, 1.015], not decisive"
                     echo "decisive checks: 0 of 3 (0 not measured)" ;;
                esac
                exit 0 ;;
            esac
            echo "unexpected: $args" >&2; exit 9
            """;

    private record Result(int exit, String stdout, String stderr) {
    }

    private static Result proof(Path dir, Map<String, String> env, String... args) throws Exception {
        Path java = dir.resolve("java");
        Files.writeString(java, STUB);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        Path jar = Files.writeString(dir.resolve("some.jar"), "not really a jar");
        List<String> command = new ArrayList<>(List.of("bash", "profiles/claims-null-proof.sh", "--benchmarks-jar",
                jar.toString(), "--loopbench-jar", jar.toString(), "--out", dir.resolve("out").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(dir.resolve("stdout").toFile())
                .redirectError(dir.resolve("stderr").toFile());
        pb.environment().put("JAVA", java.toString());
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError(command + " did not exit within 60 s");
        }
        return new Result(p.exitValue(), Files.readString(dir.resolve("stdout"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8));
    }

    @Test
    void familiesAreRunJudgedAndTallied(@TempDir Path dir) throws Exception {
        Result r = proof(dir, Map.of(), "--families", "3", "--seed", "100", "--", "-i", "1");
        assertEquals(0, r.exit(), r.toString());
        String summary = Files.readString(dir.resolve("out/summary.md"));
        assertTrue(summary.contains("- families with any decisive check: 1 of 3 (target: 0 of 20)"), summary);
        assertTrue(summary.contains("- families run: 3 of 3 (0 failed"), summary);
        assertEquals(List.of("family 01: decisive checks 0 of 3 (suite exit 0,",
                        "family 02: decisive checks 1 of 3 (suite exit 0,",
                        "family 03: decisive checks 0 of 3 (suite exit 0,"),
                Files.readAllLines(dir.resolve("out/families.txt")).stream()
                        .map(l -> l.substring(0, l.indexOf(',') + 1)).toList());
        String suiteArgs = Files.readString(dir.resolve("out/family-01/suite-args.txt"));
        assertTrue(suiteArgs.contains("--profile profiles/claims-null.jmh --out " + dir.resolve("out/family-01")
                + " --seed 101 -- -i 1"), suiteArgs);
        assertTrue(Files.readString(dir.resolve("out/family-03/suite-args.txt")).contains("--seed 103"));
        assertTrue(Files.readString(dir.resolve("out/family-02/null.txt"))
                .contains("decisive checks: 1 of 3 (0 not measured)"));
        assertTrue(r.stdout().contains("families with any decisive check: 1 of 3"), r.stdout());
    }

    @Test
    void aJudgingThatFailsStopsTheProofAndKeepsTheTallySoFar(@TempDir Path dir) throws Exception {
        Result r = proof(dir, Map.of("FAIL_THIRD", "1"), "--families", "4");
        assertEquals(1, r.exit(), r.toString());
        assertTrue(r.stderr().contains("family 03: judging FAILED (claims --null exit 3"), r.stderr());
        String summary = Files.readString(dir.resolve("out/summary.md"));
        assertTrue(summary.contains("- families with any decisive check: 1 of 2"), summary);
        assertTrue(summary.contains("- families run: 3 of 4 (1 failed"), summary);
        assertFalse(Files.exists(dir.resolve("out/family-04")), "nothing runs after a failed judging");
    }

    @Test
    void aResumedProofKeepsAndCountsTheEarlierFamiliesAndRunsTheRestWithTheirOwnSeeds(@TempDir Path dir)
            throws Exception {
        Result first = proof(dir, Map.of("FAIL_THIRD", "1"), "--families", "4", "--seed", "100");
        assertEquals(1, first.exit(), first.toString());
        Result resumed = proof(dir, Map.of(), "--families", "4", "--seed", "100", "--from", "3");
        assertEquals(0, resumed.exit(), resumed.toString());
        assertEquals(List.of("family 01: decisive checks 0 of 3 (suite exit 0,",
                        "family 02: decisive checks 1 of 3 (suite exit 0,",
                        "family 03: decisive checks 0 of 3 (suite exit 0,",
                        "family 04: decisive checks 0 of 3 (suite exit 0,"),
                Files.readAllLines(dir.resolve("out/families.txt")).stream()
                        .map(l -> l.substring(0, l.indexOf(',') + 1)).toList());
        String summary = Files.readString(dir.resolve("out/summary.md"));
        assertTrue(summary.contains("- families with any decisive check: 1 of 4 (target: 0 of 20)"), summary);
        assertTrue(summary.contains("- families run: 4 of 4 (0 failed"), summary);
        assertTrue(Files.readString(dir.resolve("out/family-03/suite-args.txt")).contains("--seed 103"));
        assertTrue(Files.readString(dir.resolve("out/family-04/suite-args.txt")).contains("--seed 104"));

        Result tooFar = proof(dir, Map.of(), "--families", "6", "--from", "6");
        assertEquals(2, tooFar.exit(), tooFar.toString());
        assertTrue(tooFar.stderr().contains("--from 6: family 5 has no line"), tooFar.stderr());
    }
}
