package loopbench.bench;

import loopbench.topology.LinkSpec;
import loopbench.topology.Placement;
import loopbench.topology.Role;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import java.util.List;

/**
 * What every end-to-end benchmark says about where its processes run, as parameters: on which CPUs
 * ({@code placement}) and on which network ({@code topology}, {@code link}); {@link #place} gives a trial's
 * components their hosts accordingly.
 */
@State(Scope.Benchmark)
public abstract class AbstractPlacedBenchmark extends AbstractBenchmark {
    /**
     * Which CPUs each process runs on: {@code pinned} (the component under study alone on the upper half of the
     * CPUs, the generator and the other servers on the rest), {@code shared} (no pinning), or
     * {@code ROLE=CPUS/...} ({@code proxy=1/client=0/origin=0}). See {@link loopbench.topology.Placement}.
     */
    @Param({"pinned"})
    public String placement = Placement.PINNED;

    /**
     * {@code local}: every process on this machine's loopback; {@code netns}: every server in a network namespace of
     * its own, the generator in this one, each joined to a switch by a veth pair (root or CAP_NET_ADMIN and
     * CAP_SYS_ADMIN); see {@link loopbench.topology.NetnsTopology}.
     */
    @Param({"local"})
    public String topology = "local";

    /**
     * netns only: {@code none}, or each host's link shaped to a rate ({@code 1gbit}, {@code 100mbit}: tc tbf, both
     * directions); a delay ({@code 1gbit+5ms}) needs netem, which a kernel may lack (then it is refused).
     */
    @Param({"none"})
    public String link = LinkSpec.NONE;

    /**
     * Gives {@code trial}'s components their hosts as the parameters say; {@code components}: the first is the one
     * {@code placement=pinned} gives CPUs of its own.
     */
    protected final void place(EndToEndTrial trial, List<Role> components) {
        trial.place(placement, topology, link, components);
    }
}
