package loopbench.process;

import loopbench.metrics.MemoryReport;
import loopbench.metrics.ProcStat;

import java.util.Map;

/**
 * A component of an end-to-end run that is a process of its own, started, measured and stopped by the run: a
 * loopbench server in a child JVM ({@link ServerProcess}), a gateway started from a command template
 * ({@link ExternalProcess}), or a server on another machine (the topology package's SSH hosts). Whatever it is, the
 * run reads its CPU time, context switches and I/O from /proc of the machine it runs on, and it never outlives the
 * run.
 */
public interface MeasuredProcess extends AutoCloseable {
    /** What it is in the run: proxy, origin, echo. */
    String role();

    /** {@code HOST:PORT} where it accepts, as a {@code --backend} option or a load target wants it. */
    String hostPort();

    boolean isAlive();

    /** CPU time and context switches so far. */
    ProcStat.Snapshot procStat();

    /** Bytes read and written with read/write system calls so far. */
    ProcStat.Io io();

    /** What it logged on stderr so far (to explain a failure). */
    String stderr();

    /**
     * What it said it runs on: loopbench's servers name their Netty, transport and epoll mode in their ready line
     * ({@code netty=4.2.18.Final transport=epoll ...}); a gateway that is not loopbench's says nothing (empty).
     */
    default Map<String, String> stack() {
        return Map.of();
    }

    /**
     * What it holds in memory now, as it reads it itself ({@link MemoryReport}), or null for a process that cannot say
     * (a gateway that is not loopbench's; a server on another machine, whose link carries /proc counters only).
     */
    default MemoryReport memory() {
        return null;
    }

    /** Stops it (gracefully, then forcibly) and returns its exit code; idempotent. */
    int stop();

    @Override
    default void close() {
        stop();
    }
}
