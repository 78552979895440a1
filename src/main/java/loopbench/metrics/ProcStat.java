package loopbench.metrics;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

/**
 * CPU time and context switches of a process, read from Linux's /proc. This machine has no hardware
 * counters, so this is how loopbench puts a cost on a request: CPU-ns and context switches per request,
 * from a before/after pair of snapshots.
 *
 * <ul>
 *   <li>CPU time: utime + stime of /proc/PID/stat (all threads, live or exited), in clock ticks of
 *       {@link #USER_HZ}; for this JVM, the exact nanoseconds of {@code getProcessCpuTime()} instead.</li>
 *   <li>Context switches: voluntary + nonvoluntary of /proc/PID/task/TID/status, summed over the
 *       threads alive at the time (a thread that exits between two snapshots takes its count with it).</li>
 * </ul>
 */
public final class ProcStat {
    /** The kernel's USER_HZ: the unit of the times in /proc/PID/stat; 100 on every Linux ABI in use. */
    public static final long USER_HZ = 100;

    private ProcStat() {
    }

    /** A reading of one process. */
    public record Snapshot(long cpuNanos, long voluntarySwitches, long involuntarySwitches, long nanoTime) {

        public long contextSwitches() {
            return voluntarySwitches + involuntarySwitches;
        }

        /** What happened between {@code earlier} and this snapshot. */
        public Snapshot minus(Snapshot earlier) {
            return new Snapshot(cpuNanos - earlier.cpuNanos, voluntarySwitches - earlier.voluntarySwitches,
                    involuntarySwitches - earlier.involuntarySwitches, nanoTime - earlier.nanoTime);
        }
    }

    public static boolean isAvailable() {
        return Files.isReadable(Paths.get("/proc/self/stat"));
    }

    /** This JVM. */
    public static Snapshot self() {
        long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long[] switches = contextSwitches(Paths.get("/proc/self/task"));
        return new Snapshot(cpu, switches[0], switches[1], System.nanoTime());
    }

    /** Another process, by pid. */
    public static Snapshot of(long pid) {
        Path proc = Paths.get("/proc", Long.toString(pid));
        long[] switches = contextSwitches(proc.resolve("task"));
        return new Snapshot(cpuNanosFromStat(proc.resolve("stat")), switches[0], switches[1], System.nanoTime());
    }

    static long cpuNanosFromStat(Path stat) {
        String line = read(stat).get(0);
        // The command name (field 2) is in parentheses and may contain spaces: split after its ')'.
        String[] f = line.substring(line.lastIndexOf(')') + 2).split(" ");
        long utime = Long.parseLong(f[11]); // field 14
        long stime = Long.parseLong(f[12]); // field 15
        return (utime + stime) * (1_000_000_000L / USER_HZ);
    }

    private static long[] contextSwitches(Path taskDir) {
        long voluntary = 0;
        long involuntary = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path task : tasks) {
                List<String> status;
                try {
                    status = Files.readAllLines(task.resolve("status"));
                } catch (NoSuchFileException exited) {
                    continue;
                }
                for (String l : status) {
                    if (l.startsWith("voluntary_ctxt_switches:")) {
                        voluntary += Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                    } else if (l.startsWith("nonvoluntary_ctxt_switches:")) {
                        involuntary += Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + taskDir + ": " + e.getMessage(), e);
        }
        return new long[] {voluntary, involuntary};
    }

    private static List<String> read(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + p + ": " + e.getMessage(), e);
        }
    }
}
