package loopbench.load;

import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.Transport;

import java.time.Duration;
import java.util.Locale;

/**
 * One load run: what to load, how hard, for how long, and on which event-loop knobs (the same knobs as the
 * servers: transport, allocator, buffers, io threads).
 *
 * @param target      the server to load
 * @param connections connections kept open for the whole run
 * @param pipeline    requests in flight per connection at most (HTTP/1.1 pipelining; 1 = wait for each response)
 * @param rate        open loop: requests per second in total, paced per connection; null = closed loop (each
 *                    connection sends its next request as soon as a response frees a slot)
 * @param duration    how long to measure after the warm-up
 * @param requests    closed or open loop: stop after this many measured requests (0 = only the duration bounds
 *                    the run); the run ends at whichever bound comes first
 * @param warmup      how long to send requests that are not recorded before measuring
 * @param method      GET or POST (HTTP only)
 * @param bodySize    bytes of every POST body (HTTP only)
 * @param messageSize bytes of every echo message (tcp only): sent, then awaited back and compared
 * @param timeout     a request without a complete response after this long fails (and its connection is replaced)
 * @param connectionClose a new connection per request, as ab without -k: connect, send the request (HTTP: with
 *                    {@code Connection: close}), read the whole response, close; the connect counts in the
 *                    request's latency. {@code connections} is then the number of concurrent clients, each with one
 *                    request at a time ({@code pipeline} 1)
 */
