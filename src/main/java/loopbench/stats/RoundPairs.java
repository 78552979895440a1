package loopbench.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Two configurations' per-fork values matched by the round they ran in (randomized, interleaved rounds: drift of
 * the machine between rounds hits both sides of a pair alike). A round present on one side only (a fork that failed,
 * a configuration that joined late) has no partner and is dropped; how many were is kept for the report.
 *
 * @param baseline          the baseline's value of each matched round, in round order
 * @param candidate         the candidate's value of the same rounds
 * @param rounds            the matched round numbers, ascending
 * @param baselineOnly      rounds the baseline has and the candidate lacks
 * @param candidateOnly     rounds the candidate has and the baseline lacks
 */
public record RoundPairs(double[] baseline, double[] candidate, int[] rounds, int baselineOnly, int candidateOnly) {

    /** Matches {@code candidate[i]} (from round {@code candidateRounds[i]}) with the baseline of the same round. */
    public static RoundPairs match(int[] baselineRounds, double[] baseline, int[] candidateRounds, double[] candidate) {
        Map<Integer, Double> base = byRound(baselineRounds, baseline, "baseline");
        Map<Integer, Double> cand = byRound(candidateRounds, candidate, "candidate");
        List<Integer> common = new ArrayList<>();
        for (int r : base.keySet()) {
            if (cand.containsKey(r)) {
                common.add(r);
            }
        }
        common.sort(Integer::compare);
        double[] b = new double[common.size()];
        double[] c = new double[common.size()];
        int[] rounds = new int[common.size()];
        for (int i = 0; i < common.size(); i++) {
            rounds[i] = common.get(i);
            b[i] = base.get(rounds[i]);
            c[i] = cand.get(rounds[i]);
        }
        return new RoundPairs(b, c, rounds, base.size() - common.size(), cand.size() - common.size());
    }

    private static Map<Integer, Double> byRound(int[] rounds, double[] values, String what) {
        if (rounds.length != values.length) {
            throw new IllegalArgumentException(what + " has " + values.length + " values for " + rounds.length
                    + " round numbers");
        }
        Map<Integer, Double> m = new HashMap<>();
        for (int i = 0; i < rounds.length; i++) {
            if (m.put(rounds[i], values[i]) != null) {
                throw new IllegalArgumentException(what + " ran round " + rounds[i] + " twice: "
                        + Arrays.toString(rounds));
            }
        }
        return m;
    }

    public int size() {
        return rounds.length;
    }

    /** Rounds that ran on one side only, dropped. */
    public int dropped() {
        return baselineOnly + candidateOnly;
    }

    /** candidate / baseline with the paired t on the per-round log ratios. */
    public LogRatio ratio() {
        return LogRatio.paired(baseline, candidate);
    }
}
