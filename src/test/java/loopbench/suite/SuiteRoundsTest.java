package loopbench.suite;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import loopbench.report.JmhResult;
import loopbench.report.ResultTable;
import loopbench.testing.TinyBenchmarksJar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The suite with a rounds profile: its dry run, its errors, and (on a tiny real benchmarks jar) a real run whose forks
 * are child JMH processes, merged into results.json with their rounds.
 */
class SuiteRoundsTest {

    record Result(int exit, String out, String err) {
    }

    /** Runs the suite's command line in this JVM, capturing what it prints. */
    static Result suite(String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            exit = Suite.commandLine().execute(args);
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aDryRunPrintsTheGroupsArmsAndSchedule(@TempDir Path dir) throws Exception {
        Path p = Files.writeString(dir.resolve("r.jmh"), "# a rounds profile\n"
                + "[label=proxy] [rounds=3] ProxyEndToEndBenchmark.requests -p layer=4,7 -p connections=64 -wi 1\n"
                + "[rounds=2] [twins] AggregatorBenchmark -p maxContentLength=2000\n");
        Result r = suite("--profile", p.toString(), "--out", dir.resolve("out").toString(), "--dry-run", "--seed", "9",
                "--", "-i", "2");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("2 group(s), 3 round(s), 10 fork(s), seed 9"), r.out());
        assertTrue(r.out().contains("group proxy (profile line 2, 3 rounds): ProxyEndToEndBenchmark.requests"),
                r.out());
        assertTrue(r.out().contains("  arm a02  layer=7: ProxyEndToEndBenchmark.requests -wi 1 -i 2 -p layer=7 "
                + "-p connections=64"), r.out());
        assertTrue(r.out().contains("  arm a01B maxContentLength=2000 [B]: AggregatorBenchmark -i 2 -p "
                + "maxContentLength=2000"), r.out());
        assertTrue(r.out().contains("round 3: proxy [a0"), r.out());
        assertEquals(r.out(), suite("--profile", p.toString(), "--out", dir.resolve("out").toString(), "--dry-run",
                "--seed", "9", "--", "-i", "2").out(), "a seed replays the schedule");
        assertTrue(Files.notExists(dir.resolve("out")), "nothing ran");
    }

    @Test
    void theNullProfileHasTheFamiliesTheProofAndTheJudgingExpect(@TempDir Path dir) {
        Result r = suite("--profile", "profiles/claims-null.jmh", "--out", dir.resolve("out").toString(), "--dry-run");
        assertEquals(0, r.exit(), r.toString());
        assertTrue(r.out().contains("group null-aggregator (profile line "), r.out());
        for (String twin : List.of("A", "B")) {
            assertTrue(r.out().contains(" maxContentLength=2000 encoding=fixed bodySize=1500 [" + twin + "]: "
                    + "AggregatorBenchmark"), r.out());
        }
        assertTrue(r.out().contains("group null-proxy (profile line "), r.out());
        for (String arm : List.of("a01A layer=4 [A]", "a01B layer=4 [B]", "a02A layer=7 [A]", "a02B layer=7 [B]")) {
            assertTrue(r.out().contains("  arm " + arm + ": ProxyEndToEndBenchmark.requests"), arm + ": " + r.out());
        }
    }

