package loopbench.cli;

import loopbench.topology.Affinity;
import loopbench.topology.CpuSet;
import picocli.CommandLine.Option;

/** {@code --cpus LIST}: where a server or the load generator runs, set on itself before it starts anything. */
final class CpusOption {

    @Option(names = "--cpus", paramLabel = "LIST",
            description = "Run on these CPUs only (e.g. 1, 0-1, 0,2 or 0+2): every thread is pinned with taskset "
                    + "before the server or the load starts. They must be among the CPUs this process may use. "
                    + "Default: wherever the kernel schedules it.")
    CpuSet cpus;

    /** Pins this process as asked (nothing without {@code --cpus}); CPUs this process may not use are a usage error. */
    void pinThisProcess() {
        if (cpus == null) {
            return;
        }
        CpuSet available = Affinity.available();
        if (!cpus.isSubsetOf(available)) {
            throw new Cli.BadInput("--cpus " + cpus + ": CPU " + cpus.minus(available) + " is not among the CPUs this "
                    + "process may use: " + available + " (" + available.size() + " CPUs)");
        }
        Affinity.pin(ProcessHandle.current().pid(), cpus);
    }
}
