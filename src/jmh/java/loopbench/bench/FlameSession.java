package loopbench.bench;

import loopbench.flame.FlameEvent;
import loopbench.flame.FlameGraphs;
import loopbench.flame.ProcessProfiler;
import loopbench.process.ServerProcess;
import one.profiler.AsyncProfiler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One benchmark's flame graphs, from its first measurement iteration to its last, in one directory
 * ({@link FlameGraphs}): of the benchmark's own JVM when it starts no server processes (an in-process benchmark),
 * else of every server process it starts ({@link ServerProcess}: proxy, origin, echo), named after their roles,
 * and not of the load generator (the benchmark's JVM): sampling it would slow the side that measures.
 *
 * <p>A watcher thread attaches to each server process as soon as it is live (servers started per iteration or for a
 * cold start are caught too); once a server appears, the benchmark JVM's own profile is dropped. A server's graph
 * is written when it is stopped here, or when it exits (async-profiler dumps on exit) if the benchmark stopped it
 * first, as a trial's teardown does before the last iteration ends.
 */
final class FlameSession {
    private static final long WATCH_MILLIS = 100;

    private final FlameEvent requested;
    private final Path dir;
    private final Path library;
    private final AsyncProfiler self;
    private final Supplier<List<ServerProcess>> servers;
    private final List<String> notes = new ArrayList<>();
    private final Map<ServerProcess, Path> attached = new LinkedHashMap<>();
    private final Map<String, Integer> perRole = new HashMap<>();
    private FlameEvent.Resolved event;
    private boolean selfRunning;
    private Thread watcher;
    private volatile boolean watching;

    FlameSession(FlameEvent requested, Path dir, Path library, Supplier<List<ServerProcess>> servers) {
        this.requested = requested;
        this.dir = dir;
        this.library = library;
        this.self = AsyncProfiler.getInstance(library.toString());
        this.servers = servers;
    }

    /** Server processes attached to so far (including failed attempts). */
    synchronized int attachedCount() {
        return attached.size();
    }

    /** The event in use (after {@link #start}). */
    FlameEvent.Resolved event() {
        return event;
    }

    synchronized void start() throws IOException {
        Files.createDirectories(dir);
        event = requested.resolve(self::execute);
        if (event.note() != null) {
            notes.add(event.note());
            System.out.println("flame: " + event.note());
        }
        if (servers.get().isEmpty()) {
            try {
                self.execute("start,event=" + event.event());
                selfRunning = true;
            } catch (Exception e) {
                throw new IllegalStateException("async-profiler could not start (" + event.event() + "): "
                        + e.getMessage(), e);
            }
        }
        attachNew();
        watching = true;
        watcher = new Thread(this::watch, "loopbench-flame-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    private void watch() {
        while (watching) {
            attachNew();
            try {
                Thread.sleep(WATCH_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private synchronized void attachNew() {
        for (ServerProcess p : servers.get()) {
            if (attached.containsKey(p) || !p.isAlive()) {
                continue;
            }
            if (selfRunning) { // an end-to-end benchmark after all: its own JVM is the load generator
                try {
                    self.execute("stop");
                } catch (Exception e) {
                    // was not running
                }
                selfRunning = false;
            }
            int n = perRole.merge(p.role(), 1, Integer::sum);
            Path file = dir.resolve(FlameGraphs.fileName(event.event(), p.role(), n));
            try {
                ProcessProfiler.start(p.pid(), library, event.event(), file);
                attached.put(p, file);
            } catch (IllegalStateException e) {
                attached.put(p, null);
                notes.add("no flame graph of " + p.role() + " (pid " + p.pid() + "): " + e.getMessage());
            }
        }
    }

    /** Stops everything, writes the graphs still open and the notes; returns what was written, line by line. */
    synchronized List<String> finish() throws IOException {
        watching = false;
        if (watcher != null) {
            watcher.interrupt();
        }
        List<String> lines = new ArrayList<>();
        if (selfRunning) {
            Path file = dir.resolve(FlameGraphs.fileName(event.event(), FlameGraphs.BENCHMARK_ROLE, 1));
            long samples = self.getSamples();
            try {
                self.execute("stop,file=" + file);
            } catch (Exception e) {
                throw new IllegalStateException("async-profiler could not write " + file + ": " + e.getMessage(), e);
            }
            selfRunning = false;
            lines.add(file + (samples == 0 ? " (EMPTY: no samples were taken)" : " (" + samples + " samples)"));
            if (samples == 0) {
                notes.add("the benchmark's own graph has no samples");
            }
        }
        for (Map.Entry<ServerProcess, Path> a : attached.entrySet()) {
            ServerProcess p = a.getKey();
            Path file = a.getValue();
            if (file == null) {
                continue;
            }
            String who = p.role() + " (pid " + p.pid() + ")";
            if (p.isAlive()) {
                try {
                    ProcessProfiler.stop(p.pid(), library, file);
                } catch (IllegalStateException e) {
                    notes.add(who + ": " + e.getMessage());
                }
            }
            lines.add(Files.isRegularFile(file) && Files.size(file) > 0 ? file + " (" + who + ")"
                    : file + " (" + who + ": NOT WRITTEN; the process did not exit normally?)");
        }
        if (lines.isEmpty()) {
            notes.add("no graph was taken: no benchmark JVM profile and no server process");
        }
        List<String> all = new ArrayList<>(lines);
        notes.forEach(n -> all.add("note: " + n));
        Files.write(dir.resolve(FlameGraphs.NOTES_FILE), all, StandardCharsets.UTF_8);
        return all;
    }
}
