package loopbench.gate;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import loopbench.process.JavaRuntime;
import loopbench.profile.ProfileLine;
import loopbench.rounds.BalancedOrder;
import loopbench.rounds.ForkCommand;
import loopbench.rounds.ForkRunner;
import loopbench.testing.JmhJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gate's process logic with a fake fork runner: it writes the JMH JSON a fork would, with values of a known
 * distribution per side, so the rounds, the pairing, the reports and the exit codes are checked in milliseconds.
 */
class GateTest {

    /** A fork "runs" by writing a one-fork JMH result; the candidate's values are scaled; a side may fail. */
    static final class FakeRunner implements ForkRunner {
        final List<List<String>> commands = new ArrayList<>();
        final Random random = new Random(42);
        double candidateScore = 1.0;
        double candidateBytes = 1.0;
        String failingSide;
        /** A line the baseline jar has no benchmark for (new in the candidate). */
        String newInCandidate;
        int failOnLine = -1;
        double drift = 1;
        /** A benchmark one side's jar only has (deleted or renamed in the candidate): "baseline" or "candidate". */
        String extraBenchmarkIn;
        /** Each side's @Param values (JmhJson's params text): a changed parameter changes the key. */
        String baselineParams = "";
        String candidateParams = "";

        @Override
        public int run(List<String> command, Path log) throws java.io.IOException {
            commands.add(command);
            boolean candidate = command.contains(CANDIDATE.toString());
            String line = command.get(command.indexOf("-jar") + 2); // the benchmark selection
            if (failingSide != null && candidate == "candidate".equals(failingSide)
                    && line.equals("Line" + failOnLine)) {
                Files.writeString(log, "# Run progress\njava.lang.IllegalStateException: boom in " + line + "\n");
                return 1;
            }
            if (!candidate && line.equals(newInCandidate)) {
                Files.writeString(log, "No matching benchmarks. Miss-spelled regexp?\n");
                return 1;
            }
            Path rff = Paths.get(command.get(command.indexOf("-rff") + 1));
            if (commands.size() % 2 == 1) { // the machine's mood changes between pairs, and hits both forks of one
                drift = Math.exp(random.nextGaussian() * 0.2);
            }
            double score = 100 * drift * Math.exp(random.nextGaussian() * 0.003) * (candidate ? candidateScore : 1);
            double bytes = 1488 * (candidate ? candidateBytes : 1);
            String params = candidate ? candidateParams : baselineParams;
            List<String> results = new ArrayList<>(List.of(
                    JmhJson.result(line + ".run", "thrpt", params, new double[] {score}, new double[] {bytes}),
                    JmhJson.result(line + ".time", "avgt", params, new double[] {1e6 / score}, null)));
            if ((candidate ? "candidate" : "baseline").equals(extraBenchmarkIn)) {
                results.add(JmhJson.result(line + ".extra", "avgt", "", new double[] {1e6 / score}, null));
            }
            Files.writeString(rff, JmhJson.array(results.toArray(new String[0])));
            Files.writeString(log, "ok\n");
            return 0;
        }
    }

    static Path BASELINE;
    static Path CANDIDATE;

    private static GateSettings settings(Path dir, int rounds, String candidateArgs) throws Exception {
        BASELINE = Files.writeString(dir.resolve("base.jar"), "not really a jar");
        CANDIDATE = Files.writeString(dir.resolve("cand.jar"), "not really a jar");
        Path profile = Files.writeString(dir.resolve("p.jmh"),
                "# two lines\nLine2 -f 3 -wi 1 -prof gc\n\nLine4 -jvmArgsPrepend -Dline=1 -i 1\n[jdk>=99] Line5\n");
        return GateSettings.of(raw(BASELINE, CANDIDATE, profile, rounds, candidateArgs, dir.resolve("out"), 7L, false));
    }

    static GateSettings.Raw raw(Path baseline, Path candidate, Path profile, int rounds, String candidateArgs, Path out,
                                long seed, boolean allowPartial) {
        return new GateSettings.Raw(baseline, candidate, profile, rounds, null, null, null, candidateArgs, "on", "on",
                3, 0.5, out, null, null, seed, true, allowPartial);
    }

