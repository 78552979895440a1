package loopbench.bench;

import loopbench.flame.AsyncProfilerLibrary;
import loopbench.flame.FlameEvent;
import loopbench.flame.FlameGraphs;
import loopbench.process.ServerProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.profile.ProfilerException;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The flame-graph profiler for real: async-profiler from the jar on the class path, a graph of this JVM when no
 * server runs, and of a server process (attached through the Attach API) when one does.
 */
class FlameProfilerTest {

    @Test
    void optionsNameTheValidValues() throws Exception {
        FlameProfiler p = new FlameProfiler("event=alloc;dir=/tmp/x");
        assertEquals(FlameEvent.ALLOC, p.event());
        assertEquals(Path.of("/tmp/x"), p.root());
        assertEquals(FlameEvent.CPU, new FlameProfiler().event());
        ProfilerException bad = assertThrows(ProfilerException.class, () -> new FlameProfiler("event=cycles"));
        assertTrue(bad.getMessage().contains("cpu, alloc, lock, wall"), bad.getMessage());
        ProfilerException unknown = assertThrows(ProfilerException.class, () -> new FlameProfiler("libPath=/x.so"));
        assertTrue(unknown.getMessage().contains("event=cpu|alloc|lock|wall;dir=DIR"), unknown.getMessage());
    }

    @Test
    void theLibraryComesFromTheJarWithNoPathToType() {
        Path lib = AsyncProfilerLibrary.locate();
        assertTrue(Files.isRegularFile(lib) && lib.getFileName().toString().equals("libasyncProfiler.so"),
                lib::toString);
    }

    @Test
    void anInProcessBenchmarkGetsAGraphOfItsOwnJvm(@TempDir Path dir) throws Exception {
        FlameSession session = new FlameSession(FlameEvent.CPU, dir, AsyncProfilerLibrary.locate(), List::of);
        session.start();
        long end = System.nanoTime() + 300_000_000L;
        double x = 0;
        while (System.nanoTime() < end) {
            x += Math.sqrt(x + 1);
        }
        List<String> lines = session.finish();
        String event = session.event().event(); // cpu, or itimer where perf events are refused
        Path graph = dir.resolve(FlameGraphs.fileName(event, FlameGraphs.BENCHMARK_ROLE, 1));
        assertTrue(x > 0);
        assertTrue(Files.size(graph) > 0, lines::toString);
        assertTrue(Files.readString(graph).contains("<!DOCTYPE html>"), "an HTML flame graph");
        assertTrue(lines.get(0).contains(graph.toString()) && lines.get(0).contains("samples"), lines::toString);
        assertTrue(Files.readString(dir.resolve(FlameGraphs.NOTES_FILE)).contains(graph.getFileName().toString()));
    }

    @Test
    void anEndToEndBenchmarkGetsAGraphPerServerProcessNotOfItself(@TempDir Path dir) throws Exception {
        List<ServerProcess> servers = new CopyOnWriteArrayList<>();
        FlameSession session = new FlameSession(FlameEvent.CPU, dir, AsyncProfilerLibrary.locate(),
                () -> List.copyOf(servers));
        session.start(); // no server yet: the session profiles this JVM until one appears
        try (ServerProcess echo = ServerProcess.start("echo", List.of("--listen", "127.0.0.1:0"))) {
            servers.add(echo);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (session.attachedCount() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertEquals(1, session.attachedCount(), "the watcher attached to the echo server");
            try (Socket s = new Socket(echo.address().getAddress(), echo.address().getPort())) {
                OutputStream out = s.getOutputStream();
                InputStream in = s.getInputStream();
                byte[] msg = new byte[4096];
                for (int i = 0; i < 200; i++) {
                    out.write(msg);
                    assertEquals(msg.length, in.readNBytes(msg.length).length);
                }
            }
            // SIGTERM: it exits normally and async-profiler writes its graph
            assertEquals(0, echo.stop(), echo::stderr);
        }
        List<String> lines = session.finish();
        String event = session.event().event();
        Path graph = dir.resolve(FlameGraphs.fileName(event, "echo", 1));
        assertTrue(Files.isRegularFile(graph) && Files.size(graph) > 0, lines::toString);
        assertTrue(Files.readString(graph).contains("<!DOCTYPE html>"));
        assertFalse(Files.exists(dir.resolve(FlameGraphs.fileName(event, FlameGraphs.BENCHMARK_ROLE, 1))),
                "no graph of the load generator");
        assertTrue(lines.stream().anyMatch(l -> l.contains("echo (pid")), lines::toString);
    }
}
