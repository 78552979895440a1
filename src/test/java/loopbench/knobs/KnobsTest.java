package loopbench.knobs;

import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import loopbench.proxy.Layer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The knobs' spellings and the Mina-style read-buffer predictor (the C003 article, C003-2). */
class KnobsTest {

    @Test
    void everyKnobParsesItsOwnCliNameAndNamesTheValidOnesOtherwise() {
        for (Transport t : Transport.values()) {
            assertSame(t, Transport.parse(t.cliName()));
        }
        for (Allocator a : Allocator.values()) {
            assertSame(a, Allocator.parse(a.cliName()));
        }
        for (ThreadModel m : ThreadModel.values()) {
            assertSame(m, ThreadModel.parse(m.cliName()));
        }
        for (Layer l : Layer.values()) {
            assertSame(l, Layer.parse(l.cliName()));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ThreadModel.parse("fast"));
        assertEquals("unknown thread model 'fast'; valid values: individual-group, reuse-server-group, "
                + "reuse-server-thread",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Transport.parse(null));
    }

    @Tag("jdk25") // also on JDK 25 (Unsafe flags)
    @Test
    void allocatorInstancesAreSharedPerKindAndBufferType() {
        for (Allocator a : Allocator.values()) {
            assertSame(a.instance(BufferType.DIRECT), a.instance(BufferType.DIRECT));
            assertTrue(a.instance(BufferType.DIRECT).buffer(8).release());
            var heap = a.instance(BufferType.HEAP).buffer(8);
            assertTrue(!heap.isDirect());
            heap.release();
        }
    }

    /** Feeds reads of the given sizes to a handle and returns the guess after each. */
    @SuppressWarnings("deprecation") // RecvByteBufAllocator.Handle: what Netty's channels still call
    private static int[] guesses(RecvByteBufAllocator allocator, int... reads) {
        EmbeddedChannel ch = new EmbeddedChannel();
        try {
            RecvByteBufAllocator.Handle h = allocator.newHandle();
            int[] out = new int[reads.length];
            for (int i = 0; i < reads.length; i++) {
                h.reset(ch.config());
                h.attemptedBytesRead(h.guess());
                h.lastBytesRead(Math.min(reads[i], h.guess()));
                h.readComplete();
                out[i] = h.guess();
            }
            return out;
        } finally {
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void halvingDoublesOnAFullReadAndHalvesOnTheSecondSmallReadInARow() {
        HalvingRecvByteBufAllocator a = new HalvingRecvByteBufAllocator();
        assertEquals(2048, a.newHandle().guess());
        // full -> 4096; small (forgiven); small -> 2048; small (forgiven); small -> 1024; half-full: no change
        int[] g = guesses(a, 2048, 100, 100, 100, 100, 600);
        assertEquals("[4096, 4096, 2048, 2048, 1024, 1024]", java.util.Arrays.toString(g));
        // 3000-byte reads: the first fills 2048 and doubles; then between half and full, nothing changes.
        int[] steady = guesses(a, 3000, 3000, 3000, 3000);
        assertEquals("[4096, 4096, 4096, 4096]", java.util.Arrays.toString(steady));
        // Bounds: never above 64 KiB, never below 64 bytes.
        int[] up = guesses(a, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20, 1 << 20);
        assertEquals(65536, up[up.length - 1]);
        int[] down = new int[40];
        java.util.Arrays.fill(down, 1);
        int[] low = guesses(a, down);
        assertEquals(64, low[low.length - 1]);
        assertThrows(IllegalArgumentException.class, () -> new HalvingRecvByteBufAllocator(0, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> new HalvingRecvByteBufAllocator(64, 32, 128));
    }

    @Test
    void fixedRecvAllocatorAlwaysGuessesItsSize() {
        int[] g = guesses(RecvAllocator.fixed(2048).create(), 2048, 10, 2048, 5);
        assertEquals("[2048, 2048, 2048, 2048]", java.util.Arrays.toString(g));
    }
}