    private record Run(int exit, String progress, String out) {
    }

    private static Run gate(GateSettings s, ForkRunner runner) throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = new Gate(s, runner, new PrintStream(progress, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8)).run();
        return new Run(exit, progress.toString(StandardCharsets.UTF_8), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aAgainstAPassesAndKeepsEveryFork(@TempDir Path dir) throws Exception {
        GateSettings s = settings(dir, 6, null);
        FakeRunner runner = new FakeRunner();
        Run r = gate(s, runner);
        assertEquals(Gate.PASS, r.exit(), r::toString);
        assertEquals(6 * 2 * 2, runner.commands.size(), "rounds x lines x sides");
        try (var files = Files.list(dir.resolve("out/forks"))) {
            assertEquals(6 * 2 * 2, files.filter(f -> f.toString().endsWith(".json")).count());
        }
        assertTrue(r.progress().contains("skipped: line 5 needs JDK 99+"), r.progress());
        assertTrue(r.progress().contains("round 6/6") && r.progress().contains("ETA"), r.progress());
        assertTrue(r.out().contains("loopbench gate: PASS"), r.out());
        String summary = Files.readString(dir.resolve("out/summary.md"));
        assertTrue(summary.contains("## loopbench gate: PASS") && summary.contains("Netty Unsafe on"), summary);
        assertTrue(summary.contains("| Line2.run thrpt | score (higher is better) |"), summary);
        assertTrue(summary.contains("| Line4.time avgt | score (lower is better) |"), summary);
        JsonObject json = JsonParser.parseString(Files.readString(dir.resolve("out/gate.json"))).getAsJsonObject();
        assertEquals("PASS", json.get("verdict").getAsString());
        assertEquals(6, json.get("roundsDone").getAsInt());
        assertEquals(6, json.getAsJsonArray("results").size(), "per line: a thrpt score, its B/op, an avgt score");
        assertEquals(6, json.getAsJsonArray("results").get(0).getAsJsonObject().getAsJsonArray("baselineForks").size());
    }

    @Test
    void eachSideOfALineGoesFirstInHalfTheRounds(@TempDir Path dir) throws Exception {
        FakeRunner runner = new FakeRunner();
        gate(settings(dir, 8, null), runner);
        Map<String, List<Boolean>> baselineFirstByLine = new TreeMap<>();
        for (int i = 0; i < runner.commands.size(); i += 2) {
            List<String> first = runner.commands.get(i);
            List<String> second = runner.commands.get(i + 1);
            String line = first.get(first.indexOf("-jar") + 2);
            assertEquals(line, second.get(second.indexOf("-jar") + 2), "both sides of a line run back to back");
            baselineFirstByLine.computeIfAbsent(line, k -> new ArrayList<>()).add(first.contains(BASELINE.toString()));
        }
        assertEquals(2, baselineFirstByLine.size(), baselineFirstByLine.toString());
        for (Map.Entry<String, List<Boolean>> e : baselineFirstByLine.entrySet()) {
            assertEquals(8, e.getValue().size(), e.toString());
            assertEquals(4, e.getValue().stream().filter(b -> b).count(), "baseline first in half the rounds: " + e);
        }
    }

    @Test
    void aBalancedOrderIsBalancedAndRandom() {
        Random random = new Random(1);
        Set<String> patterns = new HashSet<>();
        for (int rounds = 1; rounds <= 9; rounds++) {
            for (int k = 0; k < 20; k++) {
                List<Boolean> first = BalancedOrder.of(2, rounds, random).stream().map(o -> o.get(0) == 0).toList();
                assertEquals(rounds, first.size());
                long baseline = first.stream().filter(b -> b).count();
                assertTrue(baseline == rounds / 2 || baseline == (rounds + 1) / 2, rounds + " rounds: " + baseline);
                if (rounds == 8) {
                    patterns.add(first.toString());
                }
            }
        }
        assertTrue(patterns.size() > 10, "which half goes first is random: " + patterns.size() + " patterns of 20");
    }

    @Test
    void aFivePercentSlowerCandidateIsARegressionDespiteDrift(@TempDir Path dir) throws Exception {
        FakeRunner runner = new FakeRunner();
        runner.candidateScore = 0.95;
        Run r = gate(settings(dir, 6, null), runner);
        assertEquals(Gate.REGRESSION, r.exit(), r::toString);
        assertTrue(r.out().contains("## loopbench gate: REGRESSION (4 regressions)"), r.out());
    }

    @Test
    void onePercentMoreBytesIsARegression(@TempDir Path dir) throws Exception {
        FakeRunner runner = new FakeRunner();
        runner.candidateBytes = 1.01;
        Run r = gate(settings(dir, 4, null), runner);
        assertEquals(Gate.REGRESSION, r.exit(), r::toString);
        assertTrue(r.out().contains("| B/op | 1,488 | 1,503 | B/op | +1.00% (+1.00% .. +1.00%) | +0.5% |"), r.out());
    }

    @Test
    void aSideThatFailsStopsTheGateWithExit2SayingWhichSideAndLine(@TempDir Path dir) throws Exception {
        FakeRunner runner = new FakeRunner();
        runner.failingSide = "candidate";
        runner.failOnLine = 4;
        Run r = gate(settings(dir, 4, null), runner);
        assertEquals(Gate.FAILED, r.exit(), r::toString);
        assertTrue(r.progress().contains("FAILED: the candidate side failed to run profile line 4 (Line4 "),
                r.progress());
        assertTrue(r.progress().contains("boom in Line4"), "the log's tail is shown: " + r.progress());
        assertTrue(Files.readString(dir.resolve("out/summary.md")).contains("FAILED"));
        runner.failingSide = "baseline";
        runner.failOnLine = 2;
        Run b = gate(settings(dir, 4, null), runner);
        assertEquals(Gate.FAILED, b.exit());
        assertTrue(b.progress().contains("the baseline side failed to run profile line 2"), b.progress());
    }

    @Test
    void aLineOnlyTheCandidateHasIsLeftOutAndThatPassesOnlyWhenAllowed(@TempDir Path dir) throws Exception {
        FakeRunner runner = new FakeRunner();
        runner.newInCandidate = "Line4";
        Path profile = settings(dir, 3, null).profile();
        GateSettings allowed = GateSettings.of(raw(BASELINE, CANDIDATE, profile, 3, null, dir.resolve("out"), 7L,
                true));
        Run r = gate(allowed, runner);
        assertEquals(Gate.PASS, r.exit(), r::toString);
        assertTrue(r.progress().contains("line 4 matches no benchmark in the baseline jar"), r.progress());
        String summary = Files.readString(dir.resolve("out/summary.md"));
        assertTrue(summary.contains("- left out: line 4") && summary.contains("Line2.run")
                && !summary.contains("Line4.run"), summary);
        assertTrue(summary.contains("- not judged: 1 profile line(s) left out")
                && summary.contains("allowed by --allow-partial"), summary);
        long line4Forks = runner.commands.stream().filter(c -> c.contains("Line4")).count();
        assertTrue(line4Forks <= 2, "tried in round 1 only: " + line4Forks);

        Run strict = gate(settings(dir, 3, null), runner);
        assertEquals(Gate.FAILED, strict.exit(), "a gate that left a line out judged less than its profile asks: "
                + strict);
        assertTrue(strict.out().contains("## loopbench gate: INCOMPLETE"), strict.out());
        assertTrue(strict.out().contains("loopbench gate: INCOMPLETE: 1 profile line(s) left out"), strict.out());
        assertTrue(strict.out().contains("--allow-partial"), strict.out());
        JsonObject json = JsonParser.parseString(Files.readString(dir.resolve("out/gate.json"))).getAsJsonObject();
        assertEquals("INCOMPLETE", json.get("verdict").getAsString());
    }

    /** Runs the gate strictly, then with --allow-partial; returns the strict run. */
    private static Run strictThenAllowed(Path dir, FakeRunner runner) throws Exception {
        Run strict = gate(settings(dir, 3, null), runner);
        GateSettings allowed = GateSettings.of(raw(BASELINE, CANDIDATE, dir.resolve("p.jmh"), 3, null,
                dir.resolve("out"), 7L, true));
        Run passed = gate(allowed, runner);
        assertEquals(Gate.PASS, passed.exit(), "--allow-partial passes it: " + passed);
        assertTrue(passed.out().contains("(allowed by --allow-partial)"), passed.out());
        assertEquals(Gate.FAILED, strict.exit(), "less judged than the profile asks fails the gate: " + strict);
        assertTrue(strict.out().contains("## loopbench gate: INCOMPLETE"), strict.out());
        assertTrue(strict.out().contains("(the gate fails on this: exit 2; --allow-partial allows it)"), strict.out());
        assertTrue(strict.out().contains("loopbench gate: INCOMPLETE (summary:"), strict.out());
        return strict;
    }

    @Test
    void aComparisonWithoutAVerdictFailsTheGate(@TempDir Path dir) throws Exception {
        FakeRunner runner = new FakeRunner();
        runner.candidateScore = -1; // no ratio can be made of it
        Run r = strictThenAllowed(dir, runner);
        assertTrue(r.out().contains("comparison(s) have no verdict (Line2.run thrpt score: NO_VERDICT, a ratio needs "
                + "positive values"), r.out());
    }

    @Test
    void aBenchmarkGoneFromTheCandidateFailsTheGate(@TempDir Path dir) throws Exception {
        FakeRunner runner = new FakeRunner();
        runner.extraBenchmarkIn = "baseline"; // the pull request deleted or renamed it
        Run r = strictThenAllowed(dir, runner);
        assertTrue(r.out().contains("Line2.extra avgt score: ONLY_IN_BASELINE"), r.out());
        assertTrue(r.out().contains("Line4.extra avgt score: ONLY_IN_BASELINE"), r.out());
    }

    @Test
    void aBenchmarkNewInTheCandidateFailsTheGate(@TempDir Path dir) throws Exception {
        FakeRunner runner = new FakeRunner();
        runner.extraBenchmarkIn = "candidate";
        Run r = strictThenAllowed(dir, runner);
        assertTrue(r.out().contains("Line2.extra avgt score: ONLY_IN_CANDIDATE"), r.out());
    }

    @Test
    void aLineWhoseParametersChangedFailsTheGate(@TempDir Path dir) throws Exception {
        FakeRunner runner = new FakeRunner();
        runner.baselineParams = "\"size\":\"1\"";
        runner.candidateParams = "\"size\":\"2\"";
        Run r = strictThenAllowed(dir, runner);
        assertTrue(r.out().contains("Line2.run thrpt {size=1} score: ONLY_IN_BASELINE"), r.out());
        assertTrue(r.out().contains("Line2.run thrpt {size=2} score: ONLY_IN_CANDIDATE"), r.out());
        assertFalse(r.out().contains("| PASS |"), "nothing was judged at all: " + r.out());
    }

    @Test
    void aNewParameterNamedWithItsValueIsComparedWithTheJarWithoutIt(@TempDir Path dir) throws Exception {
        FakeRunner runner = new FakeRunner();
        runner.baselineParams = "\"size\":\"1\"";
        runner.candidateParams = "\"size\":\"1\",\"handler\":\"none\"";
        GateSettings plain = settings(dir, 4, null);
        GateSettings s = new GateSettings(plain.baseline(), plain.candidate(), plain.profile(), plain.lines(),
                plain.skipped(), plain.rounds(), plain.thresholds(), plain.out(), plain.summary(), plain.json(),
                plain.seed(), true, false, GateSettings.newParams(List.of("handler=none")));
        Run r = gate(s, runner);
        assertEquals(0, r.exit(), r.out());
        assertTrue(r.out().contains("Line2.run thrpt {size=1}"), r.out());
        assertFalse(r.out().contains("ONLY_IN"), r.out());
        assertTrue(Files.readString(s.summary()).contains("compared across a new parameter: handler=none"));

        // Another value of it has nothing to compare with.
        FakeRunner filtered = new FakeRunner();
        filtered.baselineParams = runner.baselineParams;
        filtered.candidateParams = "\"size\":\"1\",\"handler\":\"my.Filter\"";
        Run other = gate(s, filtered);
        assertEquals(2, other.exit(), other.out());
        assertTrue(other.out().contains("{handler=my.Filter, size=1} score: ONLY_IN_CANDIDATE"), other.out());
    }

    @Test
    void aNewParameterMustBeNameEqualsValue() {
        for (String bad : List.of("handler", "=none", "handler=")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GateSettings.newParams(List.of(bad)));
            assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains("NAME=VALUE"),
                    e.getMessage());
        }
        assertEquals(Map.of("a", "1", "b", "x=y"), GateSettings.newParams(List.of("a=1", "b=x=y")));
    }

    @Test
    void forkCommandsCarryTheSideAndOwnTheForkOptions(@TempDir Path dir) throws Exception {
        GateSettings s = settings(dir, 2, "-Dflag.under.test=1 -XX:-DoEscapeAnalysis");
        ProfileLine line = s.lines().get(1);
        List<String> cmd = ForkCommand.of(s.candidate().launch(), line.args(), dir.resolve("f.json"), List.of());
        assertEquals(s.candidate().java().executable().toString(), cmd.get(0));
        assertEquals(List.of("-Djmh.ignoreLock=true", "-jar", CANDIDATE.toString(), "Line4", "-i", "1", "-f", "1",
                "-foe", "true", "-rf", "json", "-rff", dir.resolve("f.json").toString(), "-jvmArgsPrepend"),
                cmd.subList(1, cmd.size() - 1));
        String prepend = cmd.get(cmd.size() - 1);
        assertTrue(prepend.contains("-Dloopbench.requireUnsafe=true"), prepend);
        assertTrue(prepend.endsWith("-Dflag.under.test=1 -XX:-DoEscapeAnalysis -Dline=1"),
                "the side's args, then the line's own: " + prepend);
        List<String> first = ForkCommand.of(s.baseline().launch(), s.lines().get(0).args(), dir.resolve("g.json"),
                List.of());
        assertEquals(1, first.stream().filter("-f"::equals).count(), "the line's own -f 3 is dropped: " + first);
        assertFalse(first.contains("3"), first.toString());
    }

    @Test
    void unsafeFlagsFollowEachSidesJdk() {
        JavaRuntime jdk25 = new JavaRuntime(Paths.get("/jdk25/bin/java"), 25, "25", "vm");
        JavaRuntime jdk17 = new JavaRuntime(Paths.get("/jdk17/bin/java"), 17, "17", "vm");
        Side on25 = new Side("candidate", Paths.get("c.jar"), jdk25, List.of(), true, "4.2.18.Final");
        Side on17 = new Side("baseline", Paths.get("b.jar"), jdk17, List.of(), true, "4.2.18.Final");
        Side off25 = new Side("candidate", Paths.get("c.jar"), jdk25, List.of(), false, "4.2.18.Final");
        assertTrue(on25.forkJvmArgs().contains("--sun-misc-unsafe-memory-access=allow"), on25.forkJvmArgs().toString());
        assertFalse(on17.forkJvmArgs().contains("--sun-misc-unsafe-memory-access=allow"),
                on17.forkJvmArgs().toString());
        assertTrue(on17.forkJvmArgs().contains("-Dloopbench.requireUnsafe=true"));
        assertTrue(off25.forkJvmArgs().containsAll(List.of("-Dio.netty.tryUnsafe=false",
                "-Dloopbench.requireUnsafe=false")));
        assertTrue(on25.describe().contains("Netty Unsafe on") && off25.describe().contains("Netty Unsafe off"));
    }
}
