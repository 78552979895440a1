package loopbench.flame;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The cpu -> itimer fallback, decided from what async-profiler answers, with no need for a kernel that refuses. */
class FlameEventTest {

    /** What async-profiler 4.6 throws when perf_event_open is refused (seen with strace injecting EACCES). */
    static final String REFUSED = "Perf events unavailable. Try --fdtransfer or --all-user option or "
            + "'sysctl kernel.perf_event_paranoid=1'";

    @Test
    void cpuFallsBackToItimerWhenPerfEventsAreRefusedAndSaysWhy() {
        List<String> commands = new ArrayList<>();
        FlameEvent.Resolved r = FlameEvent.CPU.resolve(cmd -> {
            commands.add(cmd);
            throw new IllegalStateException(REFUSED);
        });
        assertEquals("itimer", r.event());
        assertTrue(r.note().contains("perf events are not allowed here (Perf events unavailable)"), r.note());
        assertTrue(r.note().contains("sampled with itimer instead"), r.note());
        assertEquals(List.of("start,event=cpu-clock"), commands, "the probe asks for a perf event explicitly");
    }

    @Test
    void cpuStaysCpuWhenPerfEventsWork() {
        List<String> commands = new ArrayList<>();
        FlameEvent.Resolved r = FlameEvent.CPU.resolve(cmd -> {
            commands.add(cmd);
            return "Profiling started";
        });
        assertEquals("cpu", r.event());
        assertNull(r.note());
        assertEquals(List.of("start,event=cpu-clock", "stop"), commands, "the probe's profile is stopped");
    }

    @Test
    void otherTroubleIsLeftToTheRealStartToReport() {
        FlameEvent.Resolved r = FlameEvent.CPU.resolve(cmd -> {
            throw new IllegalStateException("Profiler already started");
        });
        assertEquals("cpu", r.event());
        assertNull(r.note());
    }

    @Test
    void otherEventsNeedNoPerfEvents() {
        for (FlameEvent e : List.of(FlameEvent.ALLOC, FlameEvent.LOCK, FlameEvent.WALL)) {
            FlameEvent.Resolved r = e.resolve(cmd -> {
                throw new AssertionError("no probe for " + e + ": " + cmd);
            });
            assertEquals(e.cliName(), r.event());
            assertNull(r.note());
        }
    }

    @Test
    void parsingNamesTheValidEvents() {
        assertEquals(FlameEvent.WALL, FlameEvent.parse("wall"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlameEvent.parse("cycles"));
        assertTrue(e.getMessage().contains("'cycles'") && e.getMessage().contains("cpu, alloc, lock, wall"),
                e.getMessage());
    }

    @Test
    void graphsAreNamedAfterTheBenchmarkItsParametersAndTheRole() {
        assertEquals("ProxyEndToEndBenchmark.requests-layer=7-threadModel=reuse-server-thread",
                FlameGraphs.directoryName("loopbench.bench.ProxyEndToEndBenchmark.requests",
                        Map.of("threadModel", "reuse-server-thread", "layer", "7")));
        assertEquals("X.m-p=a_b", FlameGraphs.directoryName("X.m", Map.of("p", "a/b")));
        assertEquals("cpu-proxy.html", FlameGraphs.fileName("cpu", "proxy", 1));
        assertEquals("itimer-origin-2.html", FlameGraphs.fileName("itimer", "origin", 2));
    }
}
