package loopbench.echo;

import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * What every echo server's test asks of it, Netty's and Mina's alike: each message of each size comes back intact,
 * first one after another on one connection (for some rounds), then on several connections at once, each with
 * messages of its own.
 */
final class EchoRoundTrips {
    private EchoRoundTrips() {
    }

    static void check(int port, int[] sizes, int rounds, int clients) throws Exception {
        try (Conn c = RawHttp.open(port)) {
            for (int round = 0; round < rounds; round++) {
                for (int size : sizes) {
                    roundTrip(c, RawHttp.uniqueBody(round * 1000 + size, size));
                }
            }
        }
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<?>> results = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                int id = i;
                results.add(pool.submit(() -> {
                    try (Conn c = RawHttp.open(port)) {
                        for (int size : sizes) {
                            roundTrip(c, RawHttp.uniqueBody(id * 7919 + size, size));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : results) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** Writes the message from another thread (the echo may come back before the write returns), reads it back. */
    static void roundTrip(Conn c, byte[] message) throws Exception {
        CompletableFuture<Void> sent = c.sendInBackground(message, null);
        assertArrayEquals(message, RawHttp.readExactly(c.in(), message.length), message.length + " B round trip");
        RawHttp.await(sent, 30);
    }
}
