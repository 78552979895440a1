package loopbench.cli;

import loopbench.memory.MemoryTable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "memory", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The memory table of MemoryEndToEndBenchmark's results (profiles/memory.jmh): what each "
                + "allocator holds, by Netty line, server, connections, body size and phase (steady, at the end of a "
                + "burst of 1 MiB bodies, after it), as the servers reported it; a bar chart per server and phase.",
                "Writes DIR/memory.md and DIR/charts/memory-*.png. Side files next to the JSON name each server's "
                        + "Netty."})
final class MemoryCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RESULTS.json", arity = "1..*", description = "JMH JSON files (the suite's results.json).")
    List<Path> results;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "target/jmh/memory",
            description = "Where memory.md and charts/ go. Default: ${DEFAULT-VALUE}.")
    Path out;

    @Override
    public Integer call() throws IOException {
        MemoryTable.Written w;
        try {
            w = MemoryTable.write(results, out);
        } catch (IllegalArgumentException e) {
            throw new Cli.BadInput(e.getMessage());
        }
        System.out.println("memory table: " + w.markdown() + " (" + w.rows() + " configurations, " + w.charts().size()
                + " charts)");
        return 0;
    }
}
