package loopbench.rounds;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The order of a group's arms in each round: every arm in every position equally often (over a multiple of k rounds
 * for k arms; otherwise as equally as the rounds allow), which round gets which order at random.
 *
 * <p>Being first, second, ... in a round may not be neutral. In the 64 pairs of 8 A/A gates of
 * {@code profiles/gate.jmh} (a coin per pair then), the end-to-end benchmark's second fork used 6.5% more proxy CPU
 * per request than the first (t = 1.67: a hint, not proof). With a coin per pair, a gate whose coins fell 5:3 would
 * carry a quarter of such an effect into its ratio; balanced, it cancels in the mean of the log ratios and is left as
 * variance, widening the interval instead of shifting it.
 *
 * <p>The orders are the rows of a Williams square: a Latin square (each arm once in each position) in which, for an
 * even k, each arm also follows every other arm exactly once (for an odd k, each position stays balanced, the
 * neighbours not quite). Over {@code rounds = q k + r}, each row serves q rounds and r rows chosen at random one more;
 * the rows are then shuffled over the rounds. For 2 arms this is the gate's rule as it was measured: arm 0 first in
 * half the rounds, the odd round's first arm by a coin, which half at random, with the same draws from the same
 * {@link Random}, so that a seed replays a gate's schedule.
 */
public final class BalancedOrder {
    private BalancedOrder() {
    }

    /** For each round (index 0 = round 1), the order of arms 0..k-1. */
    public static List<List<Integer>> of(int arms, int rounds, Random random) {
        if (arms < 1 || rounds < 1) {
            throw new IllegalArgumentException("needs >= 1 arm and >= 1 round, got " + arms + " and " + rounds);
        }
        List<List<Integer>> rows = williams(arms);
        List<Integer> rowOfRound = new ArrayList<>();
        for (int row = 0; row < arms; row++) {
            for (int q = 0; q < rounds / arms; q++) {
                rowOfRound.add(row);
            }
        }
        rowOfRound.addAll(extraRows(arms, rounds % arms, random));
        Collections.sort(rowOfRound);
        Collections.shuffle(rowOfRound, random);
        List<List<Integer>> orders = new ArrayList<>();
        for (int row : rowOfRound) {
            orders.add(rows.get(row));
        }
        return List.copyOf(orders);
    }

    /** {@code count} distinct rows at random, for the rounds left over after whole squares. */
    private static List<Integer> extraRows(int arms, int count, Random random) {
        if (count == 0) {
            return List.of();
        }
        if (arms == 2) {
            return List.of(random.nextBoolean() ? 0 : 1); // the gate's coin: arm 0 (the baseline) first on heads
        }
        List<Integer> rows = new ArrayList<>();
        for (int row = 0; row < arms; row++) {
            rows.add(row);
        }
        Collections.shuffle(rows, random);
        return rows.subList(0, count);
    }

    /**
     * Row j: j, j+1, j-1, j+2, j-2, ... (mod k). Each row is a permutation and each column too (a Latin square);
     * for an even k, every ordered pair of neighbours occurs once.
     */
    static List<List<Integer>> williams(int k) {
        List<List<Integer>> rows = new ArrayList<>();
        for (int j = 0; j < k; j++) {
            List<Integer> row = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                int step = (i + 1) / 2;
                int offset = i % 2 == 1 ? step : -step;
                row.add(Math.floorMod(j + offset, k));
            }
            rows.add(List.copyOf(row));
        }
        return List.copyOf(rows);
    }
}
