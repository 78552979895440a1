package loopbench.claims;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every committed claims run ({@code docs/results/DATE/claims-run-N/}, and the follow-up of a few claims with more
 * rounds, {@code docs/results/DATE/claims-follow-up...}): its results.json (and its side files) must
 * regenerate its committed report.json, claim by claim and check by check: verdicts, provisional marks, ratios,
 * intervals, how they were computed and on how many rounds. A change to a rule, a check, the statistics or the
 * reading of side files that would change a committed figure shows up here.
 *
 * <p>The record of 2026-11-23 ({@code docs/results/2026-11-23/claims/}) was judged by the rules of its date and is
 * not re-judged by today's.
 */
class CommittedRunTest {
    private static final Path RESULTS = Path.of("docs", "results");
    /** Relative tolerance for figures: the computation is deterministic; this only absorbs the JSON's decimals. */
    private static final double TOLERANCE = 1e-9;

    @TempDir
    Path out;

    /** Writes a claims run as the suite would leave it: results.json, e2e/, and the report (report.json). */
    private static Path runDirectory(Path dir) throws IOException {
        Path json = Fixtures.everything().write(dir);
        ClaimsReport.write(List.of(json), dir, ClaimCatalog.all());
        return dir;
    }

    @Test
    void aRunRegeneratesItsOwnFiguresAndATamperedFigureFails() throws IOException {
        Path run = runDirectory(out.resolve("claims-run-1"));
        regenerates(run, out.resolve("again"));
        Path report = run.resolve(ClaimsReport.JSON);
        String text = Files.readString(report);
        JsonObject json = JsonParser.parseString(text).getAsJsonObject();
        JsonObject check = json.getAsJsonArray("claims").get(0).getAsJsonObject().getAsJsonArray("decisive").get(0)
                .getAsJsonObject();
        check.addProperty("upper", check.get("upper").getAsDouble() * 1.001);
        Files.writeString(report, json.toString());
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> regenerates(run, out.resolve("x")));
        assertTrue(e.getMessage().contains("C000-1 decisive check 0: upper"), e::getMessage);
    }

    static List<Path> committedRuns() throws IOException {
        try (Stream<Path> dates = Files.list(RESULTS)) {
            return dates.filter(Files::isDirectory).flatMap(d -> {
                try (Stream<Path> runs = Files.list(d)) {
                    return runs.filter(r -> r.getFileName().toString().startsWith("claims-run-")
                            || r.getFileName().toString().startsWith("claims-follow-up")).toList().stream();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyCommittedClaimsRunRegeneratesItsFigures() throws IOException {
        List<Path> runs = committedRuns();
        if (runs.isEmpty()) {
            return Stream.of(DynamicTest.dynamicTest("no committed claims run", () -> Assumptions.abort(
                    "no docs/results/*/claims-run-*/ directory is committed yet, so there is nothing to regenerate; "
                            + "this test checks each one once it is (results.json, e2e/, report.json)")));
        }
        return runs.stream().map(run -> DynamicTest.dynamicTest(run.toString(),
                () -> regenerates(run, out.resolve(run.getParent().getFileName() + "-" + run.getFileName()))));
    }

    private static void regenerates(Path run, Path again) throws IOException {
        Path results = run.resolve("results.json");
        Path committed = run.resolve(ClaimsReport.JSON);
        assertTrue(Files.isRegularFile(results), run + " holds results.json");
        assertTrue(Files.isRegularFile(committed), run + " holds the report's " + ClaimsReport.JSON);
        JsonObject before = JsonParser.parseString(Files.readString(committed)).getAsJsonObject();
        Peers peers = Peers.none();
        if (before.has("peerInputs")) { // gateways measured apart, named relative to the report
            List<Path> in = new java.util.ArrayList<>();
            before.getAsJsonArray("peerInputs").forEach(e -> in.add(run.resolve(e.getAsString()).normalize()));
            peers = Peers.load(in);
        }
        ClaimsReport.Written w = ClaimsReport.write(List.of(results), again, ClaimCatalog.all(), peers);
        JsonObject after = JsonParser.parseString(Files.readString(w.json())).getAsJsonObject();
        assertEquals(before.get("summary"), after.get("summary"), run + ": the verdict counts");
        JsonArray a = before.getAsJsonArray("claims");
        JsonArray b = after.getAsJsonArray("claims");
        assertEquals(a.size(), b.size(), run + ": one entry per claim");
        for (int i = 0; i < a.size(); i++) {
            JsonObject x = a.get(i).getAsJsonObject();
            JsonObject y = b.get(i).getAsJsonObject();
            String id = x.get("id").getAsString();
            assertEquals(x.get("id"), y.get("id"));
            assertEquals(x.get("verdict"), y.get("verdict"), run + " " + id + ": verdict");
            assertEquals(x.get("provisional"), y.get("provisional"), run + " " + id + ": provisional");
            for (String kind : List.of("decisive", "supporting", "peers")) {
                sameChecks(run + " " + id + " " + kind, x.has(kind) ? x.getAsJsonArray(kind) : new JsonArray(),
                        y.has(kind) ? y.getAsJsonArray(kind) : new JsonArray());
            }
        }
    }

    /** The same checks, one by one (see {@link #sameCheck}). */
    static void sameChecks(String where, JsonArray cx, JsonArray cy) {
        assertEquals(cx.size(), cy.size(), where + " checks");
        for (int k = 0; k < cx.size(); k++) {
            sameCheck(where + " check " + k, cx.get(k).getAsJsonObject(), cy.get(k).getAsJsonObject());
        }
    }

    /** Every field of the committed check {@code x} as in the regenerated {@code y}; figures within the tolerance. */
    static void sameCheck(String where, JsonObject x, JsonObject y) {
        for (String key : x.keySet()) {
            JsonElement ex = x.get(key);
            JsonElement ey = y.get(key);
            if (ex.isJsonPrimitive() && ex.getAsJsonPrimitive().isNumber()) {
                double dx = ex.getAsDouble();
                double dy = ey.getAsDouble();
                assertTrue(Double.compare(dx, dy) == 0 || Math.abs(dx - dy) <= TOLERANCE * Math.abs(dx),
                        where + ": " + key + " " + dx + " regenerates as " + dy);
            } else {
                assertEquals(ex, ey, where + ": " + key);
            }
        }
    }
}
