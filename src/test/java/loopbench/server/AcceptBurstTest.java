package loopbench.server;

import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import loopbench.knobs.Transport;
import loopbench.line.NettyLine;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A burst of connections waiting in the accept queue is accepted in one wake-up of the event loop, not one (epoll's
 * default in Netty 4.2) or 16 (NIO's) per pass over every ready connection: under load the rest waited seconds.
 * The loop is held busy while the clients connect (the kernel completes their handshakes into the backlog), then
 * released; a task the first accepted channel schedules runs only after the loop's I/O phase, so the number of
 * channels initialised before it ran is the size of the first accept batch.
 */
class AcceptBurstTest {
    private static final int BURST = 200;

    @ParameterizedTest
    @EnumSource(Transport.class)
    void aQueuedBurstIsAcceptedInOneWakeUp(Transport transport) throws Exception {
        Assumptions.assumeTrue(transport.isAvailable(), transport + " is not available here");
        Assumptions.assumeTrue(transport.batchAccepts(), () -> transport + " keeps its own accept pace on Netty "
                + NettyLine.current().version() + " (one accept in flight per wake-up; see NettyLine)");
        AtomicInteger initialised = new AtomicInteger();
        AtomicInteger firstBatch = new AtomicInteger(-1);
        AtomicReference<Channel> anyChild = new AtomicReference<>();
        CountDownLatch allAccepted = new CountDownLatch(BURST);
        AtomicReference<ServerContext> contextRef = new AtomicReference<>();
        ServerOptions options = ServerOptions.loopbackDefaults().withTransport(transport).withIoThreads(1);
        try (LoopbackServer server = LoopbackServer.start("burst", options, context -> {
            contextRef.set(context);
            return new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    if (initialised.incrementAndGet() == 1) {
                        anyChild.set(ch);
                        ch.eventLoop().execute(() -> firstBatch.set(initialised.get()));
                    }
                    allAccepted.countDown();
                }
            };
        })) {
            CountDownLatch loopHeld = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            contextRef.get().workers().next().execute(() -> {
                loopHeld.countDown();
                awaitQuietly(release);
            });
            assertTrue(loopHeld.await(10, TimeUnit.SECONDS));
            List<Socket> clients = new ArrayList<>();
            try {
                for (int i = 0; i < BURST; i++) {
                    clients.add(new Socket(server.address().getAddress(), server.address().getPort()));
                }
                release.countDown();
                assertTrue(allAccepted.await(10, TimeUnit.SECONDS), "accepted " + initialised.get() + " of " + BURST);
                anyChild.get().eventLoop().submit(() -> { }).sync(); // the first batch's task has run by now
                assertEquals(BURST, firstBatch.get(), "connections accepted in the first wake-up");
            } finally {
                release.countDown();
                for (Socket s : clients) {
                    s.close();
                }
            }
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
