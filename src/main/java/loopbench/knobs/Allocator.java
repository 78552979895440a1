package loopbench.knobs;

import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.util.EnumMap;
import java.util.Map;

/**
 * Which {@link ByteBufAllocator} the channels use (claim C000-6). Netty 4.2's default is
 * {@link #ADAPTIVE}. One instance per (allocator, buffer type) per JVM, as a real server would hold it:
 * a fresh pooled allocator per server would measure arena warm-up, not steady state.
 */
public enum Allocator implements Knob {
    POOLED("pooled"),
    UNPOOLED("unpooled"),
    ADAPTIVE("adaptive");

    private static final Map<Allocator, ByteBufAllocator> DIRECT = new EnumMap<>(Allocator.class);
    private static final Map<Allocator, ByteBufAllocator> HEAP = new EnumMap<>(Allocator.class);

    private final String cliName;

    Allocator(String cliName) {
        this.cliName = cliName;
    }

    /** The shared allocator of this kind that prefers direct or heap buffers. */
    public ByteBufAllocator instance(BufferType buffers) {
        Map<Allocator, ByteBufAllocator> cache = buffers == BufferType.DIRECT ? DIRECT : HEAP;
        synchronized (cache) {
            return cache.computeIfAbsent(this, a -> a.newInstance(buffers == BufferType.DIRECT));
        }
    }

    /** A new, unshared allocator: for benchmarks that must not share arenas or caches across trials. */
    public ByteBufAllocator newInstance(boolean preferDirect) {
        switch (this) {
            case POOLED:
                return new PooledByteBufAllocator(preferDirect);
            case UNPOOLED:
                return new UnpooledByteBufAllocator(preferDirect);
            case ADAPTIVE:
                return new AdaptiveByteBufAllocator(preferDirect);
            default:
                throw new AssertionError(this);
        }
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static Allocator parse(String value) {
        return Knob.parse(Allocator.class, "allocator", value);
    }
}
