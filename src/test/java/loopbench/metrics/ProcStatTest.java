package loopbench.metrics;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProcStatTest {

    @Test
    void readsThisJvmsCpu() {
        ProcStat.Snapshot before = ProcStat.self();
        long x = 0;
        for (int i = 0; i < 50_000_000; i++) {
            x += i ^ (x >>> 3);
        }
        ProcStat.Snapshot d = ProcStat.self().minus(before);
        assertTrue(d.cpuNanos() > 0, "CPU time went up: " + d + " " + x);
        assertTrue(d.nanoTime() > 0);
    }

    /**
     * A thread that blocks N times is switched out voluntarily at least N times, and the snapshot counts it against
     * that thread: this parsing decides C000-5 (context switches per request) and feeds the gate.
     */
    @Test
    void aThreadThatBlocksNTimesShowsAtLeastNVoluntarySwitches() throws Exception {
        int blocks = 20;
        long[] tidAndSwitches = new long[3];
        Thread sleeper = new Thread(() -> {
            long tid = ProcStat.currentTid();
            long before = ProcStat.self().switchesByThread().get(tid)[0];
            for (int i = 0; i < blocks; i++) {
                try {
                    Thread.sleep(2); // the thread leaves the CPU until its timer fires: a voluntary switch
                } catch (InterruptedException e) {
                    return;
                }
            }
            long after = ProcStat.self().switchesByThread().get(tid)[0];
            tidAndSwitches[0] = tid;
            tidAndSwitches[1] = before;
            tidAndSwitches[2] = after;
        }, "procstat-sleeper");
        sleeper.start();
        sleeper.join();
        assertTrue(tidAndSwitches[0] > 0, "the sleeper read its own switches");
        long own = tidAndSwitches[2] - tidAndSwitches[1];
        // At least one per block; not the whole process's count (which the other threads' switches would swell).
        assertTrue(own >= blocks && own < 50L * blocks, "voluntary switches of the thread: " + own);
    }

    @Test
    void threadsThatExitOrAreBornNeverMakeTheCountNegative() {
        ProcStat.Snapshot before = new ProcStat.Snapshot(100,
                Map.of(1L, new long[] {50, 5}, 2L, new long[] {1000, 0}), 0);
        ProcStat.Snapshot after = new ProcStat.Snapshot(300, Map.of(1L, new long[] {60, 7}, 3L, new long[] {4, 1}), 10);
        ProcStat.Snapshot d = after.minus(before);
        assertEquals(200, d.cpuNanos());
        assertEquals(10 + 4, d.voluntarySwitches(), "thread 1 did 10, thread 3 (new) 4; thread 2 exited");
        assertEquals(2 + 1, d.involuntarySwitches());
    }

    /**
     * The JIT's time is read from this JVM's compiler threads: a method called hot enough gets compiled, and the
     * compiler threads' time grows while the rest of the process's does too (the share a fork still warming up pays).
     */
    @Test
    void theCompilerThreadsOfThisJvmAreFoundAndTheirTimeCounted() {
        ProcStat.Snapshot before = ProcStat.self();
        assertFalse(before.compilerNanosByThread().isEmpty(), "HotSpot's C1/C2 compiler threads are listed");
        long x = 0;
        for (int round = 0; round < 200; round++) {
            x += freshlyCompiled(round); // a new lambda shape per round keeps the compilers busy
        }
        ProcStat.Snapshot d = ProcStat.self().minus(before);
        assertTrue(d.compilerNanos() >= 0 && d.compilerNanos() <= d.cpuNanos() + 20_000_000L,
                "the compilers' time is part of the process's: " + d.compilerNanos() + " of " + d.cpuNanos() + " " + x);
        assertEquals(-1, new ProcStat.Snapshot(1, Map.of(), 0).compilerNanos(), "not read: -1, not 0");
    }

    private static long freshlyCompiled(int seed) {
        java.util.function.LongUnaryOperator f = v -> v * 31 + seed;
        long acc = seed;
        for (int i = 0; i < 20_000; i++) {
            acc = f.applyAsLong(acc) ^ (acc >>> 7);
        }
        return acc;
    }

    @Test
    void compilerThreadsThatExitOrAreBornNeverMakeTheirTimeNegative() {
        ProcStat.Snapshot before = new ProcStat.Snapshot(100, Map.of(), Map.of(1L, 500L, 2L, 9000L), 0);
        ProcStat.Snapshot after = new ProcStat.Snapshot(300, Map.of(), Map.of(1L, 700L, 3L, 40L), 10);
        assertEquals(200 + 40, after.minus(before).compilerNanos(), "thread 1 ran 200, thread 3 (new) 40; 2 exited");
        assertEquals(-1, after.minus(new ProcStat.Snapshot(100, Map.of(), 0)).compilerNanos(),
                "one side unread: unknown");
    }

    @Test
    void threadsExitingWhileTheSnapshotIsTakenAreSkipped() throws Exception {
        // A thread can exit between the listing of /proc/self/task and the read of its status (ESRCH): a snapshot
        // taken meanwhile must skip it, not fail (it failed a load generator's result once). Bounded: 2 s.
        AtomicBoolean stop = new AtomicBoolean();
        Thread churn = new Thread(() -> {
            while (!stop.get()) {
                Thread t = new Thread(() -> { });
                t.start();
                try {
                    t.join();
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "procstat-churn");
        churn.start();
        try {
            long end = System.nanoTime() + 2_000_000_000L;
            int snapshots = 0;
            while (System.nanoTime() < end) {
                assertTrue(ProcStat.self().contextSwitches() >= 0);
                snapshots++;
            }
            assertTrue(snapshots > 0);
        } finally {
            stop.set(true);
            churn.join(10_000);
        }
        assertFalse(churn.isAlive(), "the churn thread stopped");
    }

    @Test
    void readsAnotherProcessByPid() {
        ProcStat.Snapshot me = ProcStat.of(ProcessHandle.current().pid());
        assertTrue(me.cpuNanos() > 0 && !me.switchesByThread().isEmpty(), me::toString);
    }

    @Test
    void machineIdleShareComesFromTheCpuLine() {
        ProcStat.MachineCpu a = ProcStat.parseMachine("cpu  100 0 50 800 50 0 0 0 0 0");
        ProcStat.MachineCpu b = ProcStat.parseMachine("cpu  400 0 150 1200 50 0 0 0 0 0");
        assertEquals(850, a.idleTicks(), "idle + iowait");
        assertEquals(1000, a.totalTicks());
        assertEquals(400.0 / 800, b.minus(a).idleShare(), 1e-9);
        ProcStat.MachineCpu now = ProcStat.machine();
        assertTrue(now.totalTicks() > 0 && now.idleTicks() <= now.totalTicks(), now::toString);
    }

    @Test
    void aThreadsSchedulerAccountGrowsWhenItRuns() {
        long tid = ProcStat.currentTid();
        assertTrue(tid > 0, "the kernel thread id of this thread");
        ProcStat.SchedStat before = ProcStat.schedStat(tid);
        long x = 0;
        for (int i = 0; i < 20_000_000; i++) {
            x += i ^ (x >>> 3);
        }
        ProcStat.SchedStat after = ProcStat.schedStat(tid);
        assertTrue(after.runNanos() > before.runNanos(), "ran " + before + " -> " + after + " " + x);
        assertTrue(after.waitNanos() >= before.waitNanos());
    }
}
