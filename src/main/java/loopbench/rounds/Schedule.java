package loopbench.rounds;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The order of every fork of a run, drawn from one seed before anything runs: in each round, the groups that run in
 * it (group g runs in rounds 1 to its own rounds) in a random order, each group's arms back to back in their
 * {@link BalancedOrder}. The draws: first each group's balanced orders, in group order, then each round's group
 * order; for groups of two arms that is the gate's schedule as it was measured.
 *
 * @param seed   the seed it was drawn from (to replay it)
 * @param rounds per round (index 0 = round 1), its forks in run order
 */
public record Schedule(long seed, List<Round> rounds) {
    public Schedule {
        rounds = List.copyOf(rounds);
    }

    /** One fork's place: its round, its group (index into the run's groups) and its arm (index into the group's). */
    public record Slot(int round, int group, int arm) {
    }

    /**
     * One round.
     *
     * @param number     1-based
     * @param groupOrder the groups in the order they run
     * @param slots      the forks in run order
     */
    public record Round(int number, List<Integer> groupOrder, List<Slot> slots) {
        public Round {
            groupOrder = List.copyOf(groupOrder);
            slots = List.copyOf(slots);
        }
    }

    public static Schedule of(List<Group> groups, long seed) {
        Random random = new Random(seed);
        List<List<List<Integer>>> armOrders = new ArrayList<>();
        int maxRounds = 0;
        for (Group g : groups) {
            armOrders.add(BalancedOrder.of(g.arms().size(), g.rounds(), random));
            maxRounds = Math.max(maxRounds, g.rounds());
        }
        List<Round> rounds = new ArrayList<>();
        for (int round = 1; round <= maxRounds; round++) {
            List<Integer> order = new ArrayList<>();
            for (int g = 0; g < groups.size(); g++) {
                if (groups.get(g).rounds() >= round) {
                    order.add(g);
                }
            }
            Collections.shuffle(order, random);
            List<Slot> slots = new ArrayList<>();
            for (int g : order) {
                for (int arm : armOrders.get(g).get(round - 1)) {
                    slots.add(new Slot(round, g, arm));
                }
            }
            rounds.add(new Round(round, order, slots));
        }
        return new Schedule(seed, rounds);
    }

    /** Every fork, in run order. */
    public List<Slot> slots() {
        return rounds.stream().flatMap(r -> r.slots().stream()).toList();
    }

    /** The schedule as text, for a dry run: the groups with their arms' JMH arguments, then round by round. */
    public String describe(List<Group> groups) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%d group(s), %d round(s), %d fork(s), seed %d%n", groups.size(),
                rounds.size(), slots().size(), seed));
        for (Group g : groups) {
            sb.append(String.format(Locale.ROOT, "group %s (profile line %d, %d rounds): %s%n", g.label(),
                    g.line().number(), g.rounds(), g.line().text()));
            for (Arm a : g.arms()) {
                String name = a.id().equals(a.label()) ? a.id()
                        : String.format(Locale.ROOT, "%-4s %s", a.id(), a.label());
                sb.append("  arm ").append(name).append(": ").append(String.join(" ", a.jmhArgs())).append('\n');
            }
        }
        for (Round r : rounds) {
            sb.append("round ").append(r.number()).append(':');
            int at = 0;
            for (int g : r.groupOrder()) {
                List<String> arms = new ArrayList<>();
                for (; at < r.slots().size() && r.slots().get(at).group() == g; at++) {
                    arms.add(groups.get(g).arms().get(r.slots().get(at).arm()).id());
                }
                sb.append(' ').append(groups.get(g).label()).append(' ').append(arms);
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
