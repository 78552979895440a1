package loopbench.profile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * profiles/lib/common.sh, which every script under profiles/ sources: a server it starts is waited for until it says
 * "listening on", and nothing it starts outlives the script, whether the script ends, fails or is sent SIGTERM. The
 * "server" here is a stand-in (bash printing the line, then sleeping), so no build is needed.
 */
class CommonShTest {
    private static final String SCRIPT = """
            set -euo pipefail
            lb_name=probe
            . "$COMMON"
            lb_cleanup_on_exit
            lb_start "$DIR/server" bash -c 'echo "listening on 127.0.0.1:4242 netty-4.2 nio"; exec sleep 300'
            echo "$lb_started_pid $lb_started_port" > "$DIR/server.started"
            case "$MODE" in
              end) ;;
              fail) lb_fail 1 "something went wrong" ;;
              wait) lb_run bash -c 'echo $$ > "$DIR/child.started"; exec sleep 300' ;;
              silent) lb_start "$DIR/silent" bash -c 'echo starting; exit 3' ;;
            esac
            """;

    private record Run(Process process, Path dir) {
        String stderr() throws Exception {
            return Files.readString(dir.resolve("stderr"), StandardCharsets.UTF_8);
        }
    }

    private static Run start(Path dir, String mode) throws Exception {
        Path script = Files.writeString(dir.resolve("probe.sh"), SCRIPT);
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString())
                .redirectOutput(dir.resolve("stdout").toFile()).redirectError(dir.resolve("stderr").toFile());
        pb.environment().put("COMMON", Path.of("profiles/lib/common.sh").toAbsolutePath().toString());
        pb.environment().put("DIR", dir.toString());
        pb.environment().put("MODE", mode);
        return new Run(pb.start(), dir);
    }

    private static int exitOf(Run run) throws Exception {
        if (!run.process().waitFor(60, TimeUnit.SECONDS)) {
            run.process().destroyForcibly().waitFor();
            throw new AssertionError("the script did not end within 60 s: " + run.stderr());
        }
        return run.process().exitValue();
    }

    /** The pid in FILE (its first word), once the script has written it. */
    private static long pidIn(Path file) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!Files.exists(file) || Files.readString(file).isBlank()) {
            assertTrue(System.nanoTime() < deadline, file + " was never written");
            Thread.sleep(20);
        }
        return Long.parseLong(Files.readString(file).trim().split(" ")[0]);
    }

    private static void assertGone(long pid) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            assertTrue(System.nanoTime() < deadline, "process " + pid + " outlived the script");
            Thread.sleep(20);
        }
    }

    @Test
    void aStartedServerIsWaitedForAndStoppedWhenTheScriptEnds(@TempDir Path dir) throws Exception {
        Run run = start(dir, "end");
        assertEquals(0, exitOf(run), run.stderr());
        List<String> started = List.of(Files.readString(dir.resolve("server.started")).trim().split(" "));
        assertEquals("4242", started.get(1), "the port from its 'listening on' line");
        assertGone(Long.parseLong(started.get(0)));
    }

    @Test
    void aFailingScriptSaysWhyAndStopsItsServer(@TempDir Path dir) throws Exception {
        Run run = start(dir, "fail");
        assertEquals(1, exitOf(run));
        assertTrue(run.stderr().contains("probe: something went wrong"), run.stderr());
        assertGone(pidIn(dir.resolve("server.started")));
    }

    @Test
    void sigtermStopsTheScriptItsServerAndTheChildItWaitsFor(@TempDir Path dir) throws Exception {
        Run run = start(dir, "wait");
        long server = pidIn(dir.resolve("server.started"));
        long child = pidIn(dir.resolve("child.started"));
        run.process().destroy(); // SIGTERM to the script only, not to its children
        assertEquals(143, exitOf(run), run.stderr());
        assertGone(server);
        assertGone(child);
    }

    /** lb_cost_field reads one figure of the line `loopbench cost` writes, by its key, and no other. */
    @Test
    void aCostFieldIsReadByItsKey(@TempDir Path dir) throws Exception {
        Path line = Files.writeString(dir.resolve("cost"), "cost pid=42 seconds=10.001 cpuNanos=5 userNanos=3 "
                + "systemNanos=2 contextSwitches=7 machineBusyNanos=9 requests=1000 cpuMicrosPerRequest=12.34 "
                + "userMicrosPerRequest=8.00 systemMicrosPerRequest=4.34\n");
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", ". \"$COMMON\"; for k in cpuMicrosPerRequest "
                + "userMicrosPerRequest contextSwitches requests; do lb_cost_field \"$1\" $k; done", "probe",
                line.toString()).redirectErrorStream(true);
        pb.environment().put("COMMON", Path.of("profiles/lib/common.sh").toAbsolutePath().toString());
        Process p = pb.start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals("12.34\n8.00\n7\n1000\n", new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    /**
     * One way to read a process's CPU: the scripts measure a server with `loopbench cost` (loopbench.metrics.ProcStat),
     * never from /proc on their own.
     */
    @Test
    void noScriptReadsCpuTimesOrContextSwitchesFromProcItself() throws Exception {
        List<String> readers = new ArrayList<>();
        try (var files = Files.walk(Path.of("profiles"))) {
            for (Path f : files.filter(f -> f.toString().endsWith(".sh")).toList()) {
                String text = Files.readString(f);
                for (String sign : List.of("ctxt_switches", "/proc/stat", "CLK_TCK", "print $12")) {
                    if (text.contains(sign)) {
                        readers.add(f + " (" + sign + ")");
                    }
                }
            }
        }
        assertEquals(List.of(), readers);
    }

    @Test
    void aServerThatExitsBeforeListeningIsAFailureNamingItsLog(@TempDir Path dir) throws Exception {
        Run run = start(dir, "silent");
        assertEquals(1, exitOf(run));
        assertTrue(run.stderr().contains("probe: silent exited before it listened (its log: " + dir + "/silent.err)"),
                run.stderr());
        assertGone(pidIn(dir.resolve("server.started")));
        assertFalse(Files.readString(dir.resolve("silent.out")).contains("listening"));
    }
}
