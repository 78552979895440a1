package loopbench.rounds;

import com.google.gson.JsonObject;

import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Which run, and in the rounds engine which group, arm and round, a benchmark fork belongs to. A fork learns it from
 * system properties ({@link #properties()}, read back with {@link #current()}), and what it writes beside JMH's
 * results (the end-to-end side files) carries it ({@link #addTo}), so that a reader takes only the files of the run
 * it reads, and pairs them by round.
 *
 * @param run   the run's id ({@link #newRunId()}), or null outside a run
 * @param group the group's label (rounds engine only), or null
 * @param arm   the arm's label (rounds engine only), or null
 * @param round the round (rounds engine only, 1-based), or 0
 */
public record ForkIdentity(String run, String group, String arm, int round) {
    public static final String RUN_PROPERTY = "loopbench.run";
    public static final String GROUP_PROPERTY = "loopbench.group";
    public static final String ARM_PROPERTY = "loopbench.arm";
    public static final String ROUND_PROPERTY = "loopbench.round";
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'", Locale.ROOT);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** A fork of a plain run (no rounds). */
    public static ForkIdentity of(String run) {
        return new ForkIdentity(run, null, null, 0);
    }

    /** A new run id: the UTC time and 4 random hex digits, e.g. {@code 20261125T135012Z-3f9a}. */
    public static String newRunId() {
        return ZonedDateTime.now(ZoneOffset.UTC).format(STAMP)
                + String.format(Locale.ROOT, "-%04x", RANDOM.nextInt(1 << 16));
    }

    /** This JVM's identity, from the system properties (all null outside a run). */
    public static ForkIdentity current() {
        String round = System.getProperty(ROUND_PROPERTY);
        return new ForkIdentity(System.getProperty(RUN_PROPERTY), System.getProperty(GROUP_PROPERTY),
                System.getProperty(ARM_PROPERTY), round == null ? 0 : Integer.parseInt(round));
    }

    /** The {@code -D} arguments that give a fork this identity. */
    public List<String> properties() {
        List<String> p = new ArrayList<>();
        if (run != null) {
            p.add("-D" + RUN_PROPERTY + "=" + run);
        }
        if (group != null) {
            p.add("-D" + GROUP_PROPERTY + "=" + group);
        }
        if (arm != null) {
            p.add("-D" + ARM_PROPERTY + "=" + arm);
        }
        if (round > 0) {
            p.add("-D" + ROUND_PROPERTY + "=" + round);
        }
        return p;
    }

    /** Adds "run" (and "group", "arm", "round" when known) to a JSON object, e.g. a side file. */
    public void addTo(JsonObject o) {
        if (run != null) {
            o.addProperty("run", run);
        }
        if (group != null) {
            o.addProperty("group", group);
        }
        if (arm != null) {
            o.addProperty("arm", arm);
        }
        if (round > 0) {
            o.addProperty("round", round);
        }
    }
}
