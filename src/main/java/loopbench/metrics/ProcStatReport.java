package loopbench.metrics;

import java.util.HashMap;
import java.util.Map;

/**
 * A process's /proc counters ({@link ProcStat}) as one line of text, for a parent that cannot read that process's
 * /proc itself: a server on another machine, started over SSH, answers each {@value #REQUEST} line on its stdin
 * with one such line on its stdout ({@code --exit-with-parent}), read from its own /proc there. The parent keeps
 * its own clock: the snapshot's time is when the line arrived.
 *
 * <p>{@code procstat pid=PID cpuNanos=N read=BYTES written=BYTES threads=TID:VOLUNTARY:INVOLUNTARY,...}
 */
public final class ProcStatReport {
    /** What the parent writes to ask. */
    public static final String REQUEST = "procstat";
    private static final String PREFIX = REQUEST + " ";

    private ProcStatReport() {
    }

    /** One reading of a process elsewhere: its pid there, its counters, and its I/O. */
    public record Reading(long pid, ProcStat.Snapshot snapshot, ProcStat.Io io) {
    }

    /** The line for process {@code pid} of this machine, read now. */
    public static String of(long pid) {
        ProcStat.Snapshot s = ProcStat.of(pid);
        ProcStat.Io io = ProcStat.io(pid);
        StringBuilder sb = new StringBuilder(PREFIX).append("pid=").append(pid).append(" cpuNanos=")
                .append(s.cpuNanos()).append(" read=").append(io.bytesRead()).append(" written=")
                .append(io.bytesWritten()).append(" threads=");
        String sep = "";
        for (Map.Entry<Long, long[]> t : s.switchesByThread().entrySet()) {
            sb.append(sep).append(t.getKey()).append(':').append(t.getValue()[0]).append(':').append(t.getValue()[1]);
            sep = ",";
        }
        return sb.toString();
    }

    public static boolean isReport(String line) {
        return line.startsWith(PREFIX);
    }

    /** Parses a line of {@link #of}; the snapshot's time is this JVM's clock now. */
    public static Reading parse(String line) {
        if (!isReport(line)) {
            throw new IllegalArgumentException("not a " + REQUEST + " line: " + line);
        }
        Map<String, String> fields = new HashMap<>();
        for (String f : line.substring(PREFIX.length()).trim().split(" ")) {
            int eq = f.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("bad field '" + f + "' in: " + line);
            }
            fields.put(f.substring(0, eq), f.substring(eq + 1));
        }
        try {
            Map<Long, long[]> threads = new HashMap<>();
            String list = fields.getOrDefault("threads", "");
            for (String t : list.isEmpty() ? new String[0] : list.split(",")) {
                String[] p = t.split(":");
                threads.put(Long.parseLong(p[0]), new long[] {Long.parseLong(p[1]), Long.parseLong(p[2])});
            }
            return new Reading(Long.parseLong(fields.get("pid")),
                    new ProcStat.Snapshot(Long.parseLong(fields.get("cpuNanos")), threads, System.nanoTime()),
                    new ProcStat.Io(Long.parseLong(fields.get("read")), Long.parseLong(fields.get("written"))));
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("malformed " + REQUEST + " line: " + line, e);
        }
    }
}
