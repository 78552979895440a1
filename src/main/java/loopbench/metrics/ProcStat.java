package loopbench.metrics;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.LongConsumer;

/**
 * CPU time and context switches of a process, read from Linux's /proc. This machine has no hardware
 * counters, so this is how loopbench puts a cost on a request: CPU-ns and context switches per request,
 * from a before/after pair of snapshots.
 *
 * <ul>
 *   <li>CPU time: utime + stime of /proc/PID/stat (all threads, live or exited), in clock ticks of
 *       {@link #USER_HZ}; for this JVM, the exact nanoseconds of {@code getProcessCpuTime()} instead.</li>
 *   <li>Context switches: voluntary + nonvoluntary of /proc/PID/task/TID/status, per thread, so that a
 *       difference of two snapshots counts each thread's own switches (a thread that exits between two
 *       snapshots takes its last ones with it).</li>
 *   <li>The JIT's share: the time on a CPU of each HotSpot compiler thread (named {@code C1 CompilerThreadN} or
 *       {@code C2 CompilerThreadN}; /proc/PID/task/TID/schedstat, in ns), counted per thread like the switches. A
 *       process still compiling in a measured stretch was not warm: its CPU per request includes the compiler's,
 *       and its code ran partly interpreted.</li>
 * </ul>
 */
public final class ProcStat {
    /** The kernel's USER_HZ: the unit of the times in /proc/PID/stat; 100 on every Linux ABI in use. */
    public static final long USER_HZ = 100;

    private ProcStat() {
    }

    /**
     * A reading of one process: its CPU time, the context switches of each of its threads (by thread id) and the
     * CPU time of each of its JIT compiler threads (by thread id; null where it could not be read, e.g. a process on
     * another host) at that moment.
     */
    public record Snapshot(long cpuNanos, Map<Long, long[]> switchesByThread, Map<Long, Long> compilerNanosByThread,
                           long nanoTime) {

        /** A reading without the compiler threads' time. */
        public Snapshot(long cpuNanos, Map<Long, long[]> switchesByThread, long nanoTime) {
            this(cpuNanos, switchesByThread, null, nanoTime);
        }

        /** The JIT compiler threads' CPU time in ns (of a difference: in its stretch), or -1 where not read. */
        public long compilerNanos() {
            return compilerNanosByThread == null ? -1
                    : compilerNanosByThread.values().stream().mapToLong(Long::longValue).sum();
        }

        public long voluntarySwitches() {
            return switchesByThread.values().stream().mapToLong(s -> s[0]).sum();
        }

        public long involuntarySwitches() {
            return switchesByThread.values().stream().mapToLong(s -> s[1]).sum();
        }

        public long contextSwitches() {
            return voluntarySwitches() + involuntarySwitches();
        }

        /**
         * What happened between {@code earlier} and this snapshot. A thread's switches count from 0 if it was
         * born in between; a thread that exited in between takes its last switches with it (counted short,
         * never negative).
         */
        public Snapshot minus(Snapshot earlier) {
            Map<Long, long[]> delta = new HashMap<>();
            switchesByThread.forEach((tid, now) -> {
                long[] before = earlier.switchesByThread.get(tid);
                if (before == null || before[0] > now[0] || before[1] > now[1]) {
                    before = new long[2]; // a new thread (or a reused thread id)
                }
                delta.put(tid, new long[] {now[0] - before[0], now[1] - before[1]});
            });
            Map<Long, Long> compiler = null;
            if (compilerNanosByThread != null && earlier.compilerNanosByThread != null) {
                compiler = new HashMap<>();
                for (Map.Entry<Long, Long> e : compilerNanosByThread.entrySet()) {
                    long before = earlier.compilerNanosByThread.getOrDefault(e.getKey(), 0L);
                    compiler.put(e.getKey(), e.getValue() - (before > e.getValue() ? 0 : before));
                }
            }
            return new Snapshot(cpuNanos - earlier.cpuNanos, delta, compiler, nanoTime - earlier.nanoTime);
        }
    }

    public static boolean isAvailable() {
        return Files.isReadable(Paths.get("/proc/self/stat"));
    }

    /** This JVM. */
    public static Snapshot self() {
        long cpu = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        Threads t = threads(Paths.get("/proc/self/task"));
        return new Snapshot(cpu, t.switches(), t.compilerNanos(), System.nanoTime());
    }

