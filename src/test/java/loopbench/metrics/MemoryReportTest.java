package loopbench.metrics;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.Version;
import io.netty.util.internal.PlatformDependent;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The memory figures against the allocators' own metrics in a controlled test: N direct buffers of a known size taken
 * from a fresh allocator of each kind, the report read while they live and after they are released. Every report
 * names the Netty it ran on.
 */
class MemoryReportTest {
    static final int N = 64;
    static final int SIZE = 16 * 1024;

    private static List<ByteBuf> take(ByteBufAllocator a) {
        List<ByteBuf> held = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            ByteBuf b = a.directBuffer(SIZE, SIZE);
            b.writeZero(SIZE);
            held.add(b);
        }
        return held;
    }

    private static long allocatorsOwn(ByteBufAllocator a) {
        return ((ByteBufAllocatorMetricProvider) a).metric().usedDirectMemory();
    }

    @Test
    void pooledReportsItsChunksAsReservedAndItsLiveBuffersAsInUse() {
        PooledByteBufAllocator pooled = new PooledByteBufAllocator(true);
        List<ByteBuf> held = take(pooled);
        MemoryReport live = MemoryReport.of(pooled, "pooled");
        assertEquals(allocatorsOwn(pooled), live.figures().get(MemoryReport.ALLOCATOR_DIRECT_RESERVED));
        assertEquals(pooled.pinnedDirectMemory(), live.figures().get(MemoryReport.ALLOCATOR_DIRECT_IN_USE));
        assertTrue(live.figures().get(MemoryReport.ALLOCATOR_DIRECT_IN_USE) >= (long) N * SIZE, live::line);
        assertTrue(live.figures().get(MemoryReport.ALLOCATOR_DIRECT_RESERVED)
                >= live.figures().get(MemoryReport.ALLOCATOR_DIRECT_IN_USE), live::line);
        held.forEach(ByteBuf::release);
        MemoryReport after = MemoryReport.of(pooled, "pooled");
        assertEquals(0L, after.figures().get(MemoryReport.ALLOCATOR_DIRECT_IN_USE), after::line);
        assertEquals(allocatorsOwn(pooled), after.figures().get(MemoryReport.ALLOCATOR_DIRECT_RESERVED),
                "the pool keeps its chunks: " + after.line());
    }

    @Test
    void unpooledReportsExactlyItsLiveBuffersAndNettysCounterFollows() {
        UnpooledByteBufAllocator unpooled = new UnpooledByteBufAllocator(true);
        long counterBefore = PlatformDependent.usedDirectMemory();
        List<ByteBuf> held = take(unpooled);
        MemoryReport live = MemoryReport.of(unpooled, "unpooled");
        assertEquals((long) N * SIZE, live.figures().get(MemoryReport.ALLOCATOR_DIRECT_RESERVED), live::line);
        assertEquals((long) N * SIZE, live.figures().get(MemoryReport.ALLOCATOR_DIRECT_IN_USE), live::line);
        if (counterBefore >= 0) { // Netty counts its direct memory (no cleaner, with Unsafe): the test JVM's case
            assertTrue(live.figures().get(MemoryReport.NETTY_DIRECT) - counterBefore >= (long) N * SIZE, live::line);
        }
        held.forEach(ByteBuf::release);
        MemoryReport after = MemoryReport.of(unpooled, "unpooled");
        assertEquals(0L, after.figures().get(MemoryReport.ALLOCATOR_DIRECT_RESERVED), after::line);
    }

    @Test
    void adaptiveReportsWhatItsMetricSaysAndNoInUseFigureItsApiDoesNotGive() {
        AdaptiveByteBufAllocator adaptive = new AdaptiveByteBufAllocator(true);
        List<ByteBuf> held = take(adaptive);
        MemoryReport live = MemoryReport.of(adaptive, "adaptive");
        assertEquals(allocatorsOwn(adaptive), live.figures().get(MemoryReport.ALLOCATOR_DIRECT_RESERVED));
        assertTrue(live.figures().get(MemoryReport.ALLOCATOR_DIRECT_RESERVED) >= (long) N * SIZE, live::line);
        assertFalse(live.figures().containsKey(MemoryReport.ALLOCATOR_DIRECT_IN_USE), live::line);
        held.forEach(ByteBuf::release);
    }

    @Test
    void theProcessFiguresAreThereAndEveryReportNamesItsNetty() {
        MemoryReport r = MemoryReport.of(null, "ignored");
        assertEquals(MemoryReport.NO_ALLOCATOR, r.allocator());
        assertFalse(r.figures().containsKey(MemoryReport.ALLOCATOR_DIRECT_RESERVED));
        assertTrue(r.figures().get(MemoryReport.RSS) > 0, r::line);
        System.gc(); // the heap after a collection exists once one has run
        assertTrue(MemoryReport.of(null, "x").figures().get(MemoryReport.HEAP_AFTER_GC) > 0);
        String netty = Version.identify().get("netty-common").artifactVersion();
        assertEquals(netty, r.netty());
        assertTrue(r.line().startsWith("memory netty=" + netty + " allocator=none "), r.line());
    }

    @Test
    void aLineParsesBackAndAnythingElseIsRefusedNamingIt() {
        MemoryReport r = new MemoryReport("4.1.136.Final", "pooled", Map.of(MemoryReport.RSS, 123L,
                MemoryReport.ALLOCATOR_DIRECT_RESERVED, 4194304L));
        assertEquals(r, MemoryReport.parse(r.line()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> MemoryReport.parse("memory netty=x allocator=y mystery=1"));
        assertTrue(e.getMessage().contains("unknown figure 'mystery'") && e.getMessage().contains("valid: "),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MemoryReport.parse("memory netty=x allocator=y rss=lots"));
        assertThrows(IllegalArgumentException.class, () -> MemoryReport.parse("memory rss=1"));
        assertThrows(IllegalArgumentException.class, () -> MemoryReport.parse("listening on 127.0.0.1:1"));
    }
}
