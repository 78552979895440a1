package loopbench.process;

import loopbench.knobs.Transport;
import loopbench.metrics.MemoryReport;
import loopbench.metrics.ProcStat;
import loopbench.topology.Host;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
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
 * A loopbench server (origin, echo or proxy) in a JVM of its own, started through the CLI's contract: the
 * command line of {@code java -jar loopbench.jar <command> ...}, one {@code listening on HOST:PORT KEY=VALUE...}
 * line on stdout once it accepts (the pairs say what it runs on: Netty version, transport, epoll mode), SIGTERM to
 * stop. A server that runs on another transport than its {@code --transport} asked for fails to start here, so
 * that a fall-back cannot pass for a measurement. End-to-end benchmarks run their servers this way so that, as on the
 * separate machines of the articles they re-measure, every component has its own JIT, GC and CPU account, and
 * a proxy's cold start is really cold.
 *
 * <p>A {@link Host} says where it runs: on which CPUs ({@code taskset -c}) and in which network namespace
 * ({@code ip netns exec}); both exec the server in their own process, so the process started is the server's.
 *
 * <p>{@link #memory()} asks it what it holds ({@value MemoryReport#REQUEST} on its stdin, one line back on its stdout):
 * only when asked, on a thread of its own that serves no connection.
 *
 * <p>No server outlives its parent: every child gets {@code --exit-with-parent} (it stops when its stdin closes,
 * which happens when this JVM dies, however it dies), {@link #close()} stops it (SIGTERM, then SIGKILL after a
 * grace period), and a shutdown hook closes whatever is still running when this JVM exits.
 */
public final class ServerProcess implements MeasuredProcess {
    private static final long START_TIMEOUT_SECONDS = 60;
    private static final long STOP_TIMEOUT_SECONDS = 15;
    private static final long MEMORY_TIMEOUT_SECONDS = 10;
    private static final Pattern LISTENING = Pattern.compile("^listening on (\\S+):(\\d+)(?: (.*))?$");
    private static final Set<ServerProcess> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (ServerProcess p : List.copyOf(LIVE)) {
                p.process.destroyForcibly();
            }
        }, "loopbench-server-process-reaper"));
    }

    private final String role;
    private final Process process;
    private final ProcessLog log;
    private final InetSocketAddress address;
    private final Map<String, String> stack;
    private final List<String> command;
    /** Memory lines from its stdout, as they come. */
    private final BlockingQueue<String> memoryLines;

    private ServerProcess(String role, Process process, ProcessLog log, Ready ready, List<String> command,
                          BlockingQueue<String> memoryLines) {
        this.role = role;
        this.process = process;
        this.log = log;
        this.address = ready.address();
        this.stack = ready.stack();
        this.command = command;
        this.memoryLines = memoryLines;
    }

    /** What the ready line says: where the server listens and what it runs on. */
    private record Ready(InetSocketAddress address, Map<String, String> stack) {
    }

    /**
     * Starts {@code loopbench <command> <args>} on this JVM's java and class path (which holds the CLI in both
     * {@code loopbench.jar} and {@code benchmarks.jar}) with {@link JvmFlags#serverDefaults} and waits until it
     * listens.
     */
    public static ServerProcess start(String command, List<String> args) {
        return start(command, args, JvmFlags.serverDefaults(JvmFlags.currentFeature()));
    }

    /** As {@link #start(String, List)} with the given JVM options instead of the defaults. */
    public static ServerProcess start(String command, List<String> args, List<String> jvmArgs) {
        return start(command, args, jvmArgs, Host.ANYWHERE);
    }

    /** As {@link #start(String, List)}, on {@code host} (its CPUs, its network namespace). */
    public static ServerProcess start(String command, List<String> args, Host host) {
        return start(command, args, JvmFlags.serverDefaults(JvmFlags.currentFeature()), host);
    }

    /** As {@link #start(String, List, List)}, on {@code host} (its CPUs, its network namespace). */
    public static ServerProcess start(String command, List<String> args, List<String> jvmArgs, Host host) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add("loopbench.cli.Main");
        cmd.add(command);
        cmd.addAll(args);
        cmd.add("--exit-with-parent");
        return launch(command, host.launch(cmd));
    }

    private static ServerProcess launch(String role, List<String> cmd) {
        ProcessLog stderr = ProcessLog.create(role);
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectError(stderr.file()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + String.join(" ", cmd) + ": " + e.getMessage(), e);
        }
        CompletableFuture<Ready> listening = new CompletableFuture<>();
        BlockingQueue<String> memoryLines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> readStdout(p, listening, memoryLines), "loopbench-" + role + "-stdout");
        reader.setDaemon(true);
        reader.start();
        try {
            Ready ready = listening.get(START_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            ServerProcess server = new ServerProcess(role, p, stderr, ready, List.copyOf(cmd), memoryLines);
            LIVE.add(server);
            if (!p.isAlive()) { // died between its line and now: close() below reports it
                server.close();
                throw new IllegalStateException(role + " exited right after it started; stderr:\n" + stderr.tail());
            }
            String asked = transportAsked(cmd);
            if (!asked.equals(server.stack().get("transport"))) {
                server.close();
                throw new IllegalStateException(role + " was asked for transport " + asked + " but runs on "
                        + server.stack() + ": " + String.join(" ", cmd));
            }
            return server;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(p);
            throw new IllegalStateException("interrupted while starting " + role, e);
        } catch (ExecutionException | TimeoutException e) {
            kill(p);
            String why = e instanceof TimeoutException
                    ? "did not print 'listening on' within " + START_TIMEOUT_SECONDS + " s"
                    : e.getCause().getMessage();
            throw new IllegalStateException(role + " failed to start (" + why + "): " + String.join(" ", cmd)
                    + "\nstderr:\n" + stderr.tail(), e);
        }
    }

    /** The value of the command's {@code --transport}, or the CLI's default. */
    private static String transportAsked(List<String> cmd) {
        int i = cmd.lastIndexOf("--transport");
        return i >= 0 && i + 1 < cmd.size() ? cmd.get(i + 1) : Transport.NIO.cliName();
    }

    /**
     * Completes {@code listening} with the first "listening on" line, then drains stdout, keeping the answers to
     * {@link #memory()} in {@code memoryLines}.
     */
    private static void readStdout(Process p, CompletableFuture<Ready> listening, BlockingQueue<String> memoryLines) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (MemoryReport.isReport(line)) {
                    memoryLines.add(line);
                    continue;
                }
                Matcher m = LISTENING.matcher(line.trim());
                if (!listening.isDone() && m.matches()) {
                    String host = m.group(1);
                    if (host.startsWith("[") && host.endsWith("]")) {
                        host = host.substring(1, host.length() - 1);
                    }
                    listening.complete(new Ready(new InetSocketAddress(host, Integer.parseInt(m.group(2))),
                            pairs(m.group(3))));
                }
            }
        } catch (IOException | RuntimeException e) {
            listening.completeExceptionally(e);
        }
        int code;
        try {
            code = p.waitFor();
        } catch (InterruptedException e) {
            return;
        }
        listening.completeExceptionally(new IllegalStateException("exited with code " + code));
    }

    /** {@code key=value} pairs separated by spaces, in order (the stack of a ready line). */
    public static Map<String, String> pairs(String s) {
        Map<String, String> m = new LinkedHashMap<>();
        if (s != null) {
            for (String pair : s.trim().split("\\s+")) {
                int eq = pair.indexOf('=');
                if (eq > 0) {
                    m.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
            }
        }
        return Collections.unmodifiableMap(m);
    }

    @Override
    public String role() {
        return role;
    }

    /**
     * What the server said it runs on, from its ready line: {@code netty} (version), {@code transport} and, on
     * epoll, {@code epoll-mode} (listening,accepted); the Mina echo server says {@code framework=mina}.
     */
    @Override
    public Map<String, String> stack() {
        return stack;
    }

    public long pid() {
        return process.pid();
    }

    public InetSocketAddress address() {
        return address;
    }

    /** {@code 127.0.0.1:PORT}, as a --backend option or a target wants it. */
    @Override
    public String hostPort() {
        return address.getAddress().getHostAddress() + ":" + address.getPort();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    /** CPU time and context switches of the process so far (see {@link ProcStat}). */
    @Override
    public ProcStat.Snapshot procStat() {
        return ProcStat.of(process.pid());
    }

    /** Bytes the process read and wrote with read/write system calls so far (see {@link ProcStat.Io}). */
    @Override
    public ProcStat.Io io() {
        return ProcStat.io(process.pid());
    }

    /**
     * What the server holds in memory now, as it reads it itself (its allocator's figures, Netty's direct-memory
     * counter, its resident set size, its heap after the last collection): asked on its stdin, answered on its
     * stdout. Throws if it does not answer within {@value #MEMORY_TIMEOUT_SECONDS} s.
     */
    @Override
    public synchronized MemoryReport memory() {
        memoryLines.clear();
        try {
            OutputStream in = process.getOutputStream();
            in.write((MemoryReport.REQUEST + "\n").getBytes(StandardCharsets.US_ASCII));
            in.flush();
            String line = memoryLines.poll(MEMORY_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (line == null) {
                throw new IllegalStateException(this + " did not report its memory within " + MEMORY_TIMEOUT_SECONDS
                        + " s" + (process.isAlive() ? "" : " (it has exited)"));
            }
            return MemoryReport.parse(line);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot ask " + this + " for its memory: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking " + this + " for its memory", e);
        }
    }

    /** Everything the process wrote to stderr so far (its log; leak reports would be here). */
    @Override
    public String stderr() {
        return log.read();
    }

    /** The command line it was started with. */
    public List<String> command() {
        return command;
    }

    /** The server processes of this JVM that have not been closed yet (a profiler attaches to these). */
    public static List<ServerProcess> live() {
        return List.copyOf(LIVE);
    }

    /**
     * Stops the server: SIGTERM (it shuts down gracefully and exits 0), SIGKILL if it has not exited after
     * {@value #STOP_TIMEOUT_SECONDS} s. Returns its exit code (137 when it had to be killed). Idempotent.
     */
    @Override
    public int stop() {
        try {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    kill(process);
                }
            }
            return process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            kill(process);
            return -1;
        } finally {
            LIVE.remove(this);
        }
    }

    @Override
    public void close() {
        stop();
    }

    private static void kill(Process p) {
        p.destroyForcibly();
        try {
            p.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return role + " pid " + process.pid() + " on " + hostPort();
    }
}
