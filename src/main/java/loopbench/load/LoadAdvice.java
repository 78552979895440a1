package loopbench.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The notes beside a {@link LoadResult} that say what its figures measure: a saturated generator (the figure is the
 * generator's pace, not the target's), a machine with no idle CPU (the pace of the whole box), an open loop that did
 * not keep its rate, a closed loop's latency (not corrected for coordinated omission). In the summary and the JSON.
 */
public final class LoadAdvice {
    /** Below this idle share of the machine, every process on it competed for the CPUs. */
    public static final double BUSY_MACHINE_IDLE_SHARE = 0.05;
    /** An open loop that achieved less than this share of its rate did not keep its schedule. */
    public static final double RATE_SHORTFALL = 0.95;

    private LoadAdvice() {
    }

    public static List<String> notes(LoadResult r) {
        LoadSpec spec = r.spec();
        List<String> notes = new ArrayList<>();
        double maxBusy = r.maxLoopBusy();
        if (r.saturated()) {
            notes.add(String.format(Locale.ROOT, "SATURATED: an event loop of the generator ran or waited for a CPU "
                    + "%.0f%% of the time (>= %.0f%%): the figure measures the generator, not the target; give it more "
                    + "--io-threads or fewer connections, or move it to other cores", 100 * maxBusy,
                    100 * LoadResult.SATURATED_BUSY_SHARE));
        } else if (Double.isNaN(maxBusy)) {
            notes.add("the kernel gives no schedstat for the generator's threads: saturation unknown");
        }
        if (r.machineIdle() < BUSY_MACHINE_IDLE_SHARE) {
            notes.add(String.format(Locale.ROOT, "the machine was %.0f%% idle: the generator and the target competed "
                    + "for the same CPUs, so req/s is the pace of the whole box; compare CPU time per request instead",
                    100 * r.machineIdle()));
        }
        if (spec.openLoop() && r.durationSeconds() > 0) {
            double achieved = r.requests() / r.durationSeconds();
            if (achieved < RATE_SHORTFALL * spec.rate()) {
                notes.add(String.format(Locale.ROOT, "open loop: %.0f req/s achieved of %.0f asked; the requests "
                        + "that could not be sent on time were sent late, and their wait is in the corrected latency",
                        achieved, spec.rate()));
            }
        }
        if (!spec.openLoop()) {
            notes.add("closed loop: latency is measured from the " + (spec.connectionClose()
                    ? "connect (a new connection per request)" : "send") + ", so corrected = uncorrected "
                    + "(coordinated omission is not corrected; use --rate for that)");
        }
        return List.copyOf(notes);
    }
}
