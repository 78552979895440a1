package loopbench.topology;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Processes really run where they are put: read back from /proc/PID/task/TID/status, thread by thread. */
class AffinityTest {
    private CpuSet available;

    @BeforeEach
    void twoCpus() {
        available = Affinity.available();
        assumeTrue(available.size() >= 2, "needs 2 CPUs to tell them apart; this process may use " + available);
    }

    @Test
    void aCommandStartedOnAHostRunsOnItsCpusUnderItsOwnPid() throws Exception {
        CpuSet last = available.highest(1);
        Process p = new ProcessBuilder(new Host(null, last).launch(List.of("sleep", "30"))).start();
        try {
            waitForExec(p, "sleep");
            assertEquals(last, Affinity.of(p.pid()));
            assertEquals(Map.of(p.pid(), last), Affinity.byThread(p.pid()));
        } finally {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void pinningThisProcessMovesEveryThreadAndPinningBackRestoresThem() throws Exception {
        CpuSet first = available.lowest(1);
        long self = ProcessHandle.current().pid();
        try {
            Affinity.pin(self, first);
            Map<Long, CpuSet> threads = Affinity.byThread(self);
            assertTrue(threads.size() > 5, "a JVM has many threads: " + threads);
            assertTrue(threads.values().stream().allMatch(first::equals), threads::toString);
            CpuSet[] inherited = new CpuSet[1];
            Thread t = new Thread(() -> inherited[0] = Affinity.byThread(self).get(currentTid()));
            t.start();
            t.join();
            assertEquals(first, inherited[0], "a thread started later inherits the affinity");
        } finally {
            Affinity.pin(self, available);
        }
        assertTrue(Affinity.byThread(self).values().stream().allMatch(available::equals));
    }

    @Test
    void pinningSurvivesThreadsThatEndWhileTasksetWalksThem() throws Exception {
        long self = ProcessHandle.current().pid();
        java.util.concurrent.atomic.AtomicBoolean churn = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread churner = new Thread(() -> {
            while (churn.get()) {
                Thread shortLived = new Thread(() -> { });
                shortLived.start();
                try {
                    shortLived.join();
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        churner.start();
        try {
            // Threads are born and end thousands of times a second: a walk of /proc/PID/task meets vanished ones.
            for (int i = 0; i < 40; i++) {
                Affinity.pin(self, i % 2 == 0 ? available.lowest(1) : available);
            }
        } finally {
            churn.set(false);
            churner.join();
            Affinity.pin(self, available);
        }
        assertTrue(Affinity.byThread(self).values().stream().allMatch(available::equals));
    }

    private static long currentTid() {
        return loopbench.metrics.ProcStat.currentTid();
    }

    /** Waits until {@code p} runs {@code command} (taskset has exec'd it). */
    static void waitForExec(Process p, String command) throws InterruptedException {
        for (int i = 0; i < 500; i++) {
            if (p.info().command().map(c -> c.endsWith("/" + command)).orElse(false)) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("pid " + p.pid() + " never ran " + command + ": " + p.info());
    }
}
