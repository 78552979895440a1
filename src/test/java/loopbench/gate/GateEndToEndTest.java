package loopbench.gate;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import loopbench.rounds.ProcessForkRunner;
import loopbench.testing.TinyBenchmarksJar;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real gate, end to end: JMH children, real forks, real JSON, on a tiny benchmarks jar ({@link TinyBenchmarksJar}),
 * and the candidate side allocates 50% more per op through the benchmark's own system property. 3 rounds of
 * {@code -wi 1 -w 200ms -i 1 -r 200ms} (a warm-up iteration keeps the JIT's own allocations out of B/op): seconds.
 */
class GateEndToEndTest {

    @Test
    void aRealGateCatchesMoreBytesPerOperationOnTheCalibrationBenchmark(@TempDir Path dir) throws Exception {
        Path jar = TinyBenchmarksJar.build(dir);
        Path profile = Files.writeString(dir.resolve("tiny.jmh"),
                "CalibrationBenchmark -wi 1 -w 200ms -i 1 -r 200ms -prof gc\n");
        GateSettings settings = GateSettings.of(new GateSettings.Raw(jar, jar, profile, 3, null, null, null,
                "-Dloopbench.calibration.allocScale=1.5", "on", "on", 3, 0.5, dir.resolve("out"), null, null, 1L, true,
                false));
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit;
        try (ProcessForkRunner runner = new ProcessForkRunner()) {
            exit = new Gate(settings, runner, new PrintStream(progress, true, StandardCharsets.UTF_8),
                    new PrintStream(out, true, StandardCharsets.UTF_8)).run();
        }
        String report = progress.toString(StandardCharsets.UTF_8) + out.toString(StandardCharsets.UTF_8);
        assertEquals(Gate.REGRESSION, exit, report);
        JsonObject json = JsonParser.parseString(Files.readString(dir.resolve("out/gate.json"))).getAsJsonObject();
        JsonObject bytes = null;
        for (JsonElement e : json.getAsJsonArray("results")) {
            if ("gc.alloc.rate.norm".equals(e.getAsJsonObject().get("metric").getAsString())) {
                bytes = e.getAsJsonObject();
            }
        }
        assertTrue(bytes != null && "REGRESSION".equals(bytes.get("verdict").getAsString()), report);
        // byte[8000] -> byte[12000]: 8016 -> 12016 B per op
        assertEquals(12016.0 / 8016, bytes.get("ratio").getAsDouble(), 0.01, report);
        assertEquals(3, bytes.getAsJsonArray("candidateForks").size());
        try (var forks = Files.list(dir.resolve("out/forks"))) {
            assertEquals(6, forks.filter(f -> f.toString().endsWith(".json")).count(), "every fork's raw JSON is kept");
        }
    }
}
