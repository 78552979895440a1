package loopbench.topology;

import loopbench.metrics.ProcStat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which CPUs a process runs on: read from /proc ({@code Cpus_allowed_list}, through {@link ProcStat}), and set
 * with util-linux's {@code taskset}, the standard tool: as a prefix of a command it starts ({@code taskset -c LIST
 * java ...}: the process and every thread it ever starts, from its first instruction), or on a running process
 * ({@code taskset -a -p -c LIST PID}: every thread it has now; threads started later inherit the affinity of the
 * thread that starts them).
 */
public final class Affinity {
    /** Re-pinning rounds before giving up: a thread born while taskset walked the threads may have escaped it. */
    private static final int PIN_ATTEMPTS = 3;

    private Affinity() {
    }

    /** The CPUs this process may use now (its main thread's affinity). */
    public static CpuSet available() {
        return of(ProcessHandle.current().pid());
    }

    /** The CPUs a process may use (its main thread's affinity, /proc/PID/status). */
    public static CpuSet of(long pid) {
        return CpuSet.parse(ProcStat.cpusAllowedList(pid));
    }

    /** The CPUs of each thread of a process, by thread id. */
    public static Map<Long, CpuSet> byThread(long pid) {
        Map<Long, CpuSet> m = new TreeMap<>();
        ProcStat.cpusAllowedListByThread(pid).forEach((tid, list) -> m.put(tid, CpuSet.parse(list)));
        return m;
    }

    /** Every CPU any thread of a process may use: what the process as a whole may take. */
    public static CpuSet ofAllThreads(long pid) {
        return byThread(pid).values().stream().reduce(CpuSet::union)
                .orElseThrow(() -> new IllegalStateException("process " + pid + " has no threads"));
    }

    /** The command that runs {@code command} on {@code cpus} only: {@code taskset -c LIST command...}. */
    public static List<String> prefix(CpuSet cpus) {
        return List.of("taskset", "-c", cpus.toString());
    }

    /**
     * Pins every thread of process {@code pid} to {@code cpus} ({@code taskset -a -p}) and checks, thread by thread,
     * that the kernel applied it. Throws naming the threads that are elsewhere if it could not.
     */
    public static void pin(long pid, CpuSet cpus) {
        Map<Long, CpuSet> elsewhere = Map.of();
        for (int attempt = 0; attempt < PIN_ATTEMPTS; attempt++) {
            try {
                SystemCommand.run("taskset", "-a", "-p", "-c", cpus.toString(), Long.toString(pid));
            } catch (IllegalStateException e) {
                // A thread that ended while taskset walked the threads fails the walk ("No such process"); the
                // check below reads the threads that are left, and the next attempt pins any it missed.
                if (!e.getMessage().contains("No such process") || !ProcessHandle.of(pid).map(ProcessHandle::isAlive)
                        .orElse(false)) {
                    throw e;
                }
            }
            elsewhere = new TreeMap<>(byThread(pid));
            elsewhere.values().removeIf(cpus::equals);
            if (elsewhere.isEmpty()) {
                return;
            }
        }
        throw new IllegalStateException("could not pin process " + pid + " to CPUs " + cpus + ": threads " + elsewhere
                + " are elsewhere after " + PIN_ATTEMPTS + " attempts");
    }
}
