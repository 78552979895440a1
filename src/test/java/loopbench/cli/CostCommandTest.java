package loopbench.cli;

import loopbench.testing.CliProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code loopbench cost}, what profiles/reference-proxies/compare.sh and the probes measure a server with: the CPU time
 * of the process given and of its descendants over a command's run, per request as the command's output counts them;
 * the command's failure is passed on; the command never outlives it. (Its bad input: CliArgumentsTest.)
 */
class CostCommandTest {
    private static final String SELF = Long.toString(ProcessHandle.current().pid());

    /**
     * The measured "server" is a shell whose child, started only once the command runs, spins a bounded loop and then
     * sleeps: the CPU time counted is the descendant's, taken while the command ran, and is split into user and system
     * time whose sum is the total; the request count comes from the command's output, which passes through.
     */
    @Test
    void countsTheCpuOfTheProcessTreeWhileTheCommandRuns(@TempDir Path dir) throws Exception {
        Path go = dir.resolve("go");
        Path done = dir.resolve("done");
        Process server = new ProcessBuilder("bash", "-c", "for _ in $(seq 600); do [ -e '" + go + "' ] && break; "
                + "sleep 0.05; done; (i=0; while [ $i -lt 100000 ]; do i=$((i + 1)); done; touch '" + done + "'; "
                + "exec sleep 60) & wait").start();
        try {
            Path out = dir.resolve("cost.txt");
            CliArgumentsTest.Result r = CliArgumentsTest.run("cost", "--pid", Long.toString(server.pid()),
                    "--requests-from", "([0-9]+) requests in", "--out", out.toString(), "--", "bash", "-c",
                    "touch '" + go + "'; for _ in $(seq 600); do [ -e '" + done + "' ] && break; sleep 0.05; done; "
                            + "echo '1000 requests in 1.00s'");
            assertEquals(0, r.exitCode(), r::toString);
            assertTrue(Files.exists(done), "the descendant finished its loop while the command ran");
            assertTrue(r.out().contains("1000 requests in 1.00s"), "the command's stdout passes through: " + r);
            Map<String, String> f = fields(Files.readString(out));
            assertEquals(Long.toString(server.pid()), f.get("pid"));
            assertEquals("1000", f.get("requests"));
            long cpu = Long.parseLong(f.get("cpuNanos"));
            assertTrue(cpu >= 20_000_000, "the child's loop took CPU time, counted with its parent's: " + f);
            assertEquals(cpu, Long.parseLong(f.get("userNanos")) + Long.parseLong(f.get("systemNanos")), f::toString);
            assertEquals(String.format(Locale.ROOT, "%.2f", cpu / 1e3 / 1000), f.get("cpuMicrosPerRequest"));
            assertTrue(Long.parseLong(f.get("contextSwitches")) >= 0, f::toString);
            assertTrue(Long.parseLong(f.get("machineBusyNanos")) >= 0, f::toString);
            assertTrue(Double.parseDouble(f.get("seconds")) > 0, f::toString);
            for (String perRequest : new String[] {"userMicrosPerRequest", "systemMicrosPerRequest",
                    "contextSwitchesPerRequest", "machineCpuMicrosPerRequest"}) {
                assertTrue(f.containsKey(perRequest), perRequest + " in " + f);
            }
        } finally {
            server.descendants().forEach(ProcessHandle::destroyForcibly);
            server.destroyForcibly().waitFor();
        }
    }

    @Test
    void withoutARequestCountTheLineHasTheTotalsOnStderr() {
        CliArgumentsTest.Result r = CliArgumentsTest.run("cost", "--pid", SELF, "--", "true");
        assertEquals(0, r.exitCode(), r::toString);
        Map<String, String> f = fields(r.err());
        assertEquals(SELF, f.get("pid"));
        assertTrue(f.containsKey("cpuNanos") && f.containsKey("contextSwitches"), r::toString);
        assertFalse(f.containsKey("requests") || f.containsKey("cpuMicrosPerRequest"), r::toString);
    }

    @Test
    void aFailingCommandPassesItsExitCodeOnAndWritesNoFigures(@TempDir Path dir) {
        Path out = dir.resolve("cost.txt");
        CliArgumentsTest.Result r = CliArgumentsTest.run("cost", "--pid", SELF, "--out", out.toString(), "--",
                "bash", "-c", "exit 3");
        assertEquals(3, r.exitCode(), r::toString);
        assertTrue(r.err().contains("cost: bash exited 3; no figures"), r::toString);
        assertFalse(Files.exists(out));
    }

    @Test
    void aCountTheOutputDoesNotHaveIsAFailure() {
        CliArgumentsTest.Result none = CliArgumentsTest.run("cost", "--pid", SELF, "--requests-from",
                "([0-9]+) requests in", "--", "echo", "no count here");
        assertEquals(1, none.exitCode(), none::toString);
        assertTrue(none.err().contains("matches nothing in echo's output"), none::toString);
        CliArgumentsTest.Result zero = CliArgumentsTest.run("cost", "--pid", SELF, "--requests-from",
                "([0-9]+) requests in", "--", "echo", "0 requests in 1.00s");
        assertEquals(1, zero.exitCode(), zero::toString);
        assertTrue(zero.err().contains("echo completed no request"), zero::toString);
    }

    /** SIGTERM to the measuring JVM (a script's cleanup, Ctrl-C) stops the command it runs, too. */
    @Test
    void theCommandDoesNotOutliveIt() throws Exception {
        try (CliProcess cost = CliProcess.start("cost", "--pid", SELF, "--", "bash", "-c", "echo $$; exec sleep 300")) {
            long child = Long.parseLong(cost.nextLine().trim());
            assertTrue(ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false), "the command runs");
            cost.sigterm();
            cost.waitForExit();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (ProcessHandle.of(child).map(ProcessHandle::isAlive).orElse(false)) {
                assertTrue(System.nanoTime() < deadline, "the command outlived loopbench cost");
                Thread.sleep(20);
            }
        }
    }

    /** The "key=value" words of a "cost ..." line. */
    private static Map<String, String> fields(String text) {
        Map<String, String> f = new HashMap<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("cost pid=")) {
                for (String word : line.trim().split(" ")) {
                    int eq = word.indexOf('=');
                    if (eq > 0) {
                        f.put(word.substring(0, eq), word.substring(eq + 1));
                    }
                }
            }
        }
        assertFalse(f.isEmpty(), "a 'cost pid=...' line in: " + text);
        return f;
    }
}