    @Test
    void aBadRoundsProfileExitsTwoNamingTheProblem(@TempDir Path dir) throws Exception {
        Path mixed = Files.writeString(dir.resolve("mixed.jmh"), "[rounds=2] A\nB\n");
        Result r = suite("--profile", mixed.toString(), "--dry-run");
        assertEquals(2, r.exit(), r.toString());
        assertTrue(r.err().contains("line(s) 1 carry [rounds=N] and line(s) 2 do not"), r.err());
        Path unknown = Files.writeString(dir.resolve("unknown.jmh"), "[round=2] A\n");
        Result u = suite("--profile", unknown.toString(), "--dry-run");
        assertEquals(2, u.exit(), u.toString());
        assertTrue(u.err().contains("unknown tag '[round=2]'; valid tags:"), u.err());
        Path jar = Files.writeString(dir.resolve("old.jmh"), "[jar=netty-4.1] [rounds=2] A\n");
        Result j = suite("--profile", jar.toString(), "--dry-run");
        assertEquals(2, j.exit(), j.toString());
        assertTrue(j.err().contains("runs from the netty-4.1 benchmarks jar: give it with --jar netty-4.1=JAR"),
                j.err());
        Path bench = Files.writeString(dir.resolve("benchmarks.jar"), "");
        String absent = dir.resolve("netty-4.1/benchmarks.jar").toString();
        Result needed = suite("--profile", jar.toString(), "--benchmarks-jar", bench.toString(), "--jar",
                "netty-4.1=" + absent, "--out", dir.resolve("out").toString());
        assertEquals(2, needed.exit(), needed.toString());
        assertTrue(needed.err().contains("--jar netty-4.1=" + absent + ": no such file; " + jar + " line 1 runs "
                + "from it (build it with ./mvnw -Pjmh package -Dnetty.version=4.1.136.Final)"), needed.err());
        Path plain = Files.writeString(dir.resolve("plain.jmh"), "[rounds=2] A\n");
        Result unused = suite("--profile", plain.toString(), "--jar", "netty-4.1=" + absent, "--dry-run");
        assertEquals(0, unused.exit(), "a jar no line runs from need not exist (the Maven build names it): " + unused);
        Result unknownJar = suite("--profile", plain.toString(), "--jar", "netty-4.0=" + absent, "--dry-run");
        assertEquals(2, unknownJar.exit(), unknownJar.toString());
        assertTrue(unknownJar.err().contains("unknown name; valid: netty-4.1"), unknownJar.err());
        Path badParam = Files.writeString(dir.resolve("p.jmh"), "[rounds=2] A -p layer\n");
        Result b = suite("--profile", badParam.toString(), "--dry-run");
        assertEquals(2, b.exit(), b.toString());
        assertTrue(b.err().contains("-p 'layer' is not name=value[,value...]"), b.err());
        Path badOption = Files.writeString(dir.resolve("o.jmh"), "[rounds=2] A -wi x\n");
        Result o = suite("--profile", badOption.toString(), "--dry-run");
        assertEquals(2, o.exit(), o.toString());
        assertTrue(o.err().contains("o.jmh line 1:"), o.err());
        Result missing = suite("--profile", badOption.toString().replace("o.jmh", "p2.jmh"));
        assertEquals(2, missing.exit(), "a missing profile: " + missing);
    }

    @Test
    void aRoundsProfileRunsRealForksAndMergesThemWithTheirRounds(@TempDir Path dir) throws Exception {
        Path jar = TinyBenchmarksJar.build(dir);
        Path profile = Files.writeString(dir.resolve("null.jmh"),
                "[label=cal] [rounds=2] [twins] CalibrationBenchmark -p tokens=2000 -wi 1 -w 100ms -i 1 -r 100ms "
                        + "-prof gc\n");
        Path out = dir.resolve("out");
        String old = System.setProperty("jmh.ignoreLock", "true");
        Result r;
        try {
            r = suite("--profile", profile.toString(), "--out", out.toString(), "--benchmarks-jar", jar.toString(),
                    "--seed", "1");
        } finally {
            if (old == null) {
                System.clearProperty("jmh.ignoreLock");
            } else {
                System.setProperty("jmh.ignoreLock", old);
            }
        }
        assertEquals(0, r.exit(), r.toString());
        JsonArray results = ResultTable.read(out.resolve("results.json"));
        assertEquals(2, results.size(), "twin A and twin B: " + results);
        String run = null;
        List<String> arms = new ArrayList<>();
        for (JsonElement e : results) {
            JsonObject o = e.getAsJsonObject();
            JsonObject lb = o.getAsJsonObject("loopbench");
            run = run == null ? lb.get("run").getAsString() : run;
            assertEquals(run, lb.get("run").getAsString(), "one run id");
            assertEquals("cal", lb.get("group").getAsString());
            arms.add(lb.get("arm").getAsString());
            List<Integer> rounds = new ArrayList<>();
            lb.getAsJsonArray("rounds").forEach(x -> rounds.add(x.getAsInt()));
            assertEquals(List.of(1, 2), rounds.stream().sorted().toList());
            JmhResult result = JmhResult.of(o);
            assertEquals(2, result.primary().rawData().length, "a row per fork");
            assertEquals(2, result.metric("gc.alloc.rate.norm").rawData().length);
            assertEquals("2000", result.param("tokens"));
            String armProperty = "-Dloopbench.arm=tokens=2000 [" + lb.get("twin").getAsString() + "]";
            assertTrue(result.jvmArgs().contains(armProperty), "the fork knew its arm: " + result.jvmArgs());
            assertTrue(result.jvmArgs().contains("-Dloopbench.run=" + run), result.jvmArgs().toString());
            assertTrue(result.jvmArgs().contains("-Dloopbench.requireUnsafe=true"), "the suite's own fork options");
        }
        assertEquals(List.of("tokens=2000 [A]", "tokens=2000 [B]"), arms);
        assertTrue(r.out().contains("=== loopbench suite: 2 result(s) from 4 fork(s)"), r.out());
        assertTrue(Files.readString(out.resolve("results.md")).contains("### CalibrationBenchmark"));
        assertTrue(Files.exists(out.resolve("machine.json")));
        assertTrue(Files.readString(out.resolve("progress.txt")).contains("4 of 4 forks run (0 failed"));
        try (var forks = Files.list(out.resolve("forks"))) {
            assertEquals(8, forks.count(), "every fork's JSON and log");
        }
    }
}
