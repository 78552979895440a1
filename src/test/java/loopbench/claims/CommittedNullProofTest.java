package loopbench.claims;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every committed null proof ({@code docs/results/DATE/claims-null-proof.../family-NN/}): the family's JMH JSON
 * ({@code results.json.gz}) must regenerate its committed judging ({@code null.json}) with today's code: which families
 * were measured and decisive, and every twin check's ratio, interval, method and pairs. A change to the null families,
 * the statistics or the rules that would change a committed tally shows up here, as CommittedRunTest does for the
 * claims runs.
 */
class CommittedNullProofTest {
    private static final Path RESULTS = Path.of("docs", "results");

    @TempDir
    Path out;

    static List<Path> committedFamilies() throws IOException {
        try (Stream<Path> files = Files.walk(RESULTS, 4)) {
            return files.filter(p -> p.getFileName().toString().equals("results.json.gz")
                            && p.getParent().getFileName().toString().matches("family-\\d+")
                            && p.getParent().getParent().getFileName().toString().startsWith("claims-null-proof"))
                    .map(Path::getParent).sorted().toList();
        }
    }

    @Test
    void everyFamilyOfEachCommittedProofIsFound() throws IOException {
        List<Path> families = committedFamilies();
        List<Path> proofs = families.stream().map(Path::getParent).distinct().toList();
        assertTrue(proofs.size() >= 4, "the proofs committed so far: " + proofs);
        for (Path proof : proofs) {
            long tallied = Files.readAllLines(proof.resolve("families.txt")).stream()
                    .filter(l -> l.startsWith("family ")).count();
            assertEquals(tallied, families.stream().filter(f -> f.getParent().equals(proof)).count(),
                    proof + ": a folder with results.json.gz for every family its tally counts");
        }
    }

    @Test
    void aTamperedFigureFails() throws IOException {
        Path family = committedFamilies().get(0);
        Path copy = Files.createDirectories(out.resolve("tampered"));
        Files.copy(family.resolve("results.json.gz"), copy.resolve("results.json.gz"));
        JsonObject json = JsonParser.parseString(Files.readString(family.resolve(NullExperiments.JSON)))
                .getAsJsonObject();
        JsonObject check = measuredChecks(json).get(0).getAsJsonObject();
        check.addProperty("ratio", check.get("ratio").getAsDouble() * 1.001);
        Files.writeString(copy.resolve(NullExperiments.JSON), json.toString());
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> regenerates(copy, out.resolve("x")));
        assertTrue(e.getMessage().contains("ratio"), e::getMessage);
    }

    @TestFactory
    Stream<DynamicTest> everyCommittedNullFamilyRegeneratesItsJudging() throws IOException {
        return committedFamilies().stream().map(f -> DynamicTest.dynamicTest(f.toString(),
                () -> regenerates(f, out.resolve(f.getParent().getFileName() + "-" + f.getFileName()))));
    }

    private static JsonArray measuredChecks(JsonObject nullJson) {
        for (var f : nullJson.getAsJsonArray("families")) {
            if (f.getAsJsonObject().get("measured").getAsBoolean()) {
                return f.getAsJsonObject().getAsJsonArray("checks");
            }
        }
        throw new AssertionError("no measured family in " + nullJson);
    }

    private static void regenerates(Path family, Path again) throws IOException {
        Files.createDirectories(again);
        Path results = again.resolve("results.json");
        try (InputStream in = new GZIPInputStream(Files.newInputStream(family.resolve("results.json.gz")))) {
            Files.copy(in, results);
        }
        Measurements m = Measurements.load(List.of(results));
        NullExperiments.write(NullExperiments.judge(m), m, again);
        JsonObject before = JsonParser.parseString(Files.readString(family.resolve(NullExperiments.JSON)))
                .getAsJsonObject();
        JsonObject after = JsonParser.parseString(Files.readString(again.resolve(NullExperiments.JSON)))
                .getAsJsonObject();
        for (String key : List.of("runs", "familiesWithADecisiveCheck", "familiesMeasured")) {
            assertEquals(before.get(key), after.get(key), family + ": " + key);
        }
        JsonArray a = before.getAsJsonArray("families");
        JsonArray b = after.getAsJsonArray("families");
        assertEquals(a.size(), b.size(), family + ": families");
        for (int i = 0; i < a.size(); i++) {
            JsonObject x = a.get(i).getAsJsonObject();
            JsonObject y = b.get(i).getAsJsonObject();
            String where = family + " " + x.get("label").getAsString();
            for (String key : List.of("label", "mimics", "margin", "measured", "decisive")) {
                assertEquals(x.get(key), y.get(key), where + ": " + key);
            }
            CommittedRunTest.sameChecks(where, x.getAsJsonArray("checks"), y.getAsJsonArray("checks"));
        }
        assertFalse(a.isEmpty(), family + " judged no family");
    }
}
