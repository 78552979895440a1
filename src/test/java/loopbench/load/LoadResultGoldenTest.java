package loopbench.load;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.Transport;
import loopbench.line.NettyLine;
import loopbench.metrics.ProcStat;
import loopbench.testing.CountingHttpServer;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.DataFormatException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The load generator's JSON and summary are an interface (scripts, the claims report and the side files read them):
 * this test holds them to golden files under {@code src/test/resources/loopbench/load/golden/}, field for field.
 *
 * <p>Four results are built from fixed snapshots (every figure known: see {@link #fixedResults()}), and one comes from
 * a real, bounded run against a test server, whose timing-dependent values are replaced by {@code "<measured>"}
 * (what stays: every key, in order, and every count). HdrHistogram's compressed encoding is compared decoded, since
 * the compressor's bytes may differ between zlib builds while the histogram does not.
 *
 * <p>On a difference the test writes what it got to {@code target/golden/} and names the fields that differ; a change
 * of the format is made by reviewing that file and copying it over the golden one.
 */
class LoadResultGoldenTest {
    private static final String GOLDEN = "/loopbench/load/golden/";
    private static final String MEASURED = "<measured>";

    /**
     * Fixed results: an open loop with errors, a warm-up and a saturated loop; a closed loop that completed nothing;
     * a stretch between two mid-run snapshots; a connection per request.
     */
    static Stream<Arguments> fixedResults() {
        return Stream.of(Arguments.of("open-http-errors", openLoopWithErrors(), 1),
                Arguments.of("closed-echo-empty", closedEchoEmpty(), 0),
                Arguments.of("closed-http-stretch", closedHttpStretch(), 0),
                Arguments.of("closed-http-per-request", closedHttpPerRequest(), 0));
    }

    /** The result's JSON and summary against {@code name.json} and {@code name.summary.txt}, and its exit code. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("fixedResults")
    void aFixedResult(String name, LoadResult r, int exitCode) throws IOException {
        assertGolden(name + ".json", r.toJsonString());
        assertGolden(name + ".summary.txt", r.summary());
        assertEquals(exitCode, r.exitCode());
    }

    @Test
    void aBoundedRunAgainstATestServer() throws Exception {
        try (CountingHttpServer server = CountingHttpServer.start(100)) {
            LoadSpec spec = LoadSpec.closedLoop(Target.parse(server.url())).withConnections(2).withRequests(300)
                    .withDuration(Duration.ofSeconds(60)).withEventLoops(Transport.NIO, Allocator.ADAPTIVE,
                            BufferType.DIRECT, 1);
            LoadResult r = LoadGenerator.start(spec).awaitResult();
            JsonObject o = JsonParser.parseString(r.toJsonString()).getAsJsonObject();
            assertGolden("bounded-run.json", pretty(measuredOnly(o, server.port())));
        }
    }

    // ---- the fixtures: every figure fixed ----

    private static LoadResult openLoopWithErrors() {
        LoadSpec spec = new LoadSpec(Target.parse("http://127.0.0.1:8080/api?x=1"), 8, 2, 2000.0,
                Duration.ofSeconds(3), 0, Duration.ofSeconds(2), "POST", 512, LoadSpec.DEFAULT_MESSAGE_SIZE,
                Transport.NIO, Allocator.POOLED, BufferType.HEAP, 2, Duration.ofSeconds(10), false);
        long[] start = new long[LoopRecorder.SIZE];
        start[LoopRecorder.WARMUP_COMPLETED] = 3990;
        start[LoopRecorder.WARMUP_ERRORS] = 4;
        start[LoopRecorder.BYTES_READ] = 2_000_000;
        start[LoopRecorder.FINISHED] = 3994;
        long[] end = start.clone();
        end[LoopRecorder.SENT] = 5200;
        end[LoopRecorder.COMPLETED] = 5180;
        end[LoopRecorder.BYTES_READ] = 2_000_000 + 5180L * 640;
        end[LoopRecorder.BYTES_WRITTEN] = 5200L * 600;
        end[LoopRecorder.FINISHED] = 3994 + 5190;
        end[LoopRecorder.CONNECTIONS_OPENED] = 3; // connections replaced after the timeouts
        end[LoopRecorder.ERRORS + ErrorKind.CONNECT.ordinal()] = 3;
        end[LoopRecorder.ERRORS + ErrorKind.TIMEOUT.ordinal()] = 2;
        end[LoopRecorder.ERRORS + ErrorKind.STATUS.ordinal()] = 5;
        LoadSnapshot a = new LoadSnapshot(1_000_000_000L, start, histogram(0, 0), histogram(0, 0), histogram(0, 0),
                List.of(), List.of(new ProcStat.SchedStat(100, 10), new ProcStat.SchedStat(200, 20)),
                process(5_000_000_000L, 1000), new ProcStat.CpuSplit(3_000_000_000L, 2_000_000_000L),
                new ProcStat.MachineCpu(1000, 5000), 8);
        long wall = 3_004_000_000L;
        LoadSnapshot b = new LoadSnapshot(1_000_000_000L + wall, end, histogram(5180, 7), histogram(5180, 3),
                histogram(700, 11), List.of(
                new PerSecond(1, 1.0, 1700, 3, 812.0, 23_519.0, 40_063.0),
                new PerSecond(2, 1.0, 1750, 4, 790.0, 19_007.0, 35_007.0),
                new PerSecond(3, 1.0, 1725, 3, 801.0, 21_503.0, 38_015.0),
                new PerSecond(4, 0.004, 5, 0, 700.0, 900.0, 901.0)),
                List.of(new ProcStat.SchedStat(100 + (long) (0.93 * wall), 10 + (long) (0.03 * wall)),
                        new ProcStat.SchedStat(200 + (long) (0.41 * wall), 20 + (long) (0.02 * wall))),
                process(5_000_000_000L + 2_345_678_901L, 1000 + 7777), new ProcStat.CpuSplit(
                3_000_000_000L + 1_500_000_000L, 2_000_000_000L + 840_000_000L),
                new ProcStat.MachineCpu(1000 + 18, 5000 + 600), 8);
        return LoadResult.ofRun(spec, a, b, spec.warmup());
    }

    private static LoadResult closedEchoEmpty() {
        LoadSpec spec = LoadSpec.closedLoop(Target.parse("tcp://[::1]:7000")).withMessageSize(5120)
                .withConnections(3).withDuration(Duration.ofMillis(500));
        long[] counters = new long[LoopRecorder.SIZE];
        List<ProcStat.SchedStat> unknown = new ArrayList<>();
        unknown.add(null);
        LoadSnapshot a = new LoadSnapshot(0, counters, histogram(0, 0), histogram(0, 0), histogram(0, 0), List.of(),
                unknown, process(0, 0), new ProcStat.CpuSplit(0, 0), new ProcStat.MachineCpu(0, 0), 0);
        LoadSnapshot b = new LoadSnapshot(500_000_000L, counters.clone(), histogram(0, 0), histogram(0, 0),
                histogram(0, 0), List.of(new PerSecond(1, 0.5, 0, 0, 0, 0, 0)), unknown, process(1_000_000, 5),
                new ProcStat.CpuSplit(0, 0), new ProcStat.MachineCpu(0, 0), 0);
        return LoadResult.between(spec, a, b);
    }

    private static LoadResult closedHttpStretch() {
        LoadSpec spec = LoadSpec.closedLoop(Target.parse("http://localhost:9000/")).withConnections(16)
                .withPipeline(4);
        long[] start = new long[LoopRecorder.SIZE];
        start[LoopRecorder.SENT] = 40_000;
        start[LoopRecorder.COMPLETED] = 39_990;
        start[LoopRecorder.BYTES_READ] = 39_990L * 150;
        start[LoopRecorder.BYTES_WRITTEN] = 40_000L * 40;
        start[LoopRecorder.FINISHED] = 39_990;
        long[] end = start.clone();
        end[LoopRecorder.SENT] += 61_234;
        end[LoopRecorder.COMPLETED] += 61_234;
        end[LoopRecorder.BYTES_READ] += 61_234L * 150;
        end[LoopRecorder.BYTES_WRITTEN] += 61_234L * 40;
        end[LoopRecorder.FINISHED] += 61_234;
        Histogram before = histogram(39_990, 5);
        Histogram after = before.copy();
        after.add(histogram(61_234, 13));
        List<PerSecond> firstTwo = List.of(new PerSecond(1, 1.0, 20_000, 0, 300, 900, 1500),
                new PerSecond(2, 1.0, 19_990, 0, 310, 950, 1700));
        List<PerSecond> four = new ArrayList<>(firstTwo);
        four.add(new PerSecond(3, 1.0, 30_600, 0, 250.5, 700.25, 1200));
        four.add(new PerSecond(4, 1.0, 30_634, 0, 240, 690, 999_999));
        LoadSnapshot a = new LoadSnapshot(7_000_000_000L, start, before, before.copy(), histogram(0, 0), firstTwo,
                List.of(new ProcStat.SchedStat(1_000_000, 0)), process(9_000_000_000L, 100),
                new ProcStat.CpuSplit(6_000_000_000L, 3_000_000_000L), new ProcStat.MachineCpu(50_000, 100_000), 16);
        LoadSnapshot b = new LoadSnapshot(9_000_000_000L, end, after, after.copy(), histogram(0, 0), four,
                List.of(new ProcStat.SchedStat(1_000_000 + 1_234_567_890L, 45_678_901L)),
                process(9_000_000_000L + 1_111_111_111L, 100 + 20_000),
                new ProcStat.CpuSplit(6_000_000_000L + 660_000_000L, 3_000_000_000L + 450_000_000L),
                new ProcStat.MachineCpu(50_000 + 160, 100_000 + 400), 16);
        return LoadResult.between(spec, a, b);
    }

    private static LoadResult closedHttpPerRequest() {
        LoadSpec spec = LoadSpec.closedLoop(Target.parse("http://127.0.0.1:8080/")).withConnections(4)
                .withConnectionClose(true).withDuration(Duration.ofSeconds(1));
        long[] start = new long[LoopRecorder.SIZE];
        long[] end = start.clone();
        end[LoopRecorder.SENT] = 1000;
        end[LoopRecorder.COMPLETED] = 1000;
        end[LoopRecorder.BYTES_READ] = 1000L * 120;
        end[LoopRecorder.BYTES_WRITTEN] = 1000L * HttpRequests.encode(spec).length;
        end[LoopRecorder.FINISHED] = 1000;
        end[LoopRecorder.CONNECTIONS_OPENED] = 1000;
        LoadSnapshot a = new LoadSnapshot(0, start, histogram(0, 0), histogram(0, 0), histogram(0, 0), List.of(),
                List.of(new ProcStat.SchedStat(0, 0)), process(0, 0), new ProcStat.CpuSplit(0, 0),
                new ProcStat.MachineCpu(0, 200), 0);
        LoadSnapshot b = new LoadSnapshot(1_000_000_000L, end, histogram(1000, 17), histogram(1000, 17),
                histogram(0, 0), List.of(new PerSecond(1, 1.0, 1000, 0, 700, 1200, 40_000)),
                List.of(new ProcStat.SchedStat(600_000_000L, 100_000_000L)), process(700_000_000L, 4000),
                new ProcStat.CpuSplit(300_000_000L, 400_000_000L), new ProcStat.MachineCpu(20, 400), 4);
        return LoadResult.between(spec, a, b);
    }

    /** {@code count} latencies (µs) from a fixed sequence: most of them small, a tail up to about 40 ms. */
    private static Histogram histogram(int count, int seed) {
        Histogram h = LoopRecorder.newHistogram();
        long x = seed;
        for (int i = 0; i < count; i++) {
            x = (x * 6364136223846793005L + 1442695040888963407L);
            long u = (x >>> 33) % 10_000;
            h.recordValue(u < 9_500 ? 200 + u / 10 : 1_000 + (u - 9_500) * 78);
        }
        return h;
    }

    private static ProcStat.Snapshot process(long cpuNanos, long switches) {
        return new ProcStat.Snapshot(cpuNanos, Map.of(1L, new long[] {switches / 2, switches - switches / 2}), 0);
    }

    // ---- a real run: what does not depend on timing ----

    /** Keys whose values depend on timing or on the machine's state: kept as keys, their values replaced. */
    private static final Set<String> TIMING = Set.of("durationSeconds", "requestsPerSecond", "p50", "p90", "p99",
            "p99.9", "max", "mean", "latencyDistribution", "hdrHistogram", "perSecond", "cpuMicrosPerRequest",
            "userMicrosPerRequest", "systemMicrosPerRequest", "contextSwitchesPerRequest", "cpuShare", "busyShare",
            "maxLoopBusyShare", "machineIdleShare", "saturated");
    /** Advice the machine's state decides (saturation, an idle machine); the rest follows from the spec. */
    private static final List<String> MACHINE_NOTES = List.of("SATURATED", "the machine was", "the kernel gives no");

    private static JsonElement measuredOnly(JsonElement e, int port) {
        if (e.isJsonObject()) {
            JsonObject out = new JsonObject();
            for (Map.Entry<String, JsonElement> f : e.getAsJsonObject().entrySet()) {
                if (TIMING.contains(f.getKey())) {
                    out.addProperty(f.getKey(), MEASURED);
                } else if (f.getKey().equals("target")) {
                    out.addProperty("target", f.getValue().getAsString().replace(":" + port + "/", ":PORT/"));
                } else if (f.getKey().equals("notes")) {
                    JsonArray notes = new JsonArray();
                    for (JsonElement n : f.getValue().getAsJsonArray()) {
                        if (MACHINE_NOTES.stream().noneMatch(n.getAsString()::startsWith)) {
                            notes.add(n);
                        }
                    }
                    out.add("notes", notes);
                } else {
                    out.add(f.getKey(), measuredOnly(f.getValue(), port));
                }
            }
            return out;
        }
        if (e.isJsonArray()) {
            JsonArray out = new JsonArray();
            e.getAsJsonArray().forEach(x -> out.add(measuredOnly(x, port)));
            return out;
        }
        return e;
    }

    // ---- comparing with the golden files ----

    private static void assertGolden(String name, String measured) throws IOException {
        // the Netty the generator ran on differs by build (4.1, 4.2): the golden files say NETTY_VERSION
        String actual = measured.replace("\"netty\": \"" + NettyLine.current().version() + "\"",
                "\"netty\": \"NETTY_VERSION\"");
        String golden = golden(name);
        boolean json = name.endsWith(".json");
        if (golden != null && (json ? differences(golden, actual).isEmpty() : golden.equals(actual))) {
            return;
        }
        Path written = Paths.get("target", "golden", name);
        Files.createDirectories(written.getParent());
        Files.writeString(written, actual, StandardCharsets.UTF_8);
        assertNotNull(golden, "no golden file " + GOLDEN + name + "; this run's output is in " + written);
        if (json) {
            fail(name + " differs from the golden file (this run's output is in " + written + "):\n  "
                    + String.join("\n  ", differences(golden, actual)));
        }
        assertEquals(golden, actual, name + " differs from the golden file (this run's output is in " + written + ")");
    }

    private static String golden(String name) throws IOException {
        try (InputStream in = LoadResultGoldenTest.class.getResourceAsStream(GOLDEN + name)) {
            return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Every field that differs (or is missing, or is extra, or out of order), by its path. */
    static List<String> differences(String expected, String actual) {
        List<String> out = new ArrayList<>();
        diff("$", decoded(JsonParser.parseString(expected)), decoded(JsonParser.parseString(actual)), out);
        return out;
    }

    private static void diff(String path, JsonElement e, JsonElement a, List<String> out) {
        if (e.isJsonObject() && a.isJsonObject()) {
            List<String> ek = new ArrayList<>(e.getAsJsonObject().keySet());
            List<String> ak = new ArrayList<>(a.getAsJsonObject().keySet());
            for (String k : ek) {
                if (!ak.contains(k)) {
                    out.add(path + "." + k + ": missing");
                } else {
                    diff(path + "." + k, e.getAsJsonObject().get(k), a.getAsJsonObject().get(k), out);
                }
            }
            ak.stream().filter(k -> !ek.contains(k)).forEach(k -> out.add(path + "." + k + ": not in the golden file"));
            List<String> common = new ArrayList<>(ak);
            common.retainAll(ek);
            List<String> expectedOrder = new ArrayList<>(ek);
            expectedOrder.retainAll(ak);
            if (!common.equals(expectedOrder)) {
                out.add(path + ": keys in order " + common + ", golden " + expectedOrder);
            }
        } else if (e.isJsonArray() && a.isJsonArray()) {
            JsonArray ea = e.getAsJsonArray();
            JsonArray aa = a.getAsJsonArray();
            if (ea.size() != aa.size()) {
                out.add(path + ": " + aa.size() + " elements, golden " + ea.size());
            }
            for (int i = 0; i < Math.min(ea.size(), aa.size()); i++) {
                diff(path + "[" + i + "]", ea.get(i), aa.get(i), out);
            }
        } else if (!e.equals(a)) {
            out.add(path + ": " + a + ", golden " + e);
        }
    }

    /** The tree with every HdrHistogram encoding replaced by the histogram's counts, value by value. */
    private static JsonElement decoded(JsonElement e) {
        if (e.isJsonObject()) {
            JsonObject out = new JsonObject();
            for (Map.Entry<String, JsonElement> f : e.getAsJsonObject().entrySet()) {
                boolean hdr = f.getKey().equals("hdrHistogram") && f.getValue().isJsonObject();
                out.add(f.getKey(), hdr ? histograms(f.getValue().getAsJsonObject()) : decoded(f.getValue()));
            }
            return out;
        }
        if (e.isJsonArray()) {
            JsonArray out = new JsonArray();
            e.getAsJsonArray().forEach(x -> out.add(decoded(x)));
            return out;
        }
        return e;
    }

    private static JsonObject histograms(JsonObject encoded) {
        JsonObject out = new JsonObject();
        encoded.entrySet().forEach(f -> out.add(f.getKey(), f.getValue().isJsonPrimitive()
                && f.getValue().getAsJsonPrimitive().isString() && !f.getValue().getAsString().startsWith("<")
                ? counts(f.getValue().getAsString()) : f.getValue()));
        return out;
    }

    private static JsonElement counts(String base64) {
        Histogram h;
        try {
            h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
        } catch (DataFormatException e) {
            return new JsonPrimitive("undecodable: " + e.getMessage());
        }
        JsonArray out = new JsonArray();
        h.recordedValues().forEach(v -> {
            JsonArray pair = new JsonArray();
            pair.add(v.getValueIteratedTo());
            pair.add(v.getCountAtValueIteratedTo());
            out.add(pair);
        });
        return out;
    }

    private static String pretty(JsonElement e) {
        return new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(e);
    }
}
