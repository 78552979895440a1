package loopbench.topology;

import loopbench.metrics.ProcStat;
import loopbench.metrics.ProcStatReport;
import loopbench.process.MeasuredProcess;
import loopbench.process.ProcessLog;
import loopbench.process.ServerProcess;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A loopbench server (origin, echo, proxy) on another machine, started there over SSH through the CLI contract
 * ({@code listening on HOST:PORT}, {@code --exit-with-parent}), measured from that machine's /proc and stopped at
 * the end of the run.
 *
 * <p>The SSH session is its lifeline: the server's stdin is this JVM's pipe through ssh, so it stops when the pipe
 * ends: when {@link #stop()} closes it, when this JVM dies (however), or when the link drops (the ssh client gives up
 * after 15 s without an answer, sshd closes the session when the connection ends). A link that goes silent without a
 * reset ends it too: this side writes an empty line every third of the heartbeat, and the server stops after a
 * heartbeat without any ({@code --parent-heartbeat}). Its /proc counters are read there by the server itself: each
 * {@value ProcStatReport#REQUEST} line sent down the same session is answered with one line ({@link ProcStatReport}),
 * so no second connection and no clock of the other machine is involved.
 */
public final class RemoteServer implements MeasuredProcess {
    private static final long START_TIMEOUT_SECONDS = 120;
    private static final long STOP_TIMEOUT_SECONDS = 15;
    private static final long READ_TIMEOUT_SECONDS = 10;
    private static final Pattern LISTENING = Pattern.compile("^listening on (\\S+):(\\d+)(?: (.*))?$");
    private static final Set<RemoteServer> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> List.copyOf(LIVE).forEach(RemoteServer::stop),
                "loopbench-remote-server-reaper"));
    }

    private final String role;
    private final RemoteJvm jvm;
    private final Process ssh;
    private final OutputStream toServer;
    private final BlockingQueue<String> reports;
    private final ProcessLog log;
    private final String hostPort;
    private final Map<String, String> stack;
    private final long remotePid;

    private RemoteServer(String role, RemoteJvm jvm, Process ssh, BlockingQueue<String> reports, ProcessLog log,
                         String hostPort, Map<String, String> stack) {
        this.role = role;
        this.jvm = jvm;
        this.ssh = ssh;
        this.toServer = ssh.getOutputStream();
        this.reports = reports;
        this.log = log;
        this.hostPort = hostPort;
        this.stack = stack;
        this.remotePid = reading().pid();
    }

    /**
     * Starts {@code loopbench <command> <args>} on {@code jvm}'s host, listening on {@code listenAddress} (port 0),
     * and waits until it listens. Others reach it at {@code reachAddress} and the port it printed.
     */
    public static RemoteServer start(RemoteJvm jvm, String role, String command, List<String> args,
                                     String listenAddress, String reachAddress, Duration heartbeat) {
        List<String> remote = new ArrayList<>(args);
        remote.addAll(List.of("--listen", listenAddress + ":0", "--exit-with-parent", "--parent-heartbeat",
                heartbeat.toMillis() + "ms"));
        List<String> cmd = jvm.host().ssh(jvm.loopbench(command, remote));
        ProcessLog stderr = ProcessLog.create("remote-" + role);
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(stderr.file()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", cmd) + ": " + e.getMessage(), e);
        }
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        BlockingQueue<String> reports = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> readStdout(p, ready, reports), "loopbench-remote-" + role + "-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            Matcher line = ready.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            RemoteServer server = new RemoteServer(role, jvm, p, reports, stderr, reachAddress + ":" + line.group(2),
                    ServerProcess.pairs(line.group(3)));
            LIVE.add(server);
            server.beatEvery(heartbeat.dividedBy(3));
            return server;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IllegalStateException("interrupted while starting " + role + " on " + jvm.host(), e);
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            p.destroyForcibly(); // the session ends, and with it the server there
            String why = e instanceof TimeoutException ? "did not print 'listening on' within " + START_TIMEOUT_SECONDS
                    + " s" : e instanceof ExecutionException ? e.getCause().getMessage() : e.getMessage();
            throw new IllegalStateException(role + " on " + jvm.host() + " failed to start (" + why + "): "
                    + String.join(" ", cmd) + "\nstderr:\n" + stderr.tail(), e);
        }
    }

    private static void readStdout(Process p, CompletableFuture<Matcher> ready, BlockingQueue<String> reports) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                Matcher m = LISTENING.matcher(line.trim());
                if (!ready.isDone() && m.matches()) {
                    ready.complete(m);
                } else if (ProcStatReport.isReport(line)) {
                    reports.add(line);
                }
            }
        } catch (IOException | RuntimeException e) {
            ready.completeExceptionally(e);
        }
        try {
            ready.completeExceptionally(new IllegalStateException("ssh exited with code " + p.waitFor()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Writes an empty line down the session every {@code period}: the server's sign that the link is there. */
    private void beatEvery(Duration period) {
        Thread beat = new Thread(() -> {
            try {
                while (ssh.isAlive() && !ssh.waitFor(period.toMillis(), TimeUnit.MILLISECONDS)) {
                    if (!beat()) {
                        return;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "loopbench-remote-" + role + "-heartbeat");
        beat.setDaemon(true);
        beat.start();
    }

    private synchronized boolean beat() {
        try {
            toServer.write('\n');
            toServer.flush();
            return true;
        } catch (IOException e) {
            return false; // stopped, or the session is gone
        }
    }

    /** One reading of the server's /proc counters, taken there now. */
    private synchronized ProcStatReport.Reading reading() {
        try {
            reports.clear();
            toServer.write((ProcStatReport.REQUEST + "\n").getBytes(StandardCharsets.US_ASCII));
            toServer.flush();
            String line = reports.poll(READ_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (line == null) {
                throw new IllegalStateException(role + " on " + jvm.host() + " did not report its /proc counters "
                        + "within " + READ_TIMEOUT_SECONDS + " s" + (ssh.isAlive() ? "" : " (its ssh session ended)")
                        + "; stderr:\n" + log.tail());
            }
            return ProcStatReport.parse(line);
        } catch (IOException e) {
            throw new UncheckedIOException(role + " on " + jvm.host() + ": its session is gone (" + e.getMessage()
                    + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading " + role + "'s counters", e);
        }
    }

    @Override
    public String role() {
        return role;
    }

    public SshHost host() {
        return jvm.host();
    }

    /** The local ssh client holding the session (tests cut the link with it). */
    Process sshProcess() {
        return ssh;
    }

    /** The server's process id on its own machine. */
    public long remotePid() {
        return remotePid;
    }

    @Override
    public String hostPort() {
        return hostPort;
    }

    @Override
    public Map<String, String> stack() {
        return stack;
    }

    /** Whether its SSH session (and so the server at its end) is still there. */
    @Override
    public boolean isAlive() {
        return ssh.isAlive();
    }

    @Override
    public ProcStat.Snapshot procStat() {
        return reading().snapshot();
    }

    @Override
    public ProcStat.Io io() {
        return reading().io();
    }

    @Override
    public String stderr() {
        return log.read();
    }

    /**
     * Ends its input (the server shuts down gracefully there and exits 0, and the session with it); if that takes
     * longer than {@value #STOP_TIMEOUT_SECONDS} s, the session is cut and the process killed there. Returns the
     * session's exit code, the server's own. Idempotent.
     */
    @Override
    public int stop() {
        try {
            try {
                synchronized (this) {
                    toServer.close();
                }
            } catch (IOException e) {
                // the session is gone already
            }
            if (!ssh.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                ssh.destroyForcibly();
                jvm.host().run(List.of("kill", "-KILL", Long.toString(remotePid)));
                ssh.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            return ssh.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ssh.destroyForcibly();
            return -1;
        } finally {
            LIVE.remove(this);
        }
    }

    @Override
    public String toString() {
        return role + " on " + jvm.host() + " (pid " + remotePid + " there) at " + hostPort;
    }
}
