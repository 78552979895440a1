package loopbench.metrics;

/**
 * What a process and its descendants cost between two readings ({@link ProcStat}): their CPU time, user and system,
 * their threads' context switches, and the whole machine's busy CPU time beside it (whoever kept the machine busy: a
 * server that moves work out of its own processes, into the kernel's threads for one, shows there).
 *
 * <p>The machine's figure leaves out the CPU time of the JVM that took the readings: it measures, it is not measured.
 * A descendant that exits between the readings takes its CPU time and switches with it ({@link ProcStat#ofTree}).
 */
public record TreeCost(long pid, long userNanos, long systemNanos, long contextSwitches, long machineBusyNanos,
                       long wallNanos) {

    /** One reading of a process tree, of the machine and of this JVM, taken together. */
    public record Reading(long pid, ProcStat.CpuSplit cpu, ProcStat.Snapshot tree, ProcStat.MachineCpu machine,
                          long selfCpuNanos) {
    }

    /** Reads process {@code pid} and its descendants now; fails (IllegalStateException) if it does not exist. */
    public static Reading read(long pid) {
        ProcStat.Snapshot tree = ProcStat.ofTree(pid);
        ProcStat.CpuSplit cpu = ProcStat.cpuSplitOfTree(pid);
        return new Reading(pid, cpu, tree, ProcStat.machine(), ProcStat.self().cpuNanos());
    }

    /** What happened from {@code before} to {@code after} (two readings of the same tree). */
    public static TreeCost between(Reading before, Reading after) {
        if (before.pid() != after.pid()) {
            throw new IllegalArgumentException("readings of two trees: " + before.pid() + " and " + after.pid());
        }
        ProcStat.CpuSplit cpu = after.cpu().minus(before.cpu());
        long machine = after.machine().minus(before.machine()).busyNanos()
                - (after.selfCpuNanos() - before.selfCpuNanos());
        return new TreeCost(before.pid(), cpu.userNanos(), cpu.systemNanos(),
                after.tree().minus(before.tree()).contextSwitches(), Math.max(0, machine),
                after.tree().nanoTime() - before.tree().nanoTime());
    }

    public long cpuNanos() {
        return userNanos + systemNanos;
    }
}
