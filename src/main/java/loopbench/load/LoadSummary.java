package loopbench.load;

import org.HdrHistogram.Histogram;

import java.util.Locale;

/** A {@link LoadResult} as a wrk2-like summary, units on every number: what {@code load} prints on stdout. */
public final class LoadSummary {
    private LoadSummary() {
    }

    public static String of(LoadResult r) {
        LoadSpec spec = r.spec();
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%s test of %s @ %s%n", spec.openLoop()
                        ? String.format(Locale.ROOT, "Open-loop (%,.0f req/s)", spec.rate()) : "Closed-loop",
                seconds(r.durationSeconds()), spec.target()));
        s.append(String.format(Locale.ROOT, "  %d %s, %d io thread%s (%s, %s/%s)%n", spec.connections(),
                spec.connectionClose() ? "clients, a new connection per request (Connection: close)"
                        : "connections, pipeline " + spec.pipeline(),
                spec.ioThreads(), spec.ioThreads() == 1 ? "" : "s",
                spec.transport().cliName(), spec.allocator().cliName(), spec.buffers().cliName()));
        s.append(String.format(Locale.ROOT, "  %-15s %10s %10s %10s %10s %10s%n", "Latency (µs)", "p50", "p90",
                "p99", "p99.9", "max"));
        s.append(latencyLine("corrected", r.corrected()));
        s.append(latencyLine("uncorrected", r.uncorrected()));
        s.append(String.format(Locale.ROOT, "  %,d requests in %s, %s read, %s written%n", r.requests(),
                seconds(r.durationSeconds()), bytes(r.bytesRead()), bytes(r.bytesWritten())));
        if (spec.connectionClose()) {
            s.append(String.format(Locale.ROOT, "  %,d connections opened%n", r.connectionsOpened()));
        }
        s.append(String.format(Locale.ROOT, "Requests/sec:   %,.1f%n", r.requestsPerSecond()));
        s.append(String.format(Locale.ROOT, "Transfer/sec:   %s read%n",
                bytes(r.durationSeconds() <= 0 ? 0 : (long) (r.bytesRead() / r.durationSeconds()))));
        s.append(errorsLine(r));
        if (!r.warmup().isZero()) {
            s.append(String.format(Locale.ROOT, "Warm-up:        %s, %,d requests sent and not recorded%s%n",
                    seconds(r.warmup().toNanos() / 1e9), r.warmupRequests(), r.warmupErrors() == 0 ? ""
                            : String.format(Locale.ROOT, ", %,d failed", r.warmupErrors())));
        }
        double busy = r.maxLoopBusy();
        s.append(String.format(Locale.ROOT, "Generator:      %s CPU-µs/request (user %s, sys %s), %s context "
                        + "switches/request; busiest event loop running or ready %s of the time: %s%n",
                number(r.cpuMicrosPerRequest(), 2), number(r.userMicrosPerRequest(), 2),
                number(r.systemMicrosPerRequest(), 2), number(r.contextSwitchesPerRequest(), 3), percent(busy),
                r.saturated() ? "SATURATED" : Double.isNaN(busy) ? "saturation unknown" : "not saturated"));
        s.append(String.format(Locale.ROOT, "Machine:        %s of the CPUs idle%n", percent(r.machineIdle())));
        for (String n : r.notes()) {
            s.append("Note: ").append(n).append('\n');
        }
        return s.toString();
    }

    private static String errorsLine(LoadResult r) {
        long total = r.errorsTotal();
        if (total == 0) {
            return "Errors:         none\n";
        }
        StringBuilder kinds = new StringBuilder();
        for (ErrorKind k : ErrorKind.values()) {
            long n = r.errors(k);
            if (n > 0) {
                kinds.append(kinds.length() == 0 ? "" : ", ").append(n).append(' ').append(k.key())
                        .append(" (").append(k.description()).append(')');
            }
        }
        return String.format(Locale.ROOT, "Errors:         %,d failed requests: %s%n", total, kinds);
    }

    private static String latencyLine(String name, Histogram h) {
        if (h.getTotalCount() == 0) {
            return String.format(Locale.ROOT, "    %-13s %10s%n", name, "(no requests)");
        }
        return String.format(Locale.ROOT, "    %-13s %10d %10d %10d %10d %10d%n", name, h.getValueAtPercentile(50),
                h.getValueAtPercentile(90), h.getValueAtPercentile(99), h.getValueAtPercentile(99.9),
                h.getMaxValue());
    }

    private static String seconds(double s) {
        return String.format(Locale.ROOT, "%.2f s", s);
    }

    private static String number(double v, int digits) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%." + digits + "f", v);
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "n/a" : String.format(Locale.ROOT, "%.0f%%", 100 * share);
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        if (n < 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f KiB", n / 1024.0);
        }
        if (n < 1024L * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f MiB", n / (1024.0 * 1024));
        }
        return String.format(Locale.ROOT, "%.2f GiB", n / (1024.0 * 1024 * 1024));
    }
}