    /** Another process, by pid. */
    public static Snapshot of(long pid) {
        Path proc = Paths.get("/proc", Long.toString(pid));
        Threads t = threads(proc.resolve("task"));
        return new Snapshot(cpuNanosFromStat(proc.resolve("stat")), t.switches(), t.compilerNanos(), System.nanoTime());
    }

    /**
     * A process and every process descending from it, as one: their CPU time summed and every thread's context
     * switches (thread ids are unique across processes). What an external server costs when it is more than one
     * process (nginx's master and workers, a shell that started a gateway). A descendant that exits between two
     * snapshots takes its CPU time with it (counted short, as a thread that exits in between).
     */
    public static Snapshot ofTree(long pid) {
        long nanoTime = System.nanoTime();
        long[] cpu = new long[1];
        Map<Long, long[]> switches = new HashMap<>();
        Map<Long, Long> compiler = new HashMap<>();
        forEachInTree(pid, p -> {
            Path proc = Paths.get("/proc", Long.toString(p));
            cpu[0] += cpuNanosFromStat(proc.resolve("stat"));
            Threads t = threads(proc.resolve("task"));
            switches.putAll(t.switches());
            compiler.putAll(t.compilerNanos());
        });
        return new Snapshot(cpu[0], switches, compiler, nanoTime);
    }

    /**
     * The CPU time of a process and every process descending from it, summed and split into user and system time (see
     * {@link #ofTree} and {@link #cpuSplit}).
     */
    public static CpuSplit cpuSplitOfTree(long pid) {
        long[] userAndSystem = new long[2];
        forEachInTree(pid, p -> {
            CpuSplit s = cpuSplit(p);
            userAndSystem[0] += s.userNanos();
            userAndSystem[1] += s.systemNanos();
        });
        return new CpuSplit(userAndSystem[0], userAndSystem[1]);
    }

    /** Reads {@code pid} and each of its descendants; one that exits while it is read is left out. */
    private static void forEachInTree(long pid, LongConsumer read) {
        for (long p : treePids(pid)) {
            try {
                read.accept(p);
            } catch (IllegalStateException e) {
                if (p == pid || Files.exists(Paths.get("/proc", Long.toString(p)))) {
                    throw e;
                }
                // a descendant that exited while it was read
            }
        }
    }

    /** The I/O counters of a process and its descendants, summed (see {@link #ofTree}). */
    public static Io ioOfTree(long pid) {
        Io sum = new Io(0, 0);
        for (long p : treePids(pid)) {
            try {
                Io io = io(p);
                sum = new Io(sum.bytesRead() + io.bytesRead(), sum.bytesWritten() + io.bytesWritten());
            } catch (IllegalStateException e) {
                if (p == pid) {
                    throw e;
                }
            }
        }
        return sum;
    }

    private static List<Long> treePids(long pid) {
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        return pids;
    }

    /**
     * Bytes a process passed to read()/readv() and write()/writev() ({@code rchar}, {@code wchar} of
     * /proc/PID/io), socket I/O included. Netty's NIO and epoll transports move socket bytes with exactly those
     * calls, so for a server that only serves, the difference of two readings is its traffic (plus 8 bytes per
     * eventfd wake-up); io_uring's reads and writes are not system calls and are not counted.
     */
    public record Io(long bytesRead, long bytesWritten) {
        public Io minus(Io earlier) {
            return new Io(bytesRead - earlier.bytesRead, bytesWritten - earlier.bytesWritten);
        }
    }

    /** The I/O counters of another process (same user), by pid. */
    public static Io io(long pid) {
        long read = -1;
        long written = -1;
        for (String l : read(Paths.get("/proc", Long.toString(pid), "io"))) {
            if (l.startsWith("rchar:")) {
                read = Long.parseLong(l.substring(6).trim());
            } else if (l.startsWith("wchar:")) {
                written = Long.parseLong(l.substring(6).trim());
            }
        }
        if (read < 0 || written < 0) {
            throw new IllegalStateException("no rchar/wchar in /proc/" + pid + "/io");
        }
        return new Io(read, written);
    }

