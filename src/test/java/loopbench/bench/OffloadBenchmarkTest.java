package loopbench.bench;

import io.netty.channel.Channel;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.EventExecutorGroup;
import loopbench.origin.WorkStrategy;
import org.openjdk.jmh.annotations.Param;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OffloadBenchmark's op gets every response back complete with every strategy, and each strategy's work
 * really runs where it claims: on the event loop, on the pipeline-bound executor, on the offload executor,
 * on virtual threads.
 *
 * <p>Where work ran is seen from the server's event loop: a probe on it records every foreign thread that
 * handed it a task (that is what wakes a loop up; {@link loopbench.line.NettyLine#newLocalEventLoopGroup}). With {@code
 * none} only the client's loop does (delivering requests); with an executor, the executor's threads do too (handing
 * back the response, or the write of it); and the pipeline shows which executor the origin handler is bound to.
 */
class OffloadBenchmarkTest {

    /** Remembers which other threads woke the server's loop. */
    static final class WakeProbe implements Consumer<Thread> {
        final Set<Thread> wakers = ConcurrentHashMap.newKeySet();

        @Override
        public void accept(Thread t) {
            wakers.add(t);
        }

        Set<String> wakerNames() {
            return wakers.stream().map(t -> isVirtual(t) ? "<virtual>" : t.getName()).collect(Collectors.toSet());
        }
    }

    static boolean isVirtual(Thread t) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(t);
        } catch (NoSuchMethodException e) {
            return false; // before JDK 21 there are none
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    private static OffloadBenchmark benchmark(String strategy, int connections, WakeProbe probe) throws Exception {
        OffloadBenchmark b = new OffloadBenchmark();
        b.strategy = strategy;
        b.connections = connections;
        b.bodySize = 1024;
        b.executorThreads = 4;
        b.serverLoopWakers = probe;
        b.setUp();
        return b;
    }

    /** Runs a few ops; every response came back complete. Returns the probe's wakers during the ops only. */
    private static Set<String> runOps(OffloadBenchmark b, WakeProbe probe) {
        probe.wakers.clear(); // setup (bind, connect) woke the loop from the test thread
        for (int i = 0; i < 3; i++) {
            assertEquals((long) OffloadBenchmark.MESSAGES * b.bodySize, b.requests(), "body bytes of one op");
            assertEquals(OffloadBenchmark.MESSAGES, b.responses.complete.get(), "complete responses of one op");
        }
        assertEquals(b.connections, b.accepted.size(), "one server channel per connection");
        return probe.wakerNames();
    }

    private static boolean allClientLoop(Set<String> names) {
        return names.stream().allMatch(n -> n.contains("-client-io-"));
    }

    @ParameterizedTest
    @CsvSource({"none,1", "none,4", "pipeline-executor,1", "pipeline-executor,4",
            "offload-executor,1", "offload-executor,4"})
    void eachStrategyRunsWhereItClaims(String strategy, int connections) throws Exception {
        WakeProbe probe = new WakeProbe();
        OffloadBenchmark b = benchmark(strategy, connections, probe);
        try {
            Set<String> wakers = runOps(b, probe);
            for (Channel server : b.accepted) {
                EventExecutorGroup origin = OffloadBenchmark.originExecutor(server);
                String originThread = ((EventExecutor) origin).submit(() -> Thread.currentThread().getName())
                        .get(10, TimeUnit.SECONDS);
                switch (strategy) {
                    case "none":
                    case "offload-executor":
                        assertSame(server.eventLoop(), origin, "origin handler bound to the channel's event loop");
                        assertTrue(originThread.contains("-server-io-"), originThread);
                        break;
                    case "pipeline-executor":
                        assertNotSame(server.eventLoop(), origin, "origin handler bound to an executor");
                        assertTrue(originThread.contains("-pipeline-executor-"), originThread);
                        break;
                    default:
                        throw new AssertionError(strategy);
                }
            }
            switch (strategy) {
                case "none":
                    assertTrue(allClientLoop(wakers), "only the client's loop hands the server loop work: " + wakers);
                    break;
                case "pipeline-executor":
                    assertTrue(wakers.stream().anyMatch(n -> n.contains("-pipeline-executor-")),
                            "the pipeline executor hands back writes: " + wakers);
                    break;
                case "offload-executor":
                    assertTrue(wakers.stream().anyMatch(n -> n.contains("-offload-executor-")),
                            "the offload executor hands back responses: " + wakers);
                    break;
                default:
                    throw new AssertionError(strategy);
            }
            assertTrue(wakers.stream().allMatch(n -> n.contains("-client-io-") || n.contains("-" + strategy + "-")),
                    "no other thread: " + wakers);
        } finally {
            b.tearDown();
        }
    }

    /**
     * Many ops in a row on one connection: the origin's handler once stalled a connection when the Local
     * transport delivered requests inside its own setAutoRead(true) (seen with offload-executor after ~20 ops).
     */
    @ParameterizedTest
    @ValueSource(strings = {"none", "pipeline-executor", "offload-executor"})
    void manyOpsInARowNeverStall(String strategy) throws Exception {
        WakeProbe probe = new WakeProbe();
        OffloadBenchmark b = benchmark(strategy, 1, probe);
        try {
            for (int i = 0; i < 100; i++) {
                assertEquals((long) OffloadBenchmark.MESSAGES * b.bodySize, b.requests(), "op " + i);
            }
        } finally {
            b.tearDown();
        }
    }

    /**
     * A run of the whole jar with no selection must work on JDK 17 too: the default parameter list has only
     * strategies every supported JDK runs; virtual-thread is asked for explicitly (profiles: behind [jdk>=21]).
     */
    @Test
    void theDefaultStrategiesRunOnEveryJdk() throws Exception {
        String[] defaults = OffloadBenchmark.class.getField("strategy").getAnnotation(Param.class).value();
        assertTrue(defaults.length >= 3, Arrays.toString(defaults));
        for (String s : defaults) {
            assertNotEquals(WorkStrategy.VIRTUAL_THREAD, WorkStrategy.parse(s),
                    "virtual-thread needs JDK 21+: not a default");
        }
    }

    /** JDK 21+: the work runs on virtual threads. Older JDKs: setup fails, saying why. */
    @Test
    @Tag("jdk25")
    void virtualThreadsWhereAvailable() throws Exception {
        WakeProbe probe = new WakeProbe();
        if (Runtime.version().feature() < 21) {
            OffloadBenchmark b = new OffloadBenchmark();
            b.strategy = "virtual-thread";
            b.connections = 1;
            b.bodySize = 1024;
            b.executorThreads = 4;
            b.serverLoopWakers = probe;
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, b::setUp);
            assertTrue(e.getMessage().startsWith("virtual-thread needs JDK 21+; this JVM is "), e.getMessage());
            assertTrue(e.getMessage().contains(String.valueOf(Runtime.version())), e.getMessage());
            return;
        }
        for (int connections : new int[] {1, 4}) {
            OffloadBenchmark b = benchmark("virtual-thread", connections, probe);
            try {
                Set<String> wakers = runOps(b, probe);
                for (Channel server : b.accepted) {
                    assertSame(server.eventLoop(), OffloadBenchmark.originExecutor(server));
                }
                assertTrue(wakers.contains("<virtual>"), "virtual threads hand back responses: " + wakers);
                assertTrue(wakers.stream().allMatch(n -> n.equals("<virtual>") || n.contains("-client-io-")),
                        "no other thread: " + wakers);
                List<Thread> platform = probe.wakers.stream().filter(t -> !isVirtual(t)).collect(Collectors.toList());
                assertFalse(platform.isEmpty(), "the client loop delivers the requests");
            } finally {
                b.tearDown();
            }
        }
    }
}
