package loopbench.cli;

import loopbench.report.ResultTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "table", mixinStandardHelpOptions = true,
        description = "Prints JMH JSON results as Markdown tables: score ± 99.9%% error with units, samples "
                + "(forks x iterations), and the per-operation costs (B/op, CPU ns/op, context switches/op).")
final class TableCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RESULT.json", arity = "1..*", description = "JMH JSON result files.")
    List<Path> files;

    @Override
    public Integer call() throws IOException {
        for (Path f : files) {
            System.out.print(ResultTable.render(ResultTable.read(f)));
        }
        return 0;
    }
}