public record LoadSpec(Target target, int connections, int pipeline, Double rate, Duration duration, long requests,
                       Duration warmup, String method, int bodySize, int messageSize, Transport transport,
                       Allocator allocator, BufferType buffers, int ioThreads, Duration timeout,
                       boolean connectionClose) {

    public static final int DEFAULT_CONNECTIONS = 64;
    public static final int DEFAULT_MESSAGE_SIZE = 1024;
    public static final Duration DEFAULT_DURATION = Duration.ofSeconds(10);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    /** Enough for 1,000,000 pipelined requests per second per connection: any larger value is a typo. */
    public static final int MAX_PIPELINE = 1024;
    public static final int MAX_CONNECTIONS = 100_000;

    public LoadSpec {
        method = method == null ? "GET" : method.toUpperCase(Locale.ROOT);
        if (connections < 1 || connections > MAX_CONNECTIONS) {
            throw new IllegalArgumentException("connections must be 1.." + MAX_CONNECTIONS + ", was " + connections);
        }
        if (pipeline < 1 || pipeline > MAX_PIPELINE) {
            throw new IllegalArgumentException("pipeline must be 1.." + MAX_PIPELINE + ", was " + pipeline);
        }
        if (connectionClose && pipeline != 1) {
            throw new IllegalArgumentException("--connection-close sends one request per connection: pipeline must "
                    + "be 1, was " + pipeline);
        }
        if (rate != null && !(rate > 0 && rate <= 100_000_000)) {
            throw new IllegalArgumentException("rate must be a number of requests per second > 0 (and at most 1e8), "
                    + "was " + rate + "; leave it out for a closed loop");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be > 0, was " + Durations.format(duration));
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("warmup must be >= 0, was " + warmup);
        }
        if (requests < 0) {
            throw new IllegalArgumentException("requests must be >= 0 (0 = bounded by the duration only), was "
                    + requests);
        }
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be > 0, was " + Durations.format(timeout));
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("io threads must be at least 1, was " + ioThreads);
        }
        if (target.protocol() == Target.Protocol.HTTP) {
            if (!method.equals("GET") && !method.equals("POST")) {
                throw new IllegalArgumentException("unknown method '" + method + "'; valid methods: GET, POST");
            }
            if (bodySize < 0 || (bodySize > 0 && method.equals("GET"))) {
                throw new IllegalArgumentException(bodySize < 0 ? "body size must be >= 0, was " + bodySize
                        : "--body-size needs --method POST (a GET has no body)");
            }
        } else {
            if (messageSize < 1) {
                throw new IllegalArgumentException("message size must be >= 1 byte, was " + messageSize);
            }
            if (!method.equals("GET") || bodySize != 0) {
                throw new IllegalArgumentException("--method and --body-size are for http:// targets; a tcp:// target "
                        + "sends --message-size bytes and awaits them back");
            }
        }
    }

    /**
     * A closed loop of 64 keep-alive connections, 1 request in flight each, for 10 s, on one NIO event loop with the
     * adaptive allocator.
     */
    public static LoadSpec closedLoop(Target target) {
        return new LoadSpec(target, DEFAULT_CONNECTIONS, 1, null, DEFAULT_DURATION, 0, Duration.ZERO, "GET", 0,
                DEFAULT_MESSAGE_SIZE, Transport.NIO, Allocator.ADAPTIVE, BufferType.DIRECT, 1, DEFAULT_TIMEOUT,
                false);
    }

    public boolean openLoop() {
        return rate != null;
    }

    public LoadSpec withConnections(int n) {
        return new LoadSpec(target, n, pipeline, rate, duration, requests, warmup, method, bodySize, messageSize,
                transport, allocator, buffers, ioThreads, timeout, connectionClose);
    }

    public LoadSpec withPipeline(int depth) {
        return new LoadSpec(target, connections, depth, rate, duration, requests, warmup, method, bodySize, messageSize,
                transport, allocator, buffers, ioThreads, timeout, connectionClose);
    }

    public LoadSpec withRate(Double requestsPerSecond) {
        return new LoadSpec(target, connections, pipeline, requestsPerSecond, duration, requests, warmup, method,
                bodySize, messageSize, transport, allocator, buffers, ioThreads, timeout, connectionClose);
    }

    public LoadSpec withDuration(Duration d) {
        return new LoadSpec(target, connections, pipeline, rate, d, requests, warmup, method, bodySize, messageSize,
                transport, allocator, buffers, ioThreads, timeout, connectionClose);
    }

    public LoadSpec withRequests(long n) {
        return new LoadSpec(target, connections, pipeline, rate, duration, n, warmup, method, bodySize, messageSize,
                transport, allocator, buffers, ioThreads, timeout, connectionClose);
    }

    public LoadSpec withWarmup(Duration d) {
        return new LoadSpec(target, connections, pipeline, rate, duration, requests, d, method, bodySize, messageSize,
                transport, allocator, buffers, ioThreads, timeout, connectionClose);
    }

    public LoadSpec withPost(int bytes) {
        return new LoadSpec(target, connections, pipeline, rate, duration, requests, warmup, "POST", bytes, messageSize,
                transport, allocator, buffers, ioThreads, timeout, connectionClose);
    }

    public LoadSpec withMessageSize(int bytes) {
        return new LoadSpec(target, connections, pipeline, rate, duration, requests, warmup, method, bodySize, bytes,
                transport, allocator, buffers, ioThreads, timeout, connectionClose);
    }

    public LoadSpec withEventLoops(Transport t, Allocator a, BufferType b, int threads) {
        return new LoadSpec(target, connections, pipeline, rate, duration, requests, warmup, method, bodySize,
                messageSize, t, a, b, threads, timeout, connectionClose);
    }

    public LoadSpec withTimeout(Duration d) {
        return new LoadSpec(target, connections, pipeline, rate, duration, requests, warmup, method, bodySize,
                messageSize, transport, allocator, buffers, ioThreads, d, connectionClose);
    }

    /** A new connection per request ({@code connectionClose}): pipeline 1. */
    public LoadSpec withConnectionClose(boolean close) {
        return new LoadSpec(target, connections, pipeline, rate, duration, requests, warmup, method, bodySize,
                messageSize, transport, allocator, buffers, ioThreads, timeout, close);
    }

    /** Bytes of one request (HTTP: request line, headers and body) or one echo message. */
    public int requestBytes() {
        return target.protocol() == Target.Protocol.HTTP ? HttpRequests.encode(this).length : messageSize;
    }
}
