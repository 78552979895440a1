package loopbench.flame;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a flame graph samples: {@code cpu} (on-CPU time), {@code alloc} (heap allocations), {@code lock} (contended
 * monitors and locks) or {@code wall} (all threads, running or not). {@code cpu} needs the kernel's perf events;
 * where they are not allowed (perf_event_paranoid, a container's seccomp profile), {@link #resolve} falls back to
 * {@code itimer} (setitimer's CPU-time signal, no perf events) and says so, instead of failing or letting the
 * profiler pick silently.
 */
public enum FlameEvent {
    CPU("cpu"), ALLOC("alloc"), LOCK("lock"), WALL("wall");

    /** The event that samples CPU time without perf events. */
    public static final String CPU_FALLBACK = "itimer";

    private final String cliName;

    FlameEvent(String cliName) {
        this.cliName = cliName;
    }

    public String cliName() {
        return cliName;
    }

    /** {@code cpu}, {@code alloc}, {@code lock} or {@code wall}; anything else names the valid values. */
    public static FlameEvent parse(String value) {
        for (FlameEvent e : values()) {
            if (e.cliName.equals(value.trim().toLowerCase(Locale.ROOT))) {
                return e;
            }
        }
        throw new IllegalArgumentException("no flame graph event '" + value + "'; valid: " + validValues());
    }

    public static String validValues() {
        return Arrays.stream(values()).map(FlameEvent::cliName).collect(Collectors.joining(", "));
    }

    /** Runs one async-profiler command (its Java API's {@code execute}). */
    @FunctionalInterface
    public interface Commands {
        String execute(String command) throws Exception;
    }

    /** The event async-profiler is given, and a note for the output when it is not the one asked for. */
    public record Resolved(String event, String note) {
    }

    /**
     * The event to sample with. For {@code cpu}, first asks whether perf events are allowed here, by starting and
     * stopping a perf-event profile ({@code cpu-clock}; async-profiler 4's own {@code cpu} would quietly use another
     * timer instead): if they are not, {@code itimer}, with a note saying why.
     */
    public Resolved resolve(Commands profiler) {
        if (this != CPU) {
            return new Resolved(cliName, null);
        }
        String refusal = perfRefusal(profiler);
        if (refusal == null) {
            return new Resolved(cliName, null);
        }
        return new Resolved(CPU_FALLBACK, "perf events are not allowed here (" + refusal + "): the cpu flame graph is "
                + "sampled with " + CPU_FALLBACK + " instead (CPU time, user-space stacks, no kernel frames)");
    }

    /** Why perf events cannot be used, or null if they can. */
    static String perfRefusal(Commands profiler) {
        try {
            profiler.execute("start,event=cpu-clock");
        } catch (Exception e) {
            String m = String.valueOf(e.getMessage());
            if (m.contains("Perf events") || m.contains("perf_event")) {
                int cut = m.indexOf(". Try");
                return cut > 0 ? m.substring(0, cut) : m;
            }
            return null; // some other trouble: the real start will report it
        }
        try {
            profiler.execute("stop");
        } catch (Exception e) {
            // it was running: nothing else to do
        }
        return null;
    }
}
