package loopbench.metrics;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** TreeCost's arithmetic on fixed readings; CostCommandTest measures a real process tree with it. */
class TreeCostTest {

    private static TreeCost.Reading reading(long pid, long user, long system, long[] switches, long nanoTime,
                                            long idleTicks, long totalTicks, long selfCpu) {
        return new TreeCost.Reading(pid, new ProcStat.CpuSplit(user, system),
                new ProcStat.Snapshot(user + system, Map.of(1L, switches), nanoTime),
                new ProcStat.MachineCpu(idleTicks, totalTicks), selfCpu);
    }

    @Test
    void theDifferenceOfTwoReadingsWithTheReaderLeftOutOfTheMachine() {
        TreeCost.Reading before = reading(7, 100, 50, new long[] {10, 1}, 1_000, 800, 1_000, 5_000_000);
        TreeCost.Reading after = reading(7, 400, 150, new long[] {15, 3}, 3_000, 850, 1_100, 25_000_000);
        TreeCost c = TreeCost.between(before, after);
        assertEquals(300, c.userNanos());
        assertEquals(100, c.systemNanos());
        assertEquals(400, c.cpuNanos());
        assertEquals(5 + 2, c.contextSwitches());
        assertEquals(2_000, c.wallNanos());
        // 50 busy ticks of 10 ms, less the 20 ms the reading JVM itself used
        assertEquals(500_000_000 - 20_000_000, c.machineBusyNanos());
    }

    @Test
    void aReaderBusierThanTheMachineMakesItZeroNotNegative() {
        TreeCost.Reading before = reading(7, 0, 0, new long[] {0, 0}, 0, 0, 100, 0);
        TreeCost.Reading after = reading(7, 0, 0, new long[] {0, 0}, 1, 0, 101, 50_000_000);
        assertEquals(0, TreeCost.between(before, after).machineBusyNanos());
    }

    @Test
    void readingsOfTwoTreesDoNotSubtract() {
        TreeCost.Reading a = reading(7, 0, 0, new long[] {0, 0}, 0, 0, 0, 0);
        TreeCost.Reading b = reading(8, 0, 0, new long[] {0, 0}, 0, 0, 0, 0);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TreeCost.between(a, b)).getMessage()
                .contains("7 and 8"));
    }
}
