package loopbench.claims;

import java.util.Arrays;

/**
 * A statistic's value for each fork of a result, with the round each fork ran in when the rounds engine ran it
 * (null otherwise: forks of one JMH run, which pair with nothing).
 */
public record ForkValues(double[] values, int[] rounds) {

    public ForkValues {
        if (rounds != null && rounds.length != values.length) {
            throw new IllegalArgumentException(values.length + " values for " + rounds.length + " rounds");
        }
    }

    static ForkValues unpaired(double[] values) {
        return new ForkValues(values, null);
    }

    public boolean hasRounds() {
        return rounds != null;
    }

    public int size() {
        return values.length;
    }

    /** The same forks with each value transformed. */
    ForkValues map(java.util.function.DoubleUnaryOperator f) {
        return new ForkValues(Arrays.stream(values).map(f).toArray(), rounds);
    }

    boolean anyNaN() {
        return Arrays.stream(values).anyMatch(Double::isNaN);
    }
}
