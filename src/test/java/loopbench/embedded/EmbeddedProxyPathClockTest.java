package loopbench.embedded;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.ThreadModel;
import loopbench.origin.OriginConfig;
import loopbench.origin.OriginServer;
import loopbench.proxy.L7Mode;
import loopbench.proxy.Layer;
import loopbench.proxy.ProxyConfig;
import loopbench.proxy.ProxyTimeouts;
import loopbench.server.ServerResources;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The embedded path runs its channels on a clock it moves once per pump: what the proxy schedules still happens when
 * its time has come (here the client header timeout's 408), and not before.
 */
class EmbeddedProxyPathClockTest {

    @Test
    void aTimerOfTheProxyFiresOnceItsTimeHasPassedBetweenPumps() throws Exception {
        Duration header = Duration.ofMillis(200);
        ProxyTimeouts timeouts = new ProxyTimeouts(header, Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO,
                Duration.ZERO);
        ProxyConfig config = new ProxyConfig(Layer.L7, new InetSocketAddress("127.0.0.1", 8080),
                ThreadModel.REUSE_SERVER_THREAD, ProxyConfig.DEFAULT_MAX_CONTENT_LENGTH, L7Mode.AGGREGATE)
                .withTimeouts(timeouts);
        ByteBufAllocator alloc = Allocator.UNPOOLED.instance(BufferType.HEAP);
        ServerResources resources = new ServerResources("clock-test");
        try (EmbeddedProxyPath path = EmbeddedProxyPath.proxy(config,
                OriginServer.initializer(OriginConfig.of(16), resources), alloc)) {
            ByteBuf response = Unpooled.buffer();
            try {
                path.exchange(ascii("GET / HTTP/1.1\r\nHost: x\r\n"), response); // half a head
                assertEquals(0, response.readableBytes(), "nothing is due yet");
                Thread.sleep(header.toMillis() + 100);
                path.exchange(Unpooled.EMPTY_BUFFER, response); // the next pump moves the clock past the limit
                String text = response.toString(StandardCharsets.US_ASCII);
                assertTrue(text.startsWith("HTTP/1.1 408 "), text);
            } finally {
                response.release();
            }
        } finally {
            resources.close();
        }
    }

    @Test
    void aFollowedChannelRunsOnlyWhatItsOwnerClockMakesDue() throws Exception {
        EmbeddedSocket ch = new EmbeddedSocket(new io.netty.channel.ChannelInboundHandlerAdapter(),
                new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 2),
                Allocator.UNPOOLED.instance(BufferType.HEAP), true).open();
        try {
            ch.followClock(0); // frozen from here
            AtomicInteger ran = new AtomicInteger();
            ch.eventLoop().schedule(ran::incrementAndGet, 1, TimeUnit.MILLISECONDS);
            Thread.sleep(20);
            ch.runPendingTasks();
            assertEquals(0, ran.get(), "real time passed, the channel's clock did not");
            ch.followClock(TimeUnit.MILLISECONDS.toNanos(2));
            ch.runPendingTasks();
            assertEquals(1, ran.get(), "due once the owner moved the clock past it");
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    private static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
    }
}
