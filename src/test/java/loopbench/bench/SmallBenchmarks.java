package loopbench.bench;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** End-to-end benchmarks set up small (few connections, one event loop each), for tests of where they run. */
final class SmallBenchmarks {
    private static final IterationParams MEASUREMENT = new IterationParams(IterationType.MEASUREMENT, 1,
            TimeValue.seconds(1), 1);

    private SmallBenchmarks() {
    }

    /** L{@code layer} proxy (or direct), 4 connections, 100-byte bodies. */
    static ProxyEndToEndBenchmark proxy(String layer, String placement) {
        ProxyEndToEndBenchmark b = new ProxyEndToEndBenchmark();
        b.layer = layer;
        b.threadModel = "reuse-server-thread";
        b.transport = "nio";
        b.allocator = "adaptive";
        b.connections = 4;
        b.bodySize = 100;
        b.maxContentLength = 8388608;
        b.l7Mode = "aggregate";
        b.backendPool = "per-client";
        b.ioThreads = 1;
        b.originIoThreads = 1;
        b.rate = 0;
        b.clientTransport = "nio";
        b.clientIoThreads = 1;
        b.placement = placement;
        return b;
    }

    /** Echo of 1 KiB messages on Netty, 2 connections. */
    static EchoEndToEndBenchmark echo(String placement) {
        EchoEndToEndBenchmark b = new EchoEndToEndBenchmark();
        b.server = "netty";
        b.messageSize = 1024;
        b.recvAllocator = "adaptive";
        b.allocator = "unpooled";
        b.buffers = "heap";
        b.executor = "none";
        b.connections = 2;
        b.ioThreads = 1;
        b.executorThreads = 1;
        b.clientTransport = "nio";
        b.clientIoThreads = 1;
        b.placement = placement;
        return b;
    }

    /** The one side file in {@code dir}, parsed. */
    static JsonObject onlySideFile(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> side = files.toList();
            assertEquals(1, side.size(), side::toString);
            return JsonParser.parseString(Files.readString(side.get(0))).getAsJsonObject();
        }
    }

    /** One measurement iteration of 200 operations of a started trial; its figures. */
    static Map<String, Double> oneIteration(AbstractEndToEndBenchmark b, Runnable op) {
        b.iterationStarted(MEASUREMENT);
        for (int i = 0; i < 200; i++) {
            op.run();
        }
        b.iterationEnded();
        return b.trial.lastIterationMetrics();
    }
}
