package loopbench.rounds;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Balanced arm orders and randomized group orders, from the seed alone. */
class ScheduleTest {

    @Test
    void overAMultipleOfKRoundsEachArmTakesEachPositionEquallyOften() {
        Random random = new Random(3);
        for (int k = 1; k <= 7; k++) {
            for (int m = 1; m <= 3; m++) {
                List<List<Integer>> orders = BalancedOrder.of(k, m * k, random);
                assertEquals(m * k, orders.size());
                int[][] count = new int[k][k];
                for (List<Integer> order : orders) {
                    assertEquals(k, new HashSet<>(order).size(), "each round runs every arm once: " + order);
                    for (int position = 0; position < k; position++) {
                        count[order.get(position)][position]++;
                    }
                }
                for (int arm = 0; arm < k; arm++) {
                    for (int position = 0; position < k; position++) {
                        assertEquals(m, count[arm][position], k + " arms, " + m * k + " rounds: arm " + arm
                                + " in position " + position);
                    }
                }
            }
        }
    }

    @Test
    void otherwiseAsEquallyAsTheRoundsAllow() {
        Random random = new Random(4);
        for (int k = 2; k <= 5; k++) {
            for (int rounds = 1; rounds <= 3 * k; rounds++) {
                int[][] count = new int[k][k];
                for (List<Integer> order : BalancedOrder.of(k, rounds, random)) {
                    for (int position = 0; position < k; position++) {
                        count[order.get(position)][position]++;
                    }
                }
                for (int[] arm : count) {
                    for (int c : arm) {
                        assertTrue(c == rounds / k || c == rounds / k + 1, k + " arms, " + rounds + " rounds: " + c);
                    }
                }
            }
        }
    }

    @Test
    void withAnEvenNumberOfArmsEachArmFollowsEveryOtherEquallyOften() {
        for (int k : new int[] {2, 4, 6}) {
            int[][] follows = new int[k][k];
            for (List<Integer> row : BalancedOrder.williams(k)) {
                for (int i = 1; i < k; i++) {
                    follows[row.get(i - 1)][row.get(i)]++;
                }
            }
            for (int a = 0; a < k; a++) {
                for (int b = 0; b < k; b++) {
                    assertEquals(a == b ? 0 : 1, follows[a][b], k + " arms: " + a + " then " + b);
                }
            }
        }
    }

    @Test
    void whichRoundGetsWhichOrderIsRandom() {
        Set<List<List<Integer>>> seen = new HashSet<>();
        for (long seed = 0; seed < 20; seed++) {
            seen.add(BalancedOrder.of(4, 8, new Random(seed)));
        }
        assertTrue(seen.size() > 15, seen.size() + " distinct schedules of 20");
    }

    @Test
    void groupsRunInARandomOrderEachRoundTheirArmsBackToBack() {
        List<Group> groups = new ArrayList<>();
        for (int g = 1; g <= 4; g++) {
            groups.add(RoundsEngineTest.group(g, "g" + g, 10, false, "B" + g + " -p x=1,2,3"));
        }
        groups.add(RoundsEngineTest.group(5, "short", 3, false, "S -p x=1,2"));
        Schedule s = Schedule.of(groups, 11);
        assertEquals(10, s.rounds().size());
        Set<List<Integer>> orders = new HashSet<>();
        for (Schedule.Round r : s.rounds()) {
            orders.add(r.groupOrder());
            assertEquals(r.number() <= 3 ? 5 : 4, r.groupOrder().size(), "a group runs in its own rounds only");
            int at = 0;
            for (int g : r.groupOrder()) {
                int arms = groups.get(g).arms().size();
                for (int i = 0; i < arms; i++, at++) {
                    assertEquals(g, r.slots().get(at).group(), "a group's arms run back to back");
                    assertEquals(r.number(), r.slots().get(at).round());
                }
            }
            assertEquals(r.slots().size(), at);
        }
        assertTrue(orders.size() >= 6, "group orders vary between rounds: " + orders);
        assertEquals(s.slots(), Schedule.of(groups, 11).slots(), "a seed replays the schedule");
        String text = s.describe(groups);
        assertTrue(text.startsWith("5 group(s), 10 round(s), 126 fork(s), seed 11"), text);
        assertTrue(text.contains("group short (profile line 5, 3 rounds): S -p x=1,2"), text);
        assertTrue(text.contains("  arm a02  x=2: S -p x=2"), text);
        assertTrue(text.lines().filter(l -> l.startsWith("round ")).count() == 10, text);
    }
}
