package loopbench.proxy;

import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UserHandlerTest {
    /** Not sharable: one per connection. */
    public static final class PerConnection extends ChannelInboundHandlerAdapter {
    }

    @Test
    void aSharableHandlerIsSharedAndAnyOtherMadePerConnection() {
        UserHandler shared = UserHandler.of(RequestIdHandler.class.getName());
        assertSame(shared.newHandler(), shared.newHandler());
        UserHandler own = UserHandler.of(PerConnection.class.getName());
        assertNotSame(own.newHandler(), own.newHandler());
        assertNull(UserHandler.of(UserHandler.NONE));
    }

    @Test
    void aWrongClassIsRefusedSayingWhy() {
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> UserHandler.of("com.example.NoSuchFilter"));
        assertTrue(missing.getMessage().contains("'com.example.NoSuchFilter' is not on the class path"),
                missing.getMessage());
        IllegalArgumentException notAHandler = assertThrows(IllegalArgumentException.class,
                () -> UserHandler.of("java.lang.String"));
        assertTrue(notAHandler.getMessage().contains("is not an io.netty.channel.ChannelHandler"),
                notAHandler.getMessage());
        IllegalArgumentException noConstructor = assertThrows(IllegalArgumentException.class,
                () -> UserHandler.of(ChannelHandlerWithArgument.class.getName()));
        assertTrue(noConstructor.getMessage().contains("no public no-argument constructor"),
                noConstructor.getMessage());
    }

    public static final class ChannelHandlerWithArgument extends ChannelInboundHandlerAdapter {
        public ChannelHandlerWithArgument(String unused) {
        }
    }

    /** The example filter tags each request, and that allocates on every request: a cost B/op will show. */
    @Test
    void theExampleFilterTagsEveryRequestAndAllocatesPerRequest() {
        EmbeddedChannel with = new EmbeddedChannel(UserHandler.of(RequestIdHandler.class.getName()).newHandler());
        EmbeddedChannel without = new EmbeddedChannel();
        try {
            FullHttpRequest r = request();
            with.writeInbound(r);
            FullHttpRequest out = with.readInbound();
            assertEquals(36, out.headers().get(RequestIdHandler.HEADER).length(), "a UUID");
            out.release();
            long base = allocatedPerRequest(without);
            long filtered = allocatedPerRequest(with);
            assertTrue(filtered - base >= 36, "the filter allocates per request: " + filtered + " B against " + base);
        } finally {
            with.finishAndReleaseAll();
            without.finishAndReleaseAll();
        }
    }

    private static FullHttpRequest request() {
        return new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
    }

    /** Bytes this thread allocated per request sent through {@code ch} (after a warm-up), from the JVM's count. */
    private static long allocatedPerRequest(EmbeddedChannel ch) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        int n = 20_000;
        for (int pass = 0; pass < 2; pass++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < n; i++) {
                ch.writeInbound(request());
                ((FullHttpRequest) ch.readInbound()).release();
            }
            if (pass == 1) {
                return (threads.getCurrentThreadAllocatedBytes() - before) / n;
            }
        }
        throw new AssertionError();
    }
}
