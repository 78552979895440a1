package loopbench.process;

import loopbench.metrics.ProcStat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A gateway that is not loopbench's (nginx, HAProxy, Zuul, a user's own), started from a {@link CommandTemplate} on
 * a free port of 127.0.0.1 in front of a given backend, ready once that port accepts a connection, measured as the
 * whole process tree it starts (nginx's master and workers, a shell and what it runs) and stopped with it.
 *
 * <p>Nothing of it outlives the run, however the run ends: the command runs in a session and process group of its
 * own ({@code setsid}) under a watchdog shell whose stdin is this JVM's pipe. {@link #stop()} closes the pipe, and
 * so does the kernel when this JVM dies, even by SIGKILL: the watchdog then sends the whole group SIGTERM, and
 * SIGKILL after {@value #STOP_GRACE_SECONDS} s. The command must stay in the foreground (nginx
 * {@code -g 'daemon off;'}, {@code haproxy -db}); one that forks into the background and exits is refused. Its stdin
 * is /dev/null, its stdout and stderr go to one log ({@link #stderr()}).
 */
public final class ExternalProcess implements MeasuredProcess {
    static final long STOP_GRACE_SECONDS = 10;
    private static final String PID_LINE = "loopbench-external-pid";
    /** $1: the command. setsid does not fork here (a background job of a shell without job control leads no group). */
    private static final String WATCHDOG = String.join("\n",
            "setsid /bin/sh -c \"$1\" </dev/null >&2 &",
            "target=$!",
            "echo \"" + PID_LINE + " $target\"",
            "cat >/dev/null",
            "kill -TERM -\"$target\" 2>/dev/null",
            "i=0",
            "while kill -0 -\"$target\" 2>/dev/null && [ \"$i\" -lt " + STOP_GRACE_SECONDS * 10 + " ]; do",
            "  sleep 0.1; i=$((i + 1))",
            "done",
            "kill -KILL -\"$target\" 2>/dev/null",
            "exit 0");
    private static final Set<ExternalProcess> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(LIVE).forEach(ExternalProcess::stop),
                "loopbench-external-process-reaper"));
    }

    private final String role;
    private final CommandTemplate template;
    private final String command;
    private final Process watchdog;
    private final long pid;
    private final int port;
    private final ProcessLog log;

    private ExternalProcess(String role, CommandTemplate template, String command, Process watchdog, long pid, int port,
                            ProcessLog log) {
        this.role = role;
        this.template = template;
        this.command = command;
        this.watchdog = watchdog;
        this.pid = pid;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts {@code template} as {@code role} on a free port of 127.0.0.1 in front of {@code backendHost:backendPort}
     * and waits until the port accepts, at most {@code startTimeout}; fails (with the command's log) if it does not,
     * or if the command exits first.
     */
    public static ExternalProcess start(String role, CommandTemplate template, String backendHost, int backendPort,
                                        Duration startTimeout) {
        return start(role, template, backendHost, backendPort, startTimeout, UnaryOperator.identity());
    }

    /**
     * As {@link #start(String, CommandTemplate, String, int, Duration)}, the watchdog (and so the command) run through
     * {@code launch}: e.g. a {@code taskset -c} prefix, whose CPUs the whole tree inherits.
     */
    public static ExternalProcess start(String role, CommandTemplate template, String backendHost, int backendPort,
                                        Duration startTimeout, UnaryOperator<List<String>> launch) {
        int port = freePort();
        String command = template.render(port, backendHost, backendPort);
        ProcessLog log = ProcessLog.create(role);
        Process watchdog;
        try {
            List<String> cmd = List.of("/bin/sh", "-c", WATCHDOG, "loopbench-watchdog", command);
            watchdog = new ProcessBuilder(launch.apply(cmd)).redirectError(log.file()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + role + " '" + command + "': " + e.getMessage(), e);
        }
        long pid = readPid(watchdog, role, command, log);
        ExternalProcess p = new ExternalProcess(role, template, command, watchdog, pid, port, log);
        LIVE.add(p);
        try {
            p.awaitListening(startTimeout);
        } catch (RuntimeException e) {
            p.stop();
            throw e;
        }
        return p;
    }

    private static long readPid(Process watchdog, String role, String command, ProcessLog log) {
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(watchdog.getInputStream(),
                    StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line != null && line.startsWith(PID_LINE + " ")) {
                return Long.parseLong(line.substring(PID_LINE.length() + 1).trim());
            }
            throw new IllegalStateException("cannot start " + role + " '" + command + "': the watchdog said '" + line
                    + "'; log:\n" + log.tail());
        } catch (IOException e) {
            watchdog.destroyForcibly();
            throw new UncheckedIOException("cannot start " + role + " '" + command + "': " + e.getMessage(), e);
        }
    }

    private void awaitListening(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            if (!isAlive()) {
                throw new IllegalStateException(role + " exited before it opened 127.0.0.1:" + port + ": " + command
                        + "\nlog:\n" + log.tail());
            }
            if (accepts()) {
                break;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(role + " did not open 127.0.0.1:" + port + " within "
                        + timeout.toSeconds() + " s: " + command + "\nlog:\n" + log.tail());
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while starting " + role, e);
            }
        }
        if (!isAlive()) { // a daemon: the port is open, the process started has gone
            throw new IllegalStateException(role + " opened 127.0.0.1:" + port + " but the command exited: it must "
                    + "stay in the foreground (nginx -g 'daemon off;', haproxy -db): " + command);
        }
    }

    private boolean accepts() {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on 127.0.0.1: " + e.getMessage(), e);
        }
    }

    @Override
    public String role() {
        return role;
    }

    /** The process the command runs as (the leader of its process group). */
    public long pid() {
        return pid;
    }

    public int port() {
        return port;
    }

    /** The template it was started from, placeholders unfilled: what names this gateway across forks. */
    public CommandTemplate template() {
        return template;
    }

    /** The command as run, placeholders filled in. */
    public String command() {
        return command;
    }

    @Override
    public String hostPort() {
        return InetAddress.getLoopbackAddress().getHostAddress() + ":" + port;
    }

    @Override
    public boolean isAlive() {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    /** The whole process tree's CPU time and context switches (see {@link ProcStat#ofTree}). */
    @Override
    public ProcStat.Snapshot procStat() {
        return ProcStat.ofTree(pid);
    }

    @Override
    public ProcStat.Io io() {
        return ProcStat.ioOfTree(pid);
    }

    @Override
    public String stderr() {
        return log.read();
    }

    /**
     * Stops the process group (SIGTERM, SIGKILL after {@value #STOP_GRACE_SECONDS} s), and whatever of the tree is
     * still there after that. Returns 0 once everything has gone, 137 if something had to be killed from here.
     * Idempotent.
     */
    @Override
    public int stop() {
        try {
            List<ProcessHandle> tree = tree();
            try {
                watchdog.getOutputStream().close(); // the watchdog's cue
            } catch (IOException e) {
                // it has gone already: what is left is killed below
            }
            boolean clean = watchdog.waitFor(STOP_GRACE_SECONDS + 5, TimeUnit.SECONDS);
            for (ProcessHandle h : tree) {
                if (h.isAlive()) {
                    clean = false;
                    h.destroyForcibly();
                }
            }
            if (watchdog.isAlive()) {
                watchdog.destroyForcibly();
                watchdog.waitFor(STOP_GRACE_SECONDS, TimeUnit.SECONDS);
            }
            return clean ? 0 : 137;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            tree().forEach(ProcessHandle::destroyForcibly);
            watchdog.destroyForcibly();
            return -1;
        } finally {
            LIVE.remove(this);
        }
    }

    private List<ProcessHandle> tree() {
        Optional<ProcessHandle> root = ProcessHandle.of(pid);
        return root.map(h -> java.util.stream.Stream.concat(java.util.stream.Stream.of(h), h.descendants()).toList())
                .orElse(List.of());
    }

    @Override
    public String toString() {
        return role + " pid " + pid + " on " + hostPort() + " (" + command + ")";
    }
}
