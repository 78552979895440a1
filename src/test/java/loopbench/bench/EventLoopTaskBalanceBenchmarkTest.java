package loopbench.bench;

import loopbench.line.NettyLine;
import loopbench.report.EndToEndMetrics;
import loopbench.testing.Rig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.options.TimeValue;

import java.util.Map;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * EventLoopTaskBalanceBenchmark does what its name says: one server loop echoes the generator's messages, each echo a
 * task it queues on itself, while another thread hands it bursts of tasks at the rate asked; both kinds of task run on
 * the loop's own thread; the iteration reports the messages' latency mean, p50, p99 and max and the burst tasks'
 * latency. ioRatio reaches the loop on Netty 4.1 (read back) and is refused on 4.2, naming the line; {@code default}
 * runs on both.
 */
class EventLoopTaskBalanceBenchmarkTest {
    private static final IterationParams MEASUREMENT = new IterationParams(IterationType.MEASUREMENT, 1,
            TimeValue.seconds(1), 1);

    @AfterEach
    void noThreadLeft() {
        Rig.assertNoThreads("taskloop");
    }

    private static EventLoopTaskBalanceBenchmark small(String ioRatio) {
        EventLoopTaskBalanceBenchmark b = new EventLoopTaskBalanceBenchmark();
        b.ioRatio = ioRatio;
        b.connections = 4;
        b.rate = 400;
        b.burstsPerSecond = 20;
        b.burstTasks = 10;
        b.taskWorkMicros = 5;
        b.requestWorkMicros = 5;
        b.clientTransport = "nio";
        return b;
    }

    @Test
    void theLoopEchoesByTaskWhileBurstsFromAnotherThreadRunOnIt() throws Exception {
        boolean hasRatio = NettyLine.current().ioRatioRefusal() == null;
        EventLoopTaskBalanceBenchmark b = small(hasRatio ? "50" : "default");
        Map<String, Double> m;
        long echoed;
        long start = System.nanoTime();
        b.setUp(EndToEndTrial.begin(EventLoopTaskBalanceBenchmark.class.getName() + ".messages", Map.of()));
        try {
            OptionalInt ratio = NettyLine.current().ioRatio(b.serverLoop());
            assertEquals(hasRatio ? OptionalInt.of(50) : OptionalInt.empty(), ratio, "ioRatio read back");
            b.iterationStarted(MEASUREMENT);
            for (int i = 0; i < 400; i++) {
                b.messages();
            }
            b.iterationEnded();
            m = b.trial.lastIterationMetrics();
        } finally {
            b.tearDown();
            echoed = b.trial.generator().successes();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        assertTrue(echoed >= 400, "400 messages taken, " + echoed + " echoed");
        assertTrue(b.echoTasks.get() >= echoed, "every echo went through a task on the loop: " + b.echoTasks);
        long bursts = b.burstTasksRun.get() / b.burstTasks;
        assertTrue(bursts >= 5 && bursts <= seconds * b.burstsPerSecond + 2, bursts + " bursts in " + seconds + " s");
        assertTrue(b.burstThread != null && b.burstThread != b.loopThread, "bursts come from another thread");
        assertTrue(b.loopThread.getName().startsWith("loopbench-taskloop-io"), b.loopThread.getName());
        assertEquals(0.0, m.get(EndToEndMetrics.ERRORS));
        for (String k : new String[] {EndToEndMetrics.LATENCY_MEAN, EndToEndMetrics.LATENCY_P50,
                EndToEndMetrics.LATENCY_P99, EndToEndMetrics.LATENCY_MAX, EndToEndMetrics.TASK_LATENCY_MEAN,
                EndToEndMetrics.TASK_LATENCY_P50, EndToEndMetrics.TASK_LATENCY_P99, EndToEndMetrics.TASK_LATENCY_MAX}) {
            assertTrue(m.get(k) > 0, k + ": " + m);
        }
        assertTrue(m.get(EndToEndMetrics.LATENCY_MAX) >= m.get(EndToEndMetrics.LATENCY_P99)
                && m.get(EndToEndMetrics.LATENCY_P99) >= m.get(EndToEndMetrics.LATENCY_P50), m::toString);
        // A burst's last task waits for the ones before it: at least (burstTasks - 1) x taskWorkMicros.
        assertTrue(m.get(EndToEndMetrics.TASK_LATENCY_MAX) >= (b.burstTasks - 1) * b.taskWorkMicros, m::toString);
    }

    @Test
    void ioRatioIsRefusedOnALineWithoutOneAndOutsideOneToHundred() {
        String refusal = NettyLine.current().ioRatioRefusal();
        if (refusal != null) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> EventLoopTaskBalanceBenchmark.parseIoRatio("50"));
            assertTrue(e.getMessage().contains("ioRatio=50 is not valid on Netty " + NettyLine.current().version()
                    + " (line 4.2); valid: default") && e.getMessage().contains("has no ioRatio"), e.getMessage());
        } else {
            assertEquals(100, EventLoopTaskBalanceBenchmark.parseIoRatio("100"));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EventLoopTaskBalanceBenchmark.parseIoRatio("0"));
        assertTrue(e.getMessage().contains("valid: default"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> EventLoopTaskBalanceBenchmark.parseIoRatio("half"));
        assertEquals(null, EventLoopTaskBalanceBenchmark.parseIoRatio("default"));
    }
}
