package loopbench.claims;

import java.util.List;

/**
 * A group of {@code profiles/claims.jmh}: the line tagged {@code [label=LABEL]}, whose arms (the combinations of its
 * {@code -p} values) the rounds engine runs one fork each per round, in {@code [rounds=N]} rounds. The catalogue
 * refers to profile lines only by these labels; a test checks that each label is in the profile with these rounds,
 * this jar tag, and every parameter the selections on it pin.
 *
 * @param label   the line's label
 * @param rounds  the rounds claims.jmh assigns to it (a verdict on fewer is provisional)
 * @param jar     the benchmarks jar the line runs from: null for this build, else the {@code [jar=...]} tag
 * @param earlier the rounds the line had before each time it was resized, oldest first, for runs made before; empty
 *                if never resized
 */
public record Group(String label, int rounds, String jar, List<Earlier> earlier) {
    /** The tag of lines that run from a benchmarks jar built against Netty 4.1. */
    public static final String NETTY_41 = "netty-4.1";
    /** How to build that jar (the suite's build against the other Netty line). */
    public static final String NETTY_41_BUILD = "./mvnw -Pjmh package -Dnetty.version=4.1.136.Final";

    public Group {
        earlier = List.copyOf(earlier);
        if (!label.matches("[a-z0-9-]+")) {
            throw new IllegalArgumentException("a group label is [a-z0-9-]+, was '" + label + "'");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException(label + ": rounds must be positive, was " + rounds);
        }
    }

    /**
     * The rounds a line had in claims.jmh for the runs whose id (the rounds engine's, a UTC time first:
     * {@code 20261126T100106Z-b9cb}) sorts before {@code resizedAt}: a run is judged against the profile it ran.
     */
    public record Earlier(int rounds, String resizedAt) {
        public Earlier {
            if (rounds < 1) {
                throw new IllegalArgumentException("earlier rounds must be positive, was " + rounds);
            }
            if (!resizedAt.matches("\\d{8}T\\d{6}Z")) {
                throw new IllegalArgumentException("a resize time is a run id's time, yyyyMMdd'T'HHmmss'Z' (e.g. "
                        + "20261126T115000Z), was '" + resizedAt + "'");
            }
        }
    }

    public static Group of(String label, int rounds) {
        return new Group(label, rounds, null, List.of());
    }

    static Group netty41(String label, int rounds) {
        return new Group(label, rounds, NETTY_41, List.of());
    }

    /**
     * This group, resized at {@code resizedAt} (a run id's time, e.g. 20261126T120000Z) from {@code rounds}; a
     * later resize follows an earlier one.
     */
    Group resizedFrom(int rounds, String resizedAt) {
        if (!earlier.isEmpty() && resizedAt.compareTo(earlier.get(earlier.size() - 1).resizedAt()) <= 0) {
            throw new IllegalArgumentException(label + ": resizes go oldest first, " + resizedAt + " is not after "
                    + earlier.get(earlier.size() - 1).resizedAt());
        }
        List<Earlier> all = new java.util.ArrayList<>(earlier);
        all.add(new Earlier(rounds, resizedAt));
        return new Group(label, this.rounds, jar, all);
    }

    /** The rounds the line had when its first resize came (its rounds if never resized). */
    public int firstRounds() {
        return earlier.isEmpty() ? rounds : earlier.get(0).rounds();
    }

    /** The rounds claims.jmh asked of this group in the run {@code run} (null: not a rounds run, today's). */
    public int roundsAsked(String run) {
        if (run != null) {
            for (Earlier e : earlier) {
                if (run.compareTo(e.resizedAt()) < 0) {
                    return e.rounds();
                }
            }
        }
        return rounds;
    }

    /** "`proxy-64`" as CLAIMS.md and the report name it. */
    public String cite() {
        return "`" + label + "`";
    }

    /** Where a missing result of this group comes from, for the report. */
    public String producedBy() {
        String s = "the line labelled " + cite() + " of profiles/claims.jmh";
        return jar == null ? s : s + " (tagged [jar=" + jar + "]: it runs from a benchmarks jar built against "
                + "Netty 4.1, `" + NETTY_41_BUILD + "`)";
    }
}