    /**
     * The whole machine's CPU time so far, from the first line of /proc/stat, in clock ticks summed over all CPUs:
     * how much of it was idle (idle + iowait) and in all. Two readings tell how busy the machine was in between,
     * whoever kept it busy: on a small machine shared by a load generator and the servers it loads, an idle share
     * near 0 means every component competed for the cores.
     */
    public record MachineCpu(long idleTicks, long totalTicks) {
        public MachineCpu minus(MachineCpu earlier) {
            return new MachineCpu(idleTicks - earlier.idleTicks, totalTicks - earlier.totalTicks);
        }

        /** The CPU time spent on anything but idling (user, nice, system, irq, softirq, steal), in nanoseconds. */
        public long busyNanos() {
            return (totalTicks - idleTicks) * (1_000_000_000L / USER_HZ);
        }

        /** Idle share of the CPUs (0..1) between two readings; NaN if no time passed. */
        public double idleShare() {
            return totalTicks <= 0 ? Double.NaN : (double) idleTicks / totalTicks;
        }
    }

    public static MachineCpu machine() {
        return parseMachine(read(Paths.get("/proc/stat")).get(0));
    }

    static MachineCpu parseMachine(String cpuLine) {
        // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
        String[] f = cpuLine.trim().split("\\s+");
        if (!"cpu".equals(f[0])) {
            throw new IllegalStateException("not the cpu line of /proc/stat: " + cpuLine);
        }
        long total = 0;
        for (int i = 1; i < Math.min(f.length, 9); i++) {
            total += Long.parseLong(f[i]);
        }
        long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0);
        return new MachineCpu(idle, total);
    }

    /**
     * The scheduler's account of one thread of this process ({@code /proc/self/task/TID/schedstat}): ns it ran on
     * a CPU, and ns it waited on a run queue, ready but without a CPU. Their sum over a wall-clock interval says
     * whether the thread was ever idle: a thread that ran or wanted to run all the time is saturated, even when a
     * busy machine kept it from running. Null where the kernel has no schedstat.
     */
    public record SchedStat(long runNanos, long waitNanos) {
        public SchedStat minus(SchedStat earlier) {
            return new SchedStat(runNanos - earlier.runNanos, waitNanos - earlier.waitNanos);
        }
    }

    public static SchedStat schedStat(long tid) {
        return schedStat(Paths.get("/proc/self/task", Long.toString(tid), "schedstat"));
    }

    /** One thread's schedstat file read, or null if it cannot be (the thread has exited). */
    private static SchedStat schedStat(Path schedstat) {
        try {
            String[] f = Files.readString(schedstat).trim().split("\\s+");
            return new SchedStat(Long.parseLong(f[0]), Long.parseLong(f[1]));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The kernel's id of the calling thread (what /proc/self/task lists), or -1 where /proc does not say. */
    public static long currentTid() {
        try {
            Path link = Files.readSymbolicLink(Paths.get("/proc/thread-self")); // "PID/task/TID"
            return Long.parseLong(link.getFileName().toString());
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * A process's CPU time split into user and kernel (system) time: utime and stime of /proc/PID/stat, in
     * nanoseconds (resolution: one clock tick, 10 ms). Over seconds of load, where the CPU of a request goes: the
     * kernel's network stack, or the process's own code.
     */
    public record CpuSplit(long userNanos, long systemNanos) {
        public CpuSplit minus(CpuSplit earlier) {
            return new CpuSplit(userNanos - earlier.userNanos, systemNanos - earlier.systemNanos);
        }
    }

    public static CpuSplit cpuSplit(long pid) {
        String[] f = statFields(Paths.get("/proc", Long.toString(pid), "stat"));
        long tick = 1_000_000_000L / USER_HZ;
        return new CpuSplit(Long.parseLong(f[11]) * tick, Long.parseLong(f[12]) * tick);
    }

    /** The fields of /proc/PID/stat after the command name (field 3 onwards, so field N is at index N - 3). */
    private static String[] statFields(Path stat) {
        String line = read(stat).get(0);
        // The command name (field 2) is in parentheses and may contain spaces: split after its ')'.
        return line.substring(line.lastIndexOf(')') + 2).split(" ");
    }

    static long cpuNanosFromStat(Path stat) {
        String[] f = statFields(stat);
        long utime = Long.parseLong(f[11]); // field 14
        long stime = Long.parseLong(f[12]); // field 15
        return (utime + stime) * (1_000_000_000L / USER_HZ);
    }

    /**
     * The CPUs a process may run on, as the kernel lists them ({@code Cpus_allowed_list} of /proc/PID/status, e.g.
     * {@code 0-1}): its main thread's affinity.
     */
    public static String cpusAllowedList(long pid) {
        return statusField(pid, "Cpus_allowed_list");
    }

    /** One field of /proc/PID/status, e.g. {@code CapEff} (the effective capabilities, in hex). */
    public static String statusField(long pid, String field) {
        Path status = Paths.get("/proc", Long.toString(pid), "status");
        for (String l : read(status)) {
            if (l.startsWith(field + ":")) {
                return l.substring(l.indexOf(':') + 1).trim();
            }
        }
        throw new IllegalStateException("no " + field + " in " + status);
    }

    /**
     * A process's resident set size now, in bytes ({@code VmRSS} of /proc/PID/status: its pages in RAM, heap, direct
     * buffers, code and thread stacks alike).
     */
    public static long residentBytes(long pid) {
        String v = statusField(pid, "VmRSS"); // "123456 kB"
        String[] parts = v.split("\\s+");
        if (parts.length != 2 || !parts[1].equals("kB")) {
            throw new IllegalStateException("VmRSS of /proc/" + pid + "/status is not 'N kB': " + v);
        }
        return Long.parseLong(parts[0]) * 1024;
    }

    /** {@link #cpusAllowedList} of every thread of a process alive now, by thread id. */
    public static Map<Long, String> cpusAllowedListByThread(long pid) {
        Map<Long, String> byThread = new HashMap<>();
        forEachThreadStatus(Paths.get("/proc", Long.toString(pid), "task"), (tid, status) -> {
            for (String l : status) {
                if (l.startsWith("Cpus_allowed_list:")) {
                    byThread.put(tid, l.substring(l.indexOf(':') + 1).trim());
                }
            }
        });
        return byThread;
    }

    /** HotSpot's JIT compiler threads' names as /proc shows them (cut to 15 characters): "C2 CompilerThre". */
    private static final java.util.regex.Pattern COMPILER_THREAD =
            java.util.regex.Pattern.compile("Name:\\s+C[12] CompilerThre.*");

    /**
     * What one pass over a process's threads reads: the voluntary and nonvoluntary context switches of every thread
     * alive now, and the time on a CPU (ns, from schedstat) of every JIT compiler thread, by thread id.
     */
    private record Threads(Map<Long, long[]> switches, Map<Long, Long> compilerNanos) {
    }

    private static Threads threads(Path taskDir) {
        Map<Long, long[]> switchesByThread = new HashMap<>();
        Map<Long, Long> compilerByThread = new HashMap<>();
        forEachThreadStatus(taskDir, (tid, status) -> {
            long[] switches = new long[2];
            for (String l : status) {
                if (l.startsWith("voluntary_ctxt_switches:")) {
                    switches[0] = Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                } else if (l.startsWith("nonvoluntary_ctxt_switches:")) {
                    switches[1] = Long.parseLong(l.substring(l.indexOf(':') + 1).trim());
                }
            }
            switchesByThread.put(tid, switches);
            if (!status.isEmpty() && COMPILER_THREAD.matcher(status.get(0)).matches()) {
                // null: a compiler thread that exited while it was read (HotSpot starts and stops them with the load)
                SchedStat run = schedStat(taskDir.resolve(Long.toString(tid)).resolve("schedstat"));
                if (run != null) {
                    compilerByThread.put(tid, run.runNanos());
                }
            }
        });
        return new Threads(switchesByThread, compilerByThread);
    }

    /** The lines of /proc/PID/task/TID/status of every thread alive now, with its thread id. */
    private static void forEachThreadStatus(Path taskDir, BiConsumer<Long, List<String>> action) {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(taskDir)) {
            for (Path task : tasks) {
                List<String> status;
                try {
                    status = Files.readAllLines(task.resolve("status"));
                } catch (IOException e) {
                    // A thread that exits between the listing and the read: its status is gone (ENOENT) or reads
                    // as ESRCH, a plain IOException.
                    if (e instanceof NoSuchFileException || "No such process".equals(e.getMessage())
                            || !Files.exists(task)) {
                        continue;
                    }
                    throw e;
                }
                action.accept(Long.parseLong(task.getFileName().toString()), status);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + taskDir + ": " + e.getMessage(), e);
        }
    }

    private static List<String> read(Path p) {
        try {
            return Files.readAllLines(p);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + p + ": " + e.getMessage(), e);
        }
    }
}
