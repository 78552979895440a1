package loopbench.cli;

import loopbench.report.JmhResult;
import loopbench.report.PairedArms;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "pairs", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compares two arms of one rounds run (a profile whose lines have [rounds=N]), each candidate "
                + "fork paired with the baseline fork of the same round: per metric, the means of each arm's forks "
                + "and candidate / baseline with its 95%% interval (the paired t on the per-round log ratios, the "
                + "gate's and the claims' statistic) and the sd of the per-round log ratios, which sizes the rounds "
                + "a comparison needs (twin=A against twin=B: the noise alone). Prints Markdown.",
                "e.g. pairs target/jmh/results.json --baseline topology=local --candidate topology=netns "
                        + "--metric primary,e2e.proxy.cpu",
                "For two separate runs, use 'compare'; for two jars, 'gate'."})
final class PairsCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RESULTS.json", arity = "1..*",
            description = "JMH JSON of a rounds run (the suite's results.json: each fork's round recorded).")
    List<Path> files = new ArrayList<>();

    @Option(names = "--baseline", paramLabel = "NAME=VALUE[,NAME=VALUE]", required = true,
            description = "The baseline arm: parameters (e.g. topology=local) and/or group=LABEL (the profile "
                    + "line's label) and/or twin=A|B (a null experiment's twin arms).")
    String baseline;

    @Option(names = "--candidate", paramLabel = "NAME=VALUE[,NAME=VALUE]", required = true,
            description = "The candidate arm, the same way. Each baseline result pairs with the candidate result of "
                    + "the same benchmark and other parameters (and group and twin, unless a selector names them).")
    String candidate;

    @Option(names = "--metric", paramLabel = "NAME", split = ",",
            description = "Metrics to compare: primary (the score) and/or secondary results, e.g. e2e.proxy.cpu, "
                    + "gc.alloc.rate.norm. Default: the score and every secondary metric both arms have.")
    List<String> metrics = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        List<JmhResult> results = new ArrayList<>();
        for (Path f : files) {
            results.addAll(JmhResult.read(f));
        }
        PairedArms.Comparison c = Cli.validated(() -> PairedArms.compare(results,
                PairedArms.Selector.parse(baseline), PairedArms.Selector.parse(candidate), metrics));
        System.out.print(PairedArms.markdown(c));
        return 0;
    }
}
