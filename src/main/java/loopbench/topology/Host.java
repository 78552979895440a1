package loopbench.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a process of an end-to-end run runs: on which CPUs, and (with the netns topology) in which network
 * namespace. On one machine a "host" of the articles' setups is a namespace plus CPUs of its own.
 *
 * @param namespace the network namespace to run in ({@code ip netns exec}), or null for this process's own
 * @param cpus      the CPUs to run on ({@code taskset -c}), or null for wherever the kernel puts it
 */
public record Host(String namespace, CpuSet cpus) {
    /** This process's network namespace, no pinning. */
    public static final Host ANYWHERE = new Host(null, null);

    /**
     * {@code command} as it runs on this host: {@code [ip netns exec NS] [taskset -c LIST] command...}. Both tools
     * exec the command in their own process, so the process started is the command's own (same pid).
     */
    public List<String> launch(List<String> command) {
        List<String> cmd = new ArrayList<>();
        if (namespace != null) {
            cmd.addAll(List.of("ip", "netns", "exec", namespace));
        }
        if (cpus != null) {
            cmd.addAll(Affinity.prefix(cpus));
        }
        cmd.addAll(command);
        return cmd;
    }

    @Override
    public String toString() {
        if (namespace == null && cpus == null) {
            return "anywhere";
        }
        return (namespace == null ? "" : "netns " + namespace) + (namespace != null && cpus != null ? ", " : "")
                + (cpus == null ? "" : "CPUs " + cpus);
    }
}
