package loopbench.suite;

import loopbench.report.JmhResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.AverageTimeResult;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.IterationResultMetaData;
import org.openjdk.jmh.results.ResultRole;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.WorkloadParams;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The suite's incremental JSON keeps one rawData row per fork, as JMH's own JSON does. */
class ProgressOutputTest {

    private static BenchmarkParams params(int forks, int measurements) {
        IterationParams warmup = new IterationParams(IterationType.WARMUP, 1, TimeValue.seconds(1), 1);
        IterationParams measurement = new IterationParams(IterationType.MEASUREMENT, measurements, TimeValue.seconds(1),
                1);
        WorkloadParams p = new WorkloadParams();
        p.put("size", "64", 0);
        return new BenchmarkParams("loopbench.bench.X.m", "gen", false, 1, new int[] {1}, List.of(), forks, 0, warmup,
                measurement, Mode.AverageTime, p, TimeUnit.NANOSECONDS, 1, "java", List.of(), "17", "vm", "17", "1.37",
                TimeValue.minutes(10));
    }

    /** What JMH hands endBenchmark: every fork's measurement iterations merged, in fork order. */
    private static BenchmarkResult merged(BenchmarkParams params, double... nanos) {
        List<IterationResult> its = new ArrayList<>();
        for (double v : nanos) {
            IterationResult it = new IterationResult(params, params.getMeasurement(),
                    new IterationResultMetaData(1000, 1000));
            it.addResult(new AverageTimeResult(ResultRole.PRIMARY, "m", 1000, (long) (v * 1000), TimeUnit.NANOSECONDS));
            its.add(it);
        }
        return new BenchmarkResult(params, its);
    }

    @Test
    void mergedForksAreSplitBackIntoOneRowEach(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("results.json");
        IncrementalResults results = new IncrementalResults(json, dir.resolve("results.md"), "run-7");
        ProgressOutput out = new ProgressOutput(new PrintStream(new ByteArrayOutputStream()), results);
        BenchmarkParams p = params(2, 3);
        out.endBenchmark(merged(p, 10, 11, 12, 20, 21, 22));
        JmhResult r = JmhResult.read(json).get(0);
        double[][] raw = r.primary().rawData();
        assertEquals(2, raw.length, "one row per fork");
        assertArrayEquals(new double[] {10, 11, 12}, raw[0], 1e-9);
        assertArrayEquals(new double[] {20, 21, 22}, raw[1], 1e-9);
        assertArrayEquals(new double[] {11, 21}, r.primary().forkMeans(), 1e-9);
        assertEquals("run-7", r.json().getAsJsonObject("loopbench").get("run").getAsString(), "the run's id");
        assertTrue(Files.readString(dir.resolve("results.md")).contains("### "), "the table is rendered too");
    }

    @Test
    void iterationsThatDoNotDivideIntoForksStayOneRow() {
        BenchmarkParams p = params(2, 3);
        assertEquals(1, ProgressOutput.perFork(merged(p, 10, 11, 12, 20)).getBenchmarkResults().size());
        assertEquals(1, ProgressOutput.perFork(merged(params(1, 3), 10, 11, 12)).getBenchmarkResults().size());
    }
}
