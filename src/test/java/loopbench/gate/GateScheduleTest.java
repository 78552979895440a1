package loopbench.gate;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A seed replays the schedule the gate ran before it moved onto the rounds engine: the order of lines in every
 * round and which side of each line goes first. The gate's A/A and power proof
 * (docs/results/2026-11-23/gate-proof/) was measured with that schedule; {@link #legacySchedule} is the gate's code
 * as it was then, frozen here.
 */
class GateScheduleTest {

    /** The gate's schedule before the rounds engine: "round line side" per fork, in run order. */
    static List<String> legacySchedule(long seed, int rounds, int lines) {
        Random random = new Random(seed);
        List<List<Boolean>> baselineFirst = new ArrayList<>();
        for (int i = 0; i < lines; i++) {
            baselineFirst.add(legacyBalancedOrder(rounds, random));
        }
        List<String> forks = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < lines; i++) {
                order.add(i);
            }
            Collections.shuffle(order, random);
            for (int index : order) {
                boolean first = baselineFirst.get(index).get(round - 1);
                forks.add(round + " Line" + (index + 1) + " " + (first ? "baseline" : "candidate"));
                forks.add(round + " Line" + (index + 1) + " " + (first ? "candidate" : "baseline"));
            }
        }
        return forks;
    }

    private static List<Boolean> legacyBalancedOrder(int rounds, Random random) {
        List<Boolean> order = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            order.add(r < rounds / 2 || (r == rounds / 2 && rounds % 2 == 1 && random.nextBoolean()));
        }
        Collections.shuffle(order, random);
        return List.copyOf(order);
    }

    @Test
    void aSeedGivesTheScheduleTheGateRanBeforeTheRoundsEngine(@TempDir Path dir) throws Exception {
        int checked = 0;
        for (int lines = 1; lines <= 3; lines++) {
            StringBuilder profile = new StringBuilder();
            for (int i = 1; i <= lines; i++) {
                profile.append("Line").append(i).append(" -wi 1\n");
            }
            for (int rounds : new int[] {2, 3, 8}) {
                for (long seed = 0; seed < 4; seed++) {
                    Path run = Files.createDirectories(dir.resolve("g" + lines + "-" + rounds + "-" + seed));
                    List<String> ran = run(run, profile.toString(), rounds, seed);
                    assertEquals(legacySchedule(seed, rounds, lines), ran,
                            lines + " line(s), " + rounds + " rounds, seed " + seed);
                    checked++;
                }
            }
        }
        assertEquals(3 * 3 * 4, checked);
    }

    private static List<String> run(Path dir, String profileText, int rounds, long seed) throws Exception {
        Path jar = Files.writeString(dir.resolve("same.jar"), "not really a jar");
        Path other = Files.writeString(dir.resolve("other.jar"), "not really a jar");
        Path profile = Files.writeString(dir.resolve("p.jmh"), profileText);
        GateSettings s = GateSettings.of(GateTest.raw(jar, other, profile, rounds, null, dir.resolve("out"), seed,
                false));
        GateTest.FakeRunner runner = new GateTest.FakeRunner();
        GateTest.BASELINE = jar;
        GateTest.CANDIDATE = other;
        new Gate(s, runner, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run();
        List<String> forks = new ArrayList<>();
        for (List<String> c : runner.commands) {
            String json = Path.of(c.get(c.indexOf("-rff") + 1)).getFileName().toString(); // rNN-lNN-side.json
            String round = String.valueOf(Integer.parseInt(json.substring(1, 3)));
            forks.add(round + " " + c.get(c.indexOf("-jar") + 2) + " " + (c.contains(jar.toString()) ? "baseline"
                    : "candidate"));
        }
        return forks;
    }
}
