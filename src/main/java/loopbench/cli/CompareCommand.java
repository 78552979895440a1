package loopbench.cli;

import loopbench.report.Comparison;
import loopbench.report.JmhResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "compare", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compares two JMH JSON results benchmark by benchmark with fork-level statistics: per "
                + "benchmark and metric, the candidate/baseline ratio of fork means with a 95%% interval (Welch t on "
                + "logs), Holm's correction over all of them. A regression is worse than the threshold with the "
                + "interval wholly beyond it. Needs >= 2 forks per side (run the suite with -f 2 or more): with "
                + "fewer, the files cannot support a verdict. Prints a Markdown table.",
                "Exit: 0 no regression, 1 regression, 2 bad usage or no verdict possible.",
                "Forks of one run share the machine's mood; for a gate you can trust, prefer 'loopbench gate', "
                        + "which interleaves both sides."})
final class CompareCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "BASELINE.json", description = "JMH JSON of the accepted run.")
    Path baseline;

    @Parameters(index = "1", paramLabel = "CURRENT.json", description = "JMH JSON of the run under test.")
    Path current;

    @Option(names = "--threshold", paramLabel = "PERCENT", defaultValue = Comparison.DEFAULT_THRESHOLD,
            description = "How much worse the score (and any other metric named, except B/op) may get before it "
                    + "can fail. Default: ${DEFAULT-VALUE}.")
    double threshold;

    @Option(names = "--alloc-threshold", paramLabel = "PERCENT", defaultValue = Comparison.DEFAULT_ALLOC_THRESHOLD,
            description = "The same for bytes per operation (gc.alloc.rate.norm). Default: ${DEFAULT-VALUE}.")
    double allocThreshold;

    @Option(names = "--metric", paramLabel = "NAME", split = ",",
            description = "What to judge: primary (the score) and/or secondary results, e.g. gc.alloc.rate.norm "
                    + "(B/op) or cpu.ns/op. Default: primary,gc.alloc.rate.norm (B/op where measured).")
    List<String> metrics = new ArrayList<>();

    @Option(names = "--json", paramLabel = "FILE", description = "Also write the comparison as JSON.")
    Path json;

    @Override
    public Integer call() throws IOException {
        Comparison.Thresholds thresholds = Cli.validated(() -> new Comparison.Thresholds(threshold, allocThreshold));
        List<JmhResult> base = JmhResult.read(baseline);
        List<JmhResult> cand = JmhResult.read(current);
        List<String> asked = metrics.isEmpty() ? Comparison.defaultMetrics(base) : metrics;
        List<Comparison.Row> rows = Cli.validated(() -> Comparison.compareFiles(base, cand, asked, thresholds));
        System.out.println(Comparison.rule(rows, thresholds, false));
        System.out.println();
        System.out.print(Comparison.markdown(rows));
        if (json != null) {
            Files.writeString(json, Comparison.json(rows).toString());
        }
        long regressions = Comparison.count(rows, Comparison.Status.REGRESSION);
        long noVerdict = Comparison.count(rows, Comparison.Status.NO_VERDICT);
        System.out.println();
        if (regressions > 0) {
            System.out.println("compare: FAIL (" + regressions + " regression(s))");
            return 1;
        }
        if (noVerdict > 0) {
            System.out.println("compare: NO VERDICT: " + noVerdict + " of " + rows.size() + " comparison(s) cannot be "
                    + "judged (see the table); the files cannot support a verdict. A verdict needs >= 2 forks per "
                    + "benchmark on each side: run the suite with -f 2 or more (./mvnw -Pjmh verify -Djmh.args=\"-f "
                    + "3\"), or use 'loopbench gate'.");
            return 2;
        }
        if (Comparison.family(rows) == 0) {
            System.out.println("compare: NO VERDICT: no benchmark is in both files (see the table)");
            return 2;
        }
        System.out.println("compare: PASS");
        return 0;
    }
}
