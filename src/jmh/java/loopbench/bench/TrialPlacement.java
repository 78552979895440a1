package loopbench.bench;

import com.google.gson.JsonObject;
import loopbench.metrics.ProcStat;
import loopbench.report.EndToEndMetrics;
import loopbench.topology.Affinity;
import loopbench.topology.CpuPlan;
import loopbench.topology.CpuSet;
import loopbench.topology.Placement;
import loopbench.topology.Role;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The CPUs of one trial's components: the plan its {@code placement} parameter makes on this machine, this JMH
 * fork (the load generator) pinned to the client's CPUs for the trial and given back its CPUs at the end, each
 * server started on its own CPUs ({@link #cpus}), the CPUs every process really had read back from /proc, and the
 * CPU each one used over the measurement against them (so a reader sees which component was saturated).
 */
final class TrialPlacement implements AutoCloseable {
    private final CpuPlan plan;
    private final long self = ProcessHandle.current().pid();
    /** This process's CPUs before the trial pinned it (null: not pinned). */
    private final CpuSet restore;
    /** Each component's CPUs as read back from /proc once it ran, by role name. */
    private final Map<String, CpuSet> readBack = new LinkedHashMap<>();
    /** Over the measurement: CPU ns and wall ns of each component, by role name. */
    private final Map<String, long[]> measured = new LinkedHashMap<>();

    private TrialPlacement(CpuPlan plan, CpuSet restore) {
        this.plan = plan;
        this.restore = restore;
    }

    /**
     * Makes the plan of {@code placement} for a run of {@code components} (the first gets CPUs of its own under
     * {@code pinned}) and pins this process to the client's CPUs. Says on stdout what it did.
     */
    static TrialPlacement apply(String placement, List<Role> components) {
        CpuSet available = Affinity.available();
        CpuPlan plan = Placement.parse(placement).resolve(components.get(0), java.util.EnumSet.copyOf(components),
                available);
        System.out.println("loopbench: " + plan.describe());
        CpuSet client = plan.cpusOf(Role.CLIENT);
        if (client != null) {
            long self = ProcessHandle.current().pid();
            try {
                Affinity.pin(self, client);
            } catch (RuntimeException e) {
                try {
                    Affinity.pin(self, available); // some threads may have moved before it failed
                } catch (RuntimeException again) {
                    e.addSuppressed(again);
                }
                throw e;
            }
        }
        TrialPlacement p = new TrialPlacement(plan, client == null ? null : available);
        p.readBack.put(Role.CLIENT.cliName(), Affinity.ofAllThreads(p.self));
        return p;
    }

    CpuPlan plan() {
        return plan;
    }

    /** The CPUs the server of {@code role} runs on, or null for anywhere. */
    CpuSet cpus(String role) {
        return plan.cpusOf(Role.parse(role));
    }

    /** Reads back the CPUs of the server just started as {@code role}; throws if they are not the plan's. */
    void started(String role, long pid) {
        CpuSet had = Affinity.ofAllThreads(pid);
        CpuSet asked = plan.cpusOf(Role.parse(role));
        if (asked != null && !asked.equals(had)) {
            throw new IllegalStateException(role + " (pid " + pid + ") was to run on CPUs " + asked
                    + ", but /proc/" + pid + "/task/*/status says " + had);
        }
        readBack.put(role, had);
    }

    /**
     * One measured stretch of every component's process ({@code deltas} by role, client included): adds to the CPU
     * use over the measurement, and returns the stretch's figures for JMH: CPUs used and CPUs allowed per role.
     */
    Map<String, Double> measured(Map<String, ProcStat.Snapshot> deltas) {
        Map<String, Double> m = new LinkedHashMap<>();
        deltas.forEach((role, d) -> {
            long[] sum = measured.computeIfAbsent(role, r -> new long[2]);
            sum[0] += d.cpuNanos();
            sum[1] += d.nanoTime();
            m.put(EndToEndMetrics.cpusUsed(role),
                    d.nanoTime() <= 0 ? Double.NaN : (double) d.cpuNanos() / d.nanoTime());
            CpuSet had = readBack.get(role);
            if (had != null) {
                m.put(EndToEndMetrics.cpusAllowed(role), (double) had.size());
            }
        });
        return m;
    }

    /**
     * The side file's "placement": the parameter, the CPUs this process could use, the plan, each process's CPUs
     * read back from /proc (the client's over all of this fork's threads, now), and each one's CPU use in CPUs
     * (CPU seconds / wall seconds) over the measurement.
     */
    JsonObject toJson() {
        readBack.put(Role.CLIENT.cliName(), Affinity.ofAllThreads(self));
        JsonObject o = new JsonObject();
        o.addProperty("name", plan.name());
        o.addProperty("available", plan.available().toString());
        JsonObject planned = new JsonObject();
        plan.cpus().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> planned.addProperty(e.getKey().cliName(), e.getValue().toString()));
        o.add("plan", planned);
        JsonObject cpus = new JsonObject();
        readBack.forEach((role, set) -> cpus.addProperty(role, set.toString()));
        o.add("cpus", cpus);
        JsonObject use = new JsonObject();
        measured.forEach((role, s) -> {
            if (s[1] > 0) {
                use.addProperty(role, Math.round(1000.0 * s[0] / s[1]) / 1000.0);
            }
        });
        o.add("cpuUse", use);
        if (plan.note() != null) {
            o.addProperty("note", plan.note());
        }
        return o;
    }

    /** Gives this process back the CPUs it had before the trial. */
    @Override
    public void close() {
        if (restore != null) {
            Affinity.pin(self, restore);
        }
    }
}
