package loopbench.origin;

import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Conn;
import loopbench.testing.RawHttp.Response;
import loopbench.testing.Rig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every --work-strategy of the origin answers correctly with --work-ms 5: sequential requests, pipelined requests
 * (answered in order, whichever thread did the work), several connections at once. virtual-thread needs JDK 21: on
 * an older JVM the origin refuses to start with a clear error, on JDK 21+ it serves like the others. Tagged jdk25,
 * so that this class also runs on the JDK 25 (see the jdk25-tests profile in pom.xml).
 */
@Tag("jdk25")
class OriginWorkStrategyTest {
    static final int WORK_MS = 5;
    static final int BODY = 2048;

    private static OriginConfig config(WorkStrategy strategy) {
        return OriginConfig.of(BODY).withWork(strategy == WorkStrategy.NONE ? 0 : WORK_MS, strategy);
    }

    private static boolean runnableHere(WorkStrategy strategy) {
        return strategy != WorkStrategy.VIRTUAL_THREAD || Runtime.version().feature() >= 21;
    }

    @ParameterizedTest
    @EnumSource(WorkStrategy.class)
    void answersCorrectlySequentialPipelinedAndConcurrent(WorkStrategy strategy) throws Exception {
        if (!runnableHere(strategy)) {
            virtualThreadsNeedJdk21(); // asserted instead (the test below does so too, on its own)
            return;
        }
        assertTrue(strategy.isSupported());
        try (LoopbackServer origin = OriginServer.start(Rig.options(), config(strategy))) {
            sequential(origin.port());
            pipelined(origin.port(), 0);
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                List<Future<?>> results = new ArrayList<>();
                for (int i = 0; i < 6; i++) {
                    int id = i + 1;
                    results.add(pool.submit(() -> {
                        pipelined(origin.port(), id);
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
        Rig.assertNoThreads("origin");
    }

    private static void sequential(int port) throws Exception {
        try (Conn c = RawHttp.open(port)) {
            for (int i = 0; i < 5; i++) {
                Response get = c.exchange(RawHttp.get("/" + i));
                assertEquals(200, get.status(), get::toString);
                assertEquals(String.valueOf(BODY), get.header("Content-Length"));
                assertArrayEquals(ResponseBody.bytes(BODY), get.body());
                byte[] body = RawHttp.uniqueBody(i, 10_000 + i);
                Response post = c.exchange(RawHttp.post("/" + i, body));
                assertEquals(200, post.status(), post::toString);
                assertArrayEquals(body, post.body());
            }
        }
    }

    /** Ten requests in one write, alternating GET and POST with distinct bodies: the answers must come in order. */
    private static void pipelined(int port, int seed) throws Exception {
        ByteArrayOutputStream requests = new ByteArrayOutputStream();
        List<byte[]> expected = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            if (i % 2 == 0) {
                requests.writeBytes(RawHttp.get("/p" + i));
                expected.add(ResponseBody.bytes(BODY));
            } else {
                byte[] body = RawHttp.uniqueBody(seed * 100 + i, 1000 * i);
                requests.writeBytes(RawHttp.post("/p" + i, body));
                expected.add(body);
            }
        }
        try (Conn c = RawHttp.open(port)) {
            CompletableFuture<Void> sent = c.sendInBackground(requests.toByteArray(), null);
            for (int i = 0; i < expected.size(); i++) {
                Response r = c.read();
                assertEquals(200, r.status(), r::toString);
                assertArrayEquals(expected.get(i), r.body(), "pipelined response " + i);
            }
            RawHttp.await(sent, 30);
        }
    }

    @Test
    void virtualThreadsNeedJdk21() throws Exception {
        if (Runtime.version().feature() >= 21) {
            assertTrue(WorkStrategy.VIRTUAL_THREAD.isSupported());
            assertEquals(WorkStrategy.VIRTUAL_THREAD, WorkStrategy.VIRTUAL_THREAD.ensureSupported());
            return;
        }
        assertTrue(!WorkStrategy.VIRTUAL_THREAD.isSupported());
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> OriginServer.start(Rig.options(), config(WorkStrategy.VIRTUAL_THREAD)).close());
        assertTrue(e.getMessage().contains("JDK 21"), e.getMessage());
        assertTrue(e.getMessage().contains("virtual-thread"), e.getMessage());
        assertTrue(e.getMessage().contains(String.valueOf(Runtime.version().feature())), e.getMessage());
        Rig.assertNoThreads("origin"); // refused before starting anything
    }

    /** block-event-loop really runs on the event loop and timer blocks nothing: both still answer in order. */
    @Test
    void blockingAndTimerWorkDoNotMixUpConnections() throws Exception {
        for (WorkStrategy s : new WorkStrategy[] {WorkStrategy.BLOCK_EVENT_LOOP, WorkStrategy.TIMER}) {
            try (LoopbackServer origin = OriginServer.start(Rig.options().withIoThreads(1), config(s));
                 Conn a = RawHttp.open(origin.port());
                 Conn b = RawHttp.open(origin.port())) {
                byte[] ba = RawHttp.uniqueBody(1, 5000);
                byte[] bb = RawHttp.uniqueBody(2, 6000);
                a.send(RawHttp.concat(RawHttp.post("/a", ba), RawHttp.get("/a")));
                b.send(RawHttp.concat(RawHttp.post("/b", bb), RawHttp.get("/b")));
                assertArrayEquals(bb, b.read().body());
                assertArrayEquals(ba, a.read().body());
                assertArrayEquals(ResponseBody.bytes(BODY), a.read().body());
                assertArrayEquals(ResponseBody.bytes(BODY), b.read().body());
            }
        }
    }
}
