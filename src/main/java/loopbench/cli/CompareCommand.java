package loopbench.cli;

import loopbench.report.Comparison;
import loopbench.report.ResultTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = "CI gate: compares two JMH JSON results benchmark by benchmark and exits 1 if any got worse "
                + "than the baseline by more than --threshold percent with non-overlapping 99.9%% confidence "
                + "intervals. Prints a Markdown table.")
final class CompareCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "BASELINE.json", description = "JMH JSON of the accepted run.")
    Path baseline;

    @Parameters(index = "1", paramLabel = "CURRENT.json", description = "JMH JSON of the run under test.")
    Path current;

    @Option(names = "--threshold", paramLabel = "PERCENT", defaultValue = "10",
            description = "How much worse a result may get before it can fail the gate. Default: ${DEFAULT-VALUE}.")
    double threshold;

    @Option(names = "--metric", paramLabel = "NAME", defaultValue = "primary",
            description = "primary (the score) or a secondary result, e.g. gc.alloc.rate.norm (B/op) or "
                    + "cpu.ns/op. Default: ${DEFAULT-VALUE}.")
    String metric;

    @Override
    public Integer call() throws IOException {
        if (!(threshold >= 0)) {
            throw new Cli.BadInput("--threshold must be a percentage >= 0, was " + threshold);
        }
        List<Comparison.Row> rows = Comparison.compare(ResultTable.read(baseline), ResultTable.read(current),
                metric, threshold);
        if (rows.isEmpty()) {
            throw new Cli.BadInput("no benchmark in " + baseline + " has the metric '" + metric
                    + "'; valid: primary or a secondary result name present in both files");
        }
        System.out.print(Comparison.render(rows, metric, threshold));
        long regressions = rows.stream().filter(r -> r.verdict() == Comparison.Verdict.REGRESSION).count();
        System.out.println();
        System.out.println(regressions == 0 ? "gate: PASS" : "gate: FAIL (" + regressions + " regression(s))");
        return regressions == 0 ? 0 : 1;
    }
}
