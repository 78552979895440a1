package loopbench.rounds;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import loopbench.profile.ProfileLine;
import loopbench.report.JmhResult;
import loopbench.report.ResultTable;
import loopbench.testing.JmhJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The engine with a fake fork runner that writes the JMH JSON a fork would: its score encodes the round and the
 * arm ({@code 1000 * round + param value}), so that pairing, merging and missing rounds can be checked exactly.
 */
class RoundsEngineTest {
    static final Launch LAUNCH = new Launch(Paths.get("/jvm/bin/java"), Paths.get("/b/benchmarks.jar"),
            List.of("-Dloopbench.requireUnsafe=true"));

    /** Writes one fork's result; fails the forks named in {@link #failing} ("round arm-label"). */
    static final class FakeForks implements ForkRunner {
        final List<List<String>> commands = new ArrayList<>();
        final Set<String> failing = new java.util.HashSet<>();
        /** Arms whose forks lack B/op (a profiler that gave nothing). */
        final Set<String> withoutBytes = new java.util.HashSet<>();

        @Override
        public int run(List<String> command, Path log) throws IOException {
            commands.add(command);
            CommandLineOptions o = options(command);
            Map<String, String> props = properties(o);
            String arm = props.get(ForkIdentity.ARM_PROPERTY);
            int round = Integer.parseInt(props.get(ForkIdentity.ROUND_PROPERTY));
            if (failing.contains(round + " " + arm)) {
                Files.writeString(log, "# Run progress\njava.lang.IllegalStateException: boom in round " + round
                        + "\n");
                return 1;
            }
            StringBuilder params = new StringBuilder();
            double value = 0;
            for (String name : List.of("x", "y")) {
                if (o.getParameter(name).hasValue()) {
                    String v = o.getParameter(name).get().iterator().next();
                    params.append(params.length() == 0 ? "" : ",").append('"').append(name).append("\":\"").append(v)
                            .append('"');
                    value = value * 10 + Double.parseDouble(v);
                }
            }
            double score = 1000 * round + value;
            Files.writeString(Paths.get(o.getResult().get()), JmhJson.array(JmhJson.result(
                    o.getIncludes().get(0) + ".run", "avgt", params.toString(), new double[] {score},
                    withoutBytes.contains(arm) ? null : new double[] {score + 0.5})));
            Files.writeString(log, "ok\n");
            return 0;
        }
    }

    /** JMH's own parsing of a fork command's arguments (after -jar JAR). */
    static CommandLineOptions options(List<String> command) {
        try {
            List<String> args = command.subList(command.indexOf("-jar") + 2, command.size());
            return new CommandLineOptions(args.toArray(new String[0]));
        } catch (Exception e) {
            throw new AssertionError(command.toString(), e);
        }
    }

    static Map<String, String> properties(CommandLineOptions o) {
        Map<String, String> p = new HashMap<>();
        for (String a : o.getJvmArgsPrepend().get()) {
            if (a.startsWith("-D") && a.contains("=")) {
                p.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
            }
        }
        return p;
    }

    static Group group(int number, String label, int rounds, boolean twins, String text) {
        ProfileLine line = new ProfileLine(number, text, 0, List.of(text.split("\\s+")), label, rounds, null, twins);
        return Group.ofLine(line, LAUNCH, List.of());
    }

    record Ran(RoundsEngine.Outcome outcome, String progress, JsonArray results) {
    }

