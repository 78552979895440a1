package loopbench.topology;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * A {@link Placement} resolved on this machine: the CPUs each component is to run on. A component with no entry is
 * not pinned (placement {@code shared}, or {@code pinned} on one CPU).
 *
 * @param name      the placement as given ({@code pinned}, {@code shared}, {@code proxy=1/client=0})
 * @param available the CPUs this process could use when the plan was made
 * @param cpus      each pinned component's CPUs
 * @param note      why the plan is not what its name suggests (pinned on one CPU), or null
 */
public record CpuPlan(String name, CpuSet available, Map<Role, CpuSet> cpus, String note) {
    public CpuPlan {
        cpus = Map.copyOf(cpus);
    }

    /** The CPUs {@code role} is to run on, or null where it is not pinned. */
    public CpuSet cpusOf(Role role) {
        return cpus.get(role);
    }

    /** Whether any component is pinned. */
    public boolean pins() {
        return !cpus.isEmpty();
    }

    /** One line: {@code placement pinned: client=0 proxy=1 origin=0 (this process may use CPUs 0-1)}. */
    public String describe() {
        String who = cpus.isEmpty() ? "nothing pinned" : cpus.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
        return "placement " + name + ": " + who + " (this process may use CPUs " + available + ")"
                + (note == null ? "" : "; " + note);
    }
}
