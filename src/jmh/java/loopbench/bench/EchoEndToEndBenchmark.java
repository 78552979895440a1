package loopbench.bench;

import loopbench.echo.EchoExecutor;
import loopbench.knobs.RecvAllocator;
import loopbench.load.LoadSpec;
import loopbench.load.Target;
import loopbench.process.MeasuredProcess;
import loopbench.report.EndToEndMetrics;
import loopbench.topology.Role;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Echo by message size: how do messages/s and MB/s fall as messages grow, what does the receive-buffer predictor
 * change, and what does handing every message to an executor cost in CPU? (claims C003-1, C003-2, C003-3)
 *
 * <p>The article behind C003 ("netty与mina性能对比测评分析", 2013) loaded a Netty 3 and an Apache Mina echo server
 * with jmeter over 1 GbE, messages of 1k to 100k: TPS fell in inverse proportion to the size once the link was
 * full (about 100 MB/s), Mina's double/halve read buffer jittered at 5k, and an executor per message doubled the
 * CPU at the same TPS. Here: the echo server ({@code loopbench echo}, its own JVM; {@code server=netty}, or
 * {@code server=mina}: Apache Mina itself, with its own read-buffer sizing) and the load generator in this JMH
 * fork, {@code connections} connections each sending one {@code messageSize} message and waiting for all of it to
 * come back (every byte compared). {@code recvAllocator}: Netty's adaptive predictor, a fixed 2 KiB buffer, or
 * Mina's double/halve ({@code halving}: on Netty, Mina's rule as a RecvByteBufAllocator; on Mina, Mina's own).
 * {@code executor}: {@code none} (echo on the event loop) or {@code group} (on a DefaultEventExecutorGroup, or
 * Mina's ExecutorFilter).
 *
 * <p>Score: messages per second, timed by JMH; secondary {@code e2e.echo.MiB/s}, and with
 * {@code -prof loopbench.bench.EndToEndProfiler} CPU-µs per message of the client and the echo server.
 *
 * <p>What loopback cannot show: a link that saturates. Loopback moves several GB/s, so there the CPU, not the
 * wire, bounds large messages. With {@code topology=netns} and {@code link=1gbit} the echo server has a host of
 * its own behind a 1 Gbit/s link (a veth pair shaped by tc tbf in both directions), so C003-1's ceiling exists:
 * about 114 MiB/s of TCP payload each way at 1500-byte frames (tbf counts no preamble, gap or FCS; a real GbE
 * carries about 112).
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar EchoEndToEndBenchmark -p messageSize=1024,5120
 * -prof loopbench.bench.EndToEndProfiler}; over the link (C003-1, as root): {@code java -jar
 * target/benchmarks.jar EchoEndToEndBenchmark -p topology=netns -p link=1gbit -p executor=none
 * -prof loopbench.bench.EndToEndProfiler}
 */
public class EchoEndToEndBenchmark extends AbstractEndToEndBenchmark {
    /** netty, or mina (Apache Mina's echo server, through {@code echo --server mina}). */
    @Param({"netty"})
    public String server;

    @Param({"1024", "5120", "10240", "51200", "102400"})
    public int messageSize;

    @Param({"adaptive"})
    public String recvAllocator;

    @Param({"none", "group"})
    public String executor;

    /**
     * The echo server's allocator and buffers: unpooled heap buffers for both frameworks by default, as Netty 3 and
     * Mina 2.0 used them in 2013, so that the read-buffer predictor is the only difference (Mina accepts only
     * unpooled).
     */
    @Param({"unpooled"})
    public String allocator;

    @Param({"heap"})
    public String buffers;

    @Param({"32"})
    public int connections;

    /** The echo server's event loops (Mina: I/O processors), one per core as in the article. */
    @Param({"2"})
    public int ioThreads;

    /** The executor's threads, one per core as in the article. */
    @Param({"2"})
    public int executorThreads;

    /** The echo server gets CPUs of its own. */
    @Override
    protected List<Role> components() {
        return List.of(Role.ECHO, Role.CLIENT);
    }

    @Override
    protected void start(EndToEndTrial trial) throws Exception {
        RecvAllocator.parse(recvAllocator);
        EchoExecutor.parse(executor);
        List<String> args = new ArrayList<>();
        if (!"netty".equals(server)) {
            args.addAll(List.of("--server", server));
        }
        args.addAll(List.of("--recv-allocator", recvAllocator, "--executor", executor,
                "--allocator", allocator, "--buffers", buffers,
                "--io-threads", Integer.toString(ioThreads), "--executor-threads", Integer.toString(executorThreads)));
        MeasuredProcess echo = trial.startServer(EndToEndMetrics.ECHO, "echo", args);
        trial.messageBytes(messageSize);
        trial.startLoad(onClientLoops(LoadSpec.closedLoop(Target.parse("tcp://" + echo.hostPort()))
                .withMessageSize(messageSize)
                .withConnections(connections)
                .withDuration(Duration.ofHours(1)))); // a bound; the trial ends it long before
    }

    /** One message echoed back whole. */
    @Benchmark
    public long messages() {
        return trial.nextCompleted();
    }
}