    static Ran run(Path out, ForkRunner runner, RoundsEngine.Listener listener, Group... groups) throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        RoundsEngine.Plan plan = new RoundsEngine.Plan("test", List.of(groups), 5, "run-1", out, true);
        RoundsEngine.Outcome o = new RoundsEngine(plan, runner, new PrintStream(progress, true, StandardCharsets.UTF_8),
                listener).run();
        return new Ran(o, progress.toString(StandardCharsets.UTF_8), ResultTable.read(out.resolve("results.json")));
    }

    static JsonObject element(JsonArray results, String group, String arm) {
        for (var e : results) {
            JsonObject lb = e.getAsJsonObject().getAsJsonObject("loopbench");
            if (group.equals(lb.get("group").getAsString()) && arm.equals(lb.get("arm").getAsString())) {
                return e.getAsJsonObject();
            }
        }
        throw new AssertionError("no element " + group + "/" + arm + " in " + results);
    }

    static List<Integer> rounds(JsonObject element) {
        List<Integer> r = new ArrayList<>();
        element.getAsJsonObject("loopbench").getAsJsonArray("rounds").forEach(x -> r.add(x.getAsInt()));
        return r;
    }

    @Test
    void everyForkIsMergedPerArmWithItsRoundBesideItsRow(@TempDir Path dir) throws Exception {
        FakeForks forks = new FakeForks();
        Group g = group(3, "agg", 4, false, "AggBench -p x=1,2,3 -p y=7 -f 5 -wi 1");
        Group h = group(5, null, 4, false, "Other -p x=4 -i 1");
        Ran r = run(dir, forks, new RoundsEngine.Listener() { }, g, h);
        assertEquals(RoundsEngine.Status.COMPLETED, r.outcome().status());
        assertEquals(4 * (3 + 1), forks.commands.size(), "rounds x arms");
        assertEquals(4, r.results().size(), "one element per group and arm");
        for (String arm : List.of("x=1", "x=2", "x=3")) {
            JsonObject e = element(r.results(), "agg", arm);
            List<Integer> rounds = rounds(e);
            double[] means = JmhResult.of(e).primary().forkMeans();
            assertEquals(4, rounds.size());
            assertEquals(4, e.get("forks").getAsInt());
            for (int i = 0; i < rounds.size(); i++) {
                int x = Integer.parseInt(arm.substring(2));
                assertEquals(1000 * rounds.get(i) + x * 10 + 7, means[i], 1e-9, "row " + i + " is round "
                        + rounds.get(i));
                assertEquals(means[i] + 0.5, JmhResult.of(e).metric("gc.alloc.rate.norm").forkMeans()[i], 1e-9);
            }
            assertEquals(List.of(1, 2, 3, 4), rounds.stream().sorted().toList());
            assertEquals("run-1", e.getAsJsonObject("loopbench").get("run").getAsString());
            assertNull(e.getAsJsonObject("loopbench").get("twin"));
            assertEquals(2507.0 + x(arm) * 10, e.getAsJsonObject("primaryMetric").get("score").getAsDouble(), 1e-9,
                    "the score is recomputed over every fork");
        }
        JsonObject other = element(r.results(), "5", "x=4");
        assertEquals("a.b.Other.run", other.get("benchmark").getAsString());
        assertTrue(Files.readString(dir.resolve("progress.txt")).contains("16 of 16 forks run (0 failed, 0 skipped)"));
        assertTrue(r.progress().contains("[test] round 4/4, group ") && r.progress().contains("ETA"), r.progress());
        try (var files = Files.list(dir.resolve("forks"))) {
            assertEquals(32, files.count(), "every fork's JSON and log are kept");
        }
        assertTrue(Files.exists(dir.resolve("forks/r02-agg-a03.json")));
        assertTrue(Files.exists(dir.resolve("forks/r04-l05-a01.log")));
        assertEquals(4, JmhResult.read(dir.resolve("results.json")).size(), "JmhResult reads the merged file");
    }

    private static int x(String arm) {
        return Integer.parseInt(arm.substring(2));
    }

    @Test
    void forksCarryTheirIdentityAndTheEngineOwnsForkCountAndResultFile(@TempDir Path dir) throws Exception {
        FakeForks forks = new FakeForks();
        run(dir, forks, new RoundsEngine.Listener() { },
                group(2, "null-agg", 2, true, "Agg -p x=1 -f 3 -rf csv -jvmArgsPrepend -Dline=1"));
        List<String> c = forks.commands.get(0);
        assertEquals(List.of("/jvm/bin/java", "-Djmh.ignoreLock=true", "-jar", "/b/benchmarks.jar", "Agg", "-p", "x=1"),
                c.subList(0, 7));
        CommandLineOptions o = options(c);
        assertEquals(1, o.getForkCount().get());
        assertEquals(dir.resolve("forks").toString(), Paths.get(o.getResult().get()).getParent().toString());
        List<String> prepend = new ArrayList<>(o.getJvmArgsPrepend().get());
        assertEquals("-Dloopbench.run=run-1", prepend.get(0));
        assertEquals("-Dloopbench.group=null-agg", prepend.get(1));
        assertTrue(prepend.get(2).equals("-Dloopbench.arm=x=1 [A]") || prepend.get(2).equals("-Dloopbench.arm=x=1 [B]"),
                "an arm label with a space survives JMH's splitting: " + prepend);
        assertTrue(prepend.get(3).startsWith("-Dloopbench.round="), prepend.toString());
        assertEquals(List.of("-Dloopbench.requireUnsafe=true", "-Dline=1"), prepend.subList(4, 6),
                "the launch's JVM arguments, then the line's own");
    }

    @Test
    void aForkThatFailsIsReportedAndItsRoundIsMissingTheOthersAreKept(@TempDir Path dir) throws Exception {
        FakeForks forks = new FakeForks();
        forks.failing.add("2 x=2");
        Ran r = run(dir, forks, new RoundsEngine.Listener() { }, group(4, "agg", 3, false, "Agg -p x=1,2"));
        assertEquals(RoundsEngine.Status.COMPLETED, r.outcome().status());
        assertEquals(1, r.outcome().failed().size());
        assertEquals(6, r.outcome().forksRun());
        assertTrue(r.progress().contains("[test] fork FAILED: round 2, group agg (profile line 4), arm x=2: JMH exited "
                + "1; this round is missing for this arm"), r.progress());
        assertTrue(r.progress().contains("  | java.lang.IllegalStateException: boom in round 2"),
                "log tail: " + r.progress());
        assertEquals(List.of(1, 3), rounds(element(r.results(), "agg", "x=2")).stream().sorted().toList());
        assertEquals(List.of(1, 2, 3), rounds(element(r.results(), "agg", "x=1")).stream().sorted().toList());
        assertTrue(Files.readString(dir.resolve("progress.txt")).contains("6 of 6 forks run (1 failed"));
        assertTrue(Files.exists(dir.resolve("forks/r02-agg-a02.log")), "the failed fork's log is kept");
    }

    @Test
    void aMetricMissingFromOneForkKeepsTheRowsAligned(@TempDir Path dir) throws Exception {
        FakeForks forks = new FakeForks();
        forks.failing.add("1 x=1");
        Ran r = run(dir, forks, new RoundsEngine.Listener() { }, group(1, "g", 2, false, "G -p x=1"));
        assertEquals(List.of(2), rounds(element(r.results(), "g", "x=1")));
        // a second run: the same arm, now without B/op in its first fork and with it in its second
        FakeForks partial = new FakeForks();
        partial.withoutBytes.add("x=1");
        Ran first = run(dir.resolve("b"), partial, new RoundsEngine.Listener() {
            @Override
            public RoundsEngine.Decision forkDone(RoundsEngine.Fork fork) {
                partial.withoutBytes.clear();
                return RoundsEngine.Decision.CONTINUE;
            }
        }, group(1, "g", 2, false, "G -p x=1"));
        JsonObject e = element(first.results(), "g", "x=1");
        JsonArray bytes = e.getAsJsonObject("secondaryMetrics").getAsJsonObject("gc.alloc.rate.norm")
                .getAsJsonArray("rawData");
        assertEquals(2, bytes.size());
        assertEquals(0, bytes.get(0).getAsJsonArray().size(), "the fork without it has an empty row");
        assertEquals(1, bytes.get(1).getAsJsonArray().size());
    }

    @Test
    void twinsAreTwoArmsOfOneConfigurationToldApartByTheirLabels(@TempDir Path dir) throws Exception {
        FakeForks forks = new FakeForks();
        Group twins = group(7, "null-proxy", 4, true, "Proxy -p x=4,7");
        assertEquals(List.of("x=4 [A]", "x=4 [B]", "x=7 [A]", "x=7 [B]"),
                twins.arms().stream().map(Arm::label).toList());
        assertEquals(List.of("a01A", "a01B", "a02A", "a02B"), twins.arms().stream().map(Arm::id).toList());
        Ran r = run(dir, forks, new RoundsEngine.Listener() { }, twins);
        assertEquals(16, forks.commands.size());
        assertEquals(4, r.results().size());
        JsonObject a = element(r.results(), "null-proxy", "x=4 [A]");
        JsonObject b = element(r.results(), "null-proxy", "x=4 [B]");
        assertEquals("A", a.getAsJsonObject("loopbench").get("twin").getAsString());
        assertEquals("B", b.getAsJsonObject("loopbench").get("twin").getAsString());
        assertEquals(JmhResult.of(a).key(), JmhResult.of(b).key(), "same benchmark and parameters");
        assertEquals(List.of(1, 2, 3, 4), rounds(a).stream().sorted().toList());
        assertEquals(List.of(1, 2, 3, 4), rounds(b).stream().sorted().toList());
    }

    @Test
    void theListenerCanDropAGroupOrStopTheRun(@TempDir Path dir) throws Exception {
        FakeForks forks = new FakeForks();
        Group g = group(1, "g", 3, false, "G -p x=1,2");
        Group h = group(2, "h", 3, false, "H -p x=1,2");
        Ran dropped = run(dir.resolve("drop"), forks, new RoundsEngine.Listener() {
            @Override
            public RoundsEngine.Decision forkDone(RoundsEngine.Fork fork) {
                return fork.group().label().equals("g") ? RoundsEngine.Decision.DROP_GROUP
                        : RoundsEngine.Decision.CONTINUE;
            }
        }, g, h);
        assertEquals(RoundsEngine.Status.COMPLETED, dropped.outcome().status());
        assertEquals(1 + 6, dropped.outcome().forksRun(), "g's first fork, then none of g");
        List<Integer> roundsDone = new ArrayList<>();
        Ran stopped = run(dir.resolve("stop"), forks, new RoundsEngine.Listener() {
            @Override
            public RoundsEngine.Decision roundDone(Schedule.Round round) {
                roundsDone.add(round.number());
                return round.number() == 2 ? RoundsEngine.Decision.STOP : RoundsEngine.Decision.CONTINUE;
            }
        }, g, h);
        assertEquals(RoundsEngine.Status.STOPPED, stopped.outcome().status());
        assertEquals(2, stopped.outcome().roundsDone());
        assertEquals(8, stopped.outcome().forksRun());
        assertEquals(List.of(1, 2), roundsDone);
    }

    @Test
    void aLinesParametersMakeItsArms() {
        Group g = group(9, null, 2, false, "Bench -p a=1,2 -wi 3 -p b=x,y,z -p c=fixed");
        assertEquals("9", g.label());
        assertEquals("l09", g.id());
        assertEquals(6, g.arms().size(), "2 x 3 combinations");
        assertEquals(List.of("a=1 b=x", "a=1 b=y", "a=1 b=z", "a=2 b=x", "a=2 b=y", "a=2 b=z"),
                g.arms().stream().map(Arm::label).toList(), "labelled by the parameters that vary");
        assertEquals(List.of("Bench", "-wi", "3", "-p", "a=2", "-p", "b=y", "-p", "c=fixed"),
                g.arms().get(4).jmhArgs());
        Group single = group(1, "one", 2, false, "Bench -p a=1 -p b=2");
        assertEquals("a=1 b=2", single.arms().get(0).label(), "one configuration: labelled by all its parameters");
        assertEquals("default", group(1, "none", 2, false, "Bench -wi 1").arms().get(0).label());
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> group(4, null, 2, false, "Bench -p a"));
        assertTrue(bad.getMessage().contains("profile line 4: -p 'a' is not name=value[,value...]"), bad.getMessage());
        ProfileLine line = new ProfileLine(3, "Bench -p a=1,2", 0, List.of("Bench", "-p", "a=1,2"), null, 2, null,
                false);
        Group extra = Group.ofLine(line, LAUNCH, List.of("-p", "a=3", "-prof", "gc"));
        assertEquals(List.of("a=1", "a=2", "a=3"), extra.arms().stream().map(Arm::label).toList(),
                "the suite's extra options count too");
        assertFalse(extra.arms().get(0).jmhArgs().contains("a=3"));
    }
}
