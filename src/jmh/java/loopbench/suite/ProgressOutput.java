package loopbench.suite;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.format.OutputFormat;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * JMH's normal console output, plus: each finished benchmark goes to {@link IncrementalResults} at once (with
 * its forks kept apart, see {@link #perFork}), and a benchmark that produced no result (its fork failed) is counted.
 */
final class ProgressOutput implements OutputFormat {
    private final OutputFormat console;
    private final IncrementalResults results;
    private int failed;

    ProgressOutput(PrintStream out, IncrementalResults results) {
        this.console = OutputFormatFactory.createFormatInstance(out, VerboseMode.NORMAL);
        this.results = results;
    }

    int failedBenchmarks() {
        return failed;
    }

    @Override
    public void endBenchmark(BenchmarkResult result) {
        console.endBenchmark(result);
        if (result == null || result.getIterationResults().isEmpty()) {
            failed++;
            return;
        }
        results.add(perFork(result));
    }

    /**
     * JMH hands {@code endBenchmark} the result of all forks merged into one (its measurement iterations in fork
     * order); its own final results keep one BenchmarkResult per fork, which is what gives JMH's JSON one
     * {@code rawData} row per fork. The per-fork statistics of the claims report and the gate need those rows,
     * so the merged iterations are split back into forks of {@code measurement count} iterations each (when they
     * do not divide evenly, e.g. a fork failed, they stay one row). Results of the whole trial (external
     * profilers') go with the first fork.
     */
    static RunResult perFork(BenchmarkResult merged) {
        List<IterationResult> iterations = new ArrayList<>(merged.getIterationResults());
        int perFork = merged.getParams().getMeasurement().getCount();
        if (perFork <= 0 || iterations.size() <= perFork || iterations.size() % perFork != 0) {
            return new RunResult(merged.getParams(), List.of(merged));
        }
        List<BenchmarkResult> forks = new ArrayList<>();
        for (int from = 0; from < iterations.size(); from += perFork) {
            forks.add(new BenchmarkResult(merged.getParams(), iterations.subList(from, from + perFork)));
        }
        for (String key : merged.getBenchmarkResults().keys()) {
            for (Result<?> r : merged.getBenchmarkResults().get(key)) {
                forks.get(0).addBenchmarkResult(r);
            }
        }
        return new RunResult(merged.getParams(), forks);
    }

    @Override
    public void iteration(BenchmarkParams benchParams, IterationParams params, int iteration) {
        console.iteration(benchParams, params, iteration);
    }

    @Override
    public void iterationResult(BenchmarkParams benchParams, IterationParams params, int iteration,
            IterationResult data) {
        console.iterationResult(benchParams, params, iteration, data);
    }

    @Override
    public void startBenchmark(BenchmarkParams benchParams) {
        console.startBenchmark(benchParams);
    }

    @Override
    public void startRun() {
        console.startRun();
    }

    @Override
    public void endRun(Collection<RunResult> result) {
        console.endRun(result);
    }

    @Override
    public void print(String s) {
        console.print(s);
    }

    @Override
    public void println(String s) {
        console.println(s);
    }

    @Override
    public void flush() {
        console.flush();
    }

    @Override
    public void close() {
        console.flush(); // not close(): that would close System.out
    }

    @Override
    public void verbosePrintln(String s) {
        console.verbosePrintln(s);
    }

    @Override
    public void write(int b) {
        console.write(b);
    }

    @Override
    public void write(byte[] b) throws IOException {
        console.write(b);
    }
}
