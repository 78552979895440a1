package loopbench.bench;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

import java.util.ArrayList;
import java.util.List;

/**
 * Wraps a benchmark's allocator and remembers every buffer it hands out (and whether it was direct and how
 * big at the time), so that a test can check afterwards that each one was released.
 */
final class RecordingAllocator implements ByteBufAllocator {
    record Allocation(ByteBuf buf, boolean direct, int capacity) {
    }

    private final ByteBufAllocator delegate;
    final List<Allocation> allocations = new ArrayList<>();

    RecordingAllocator(ByteBufAllocator delegate) {
        this.delegate = delegate;
    }

    private <B extends ByteBuf> B record(B buf) {
        allocations.add(new Allocation(buf, buf.isDirect(), buf.capacity()));
        return buf;
    }

    @Override public ByteBuf buffer() { return record(delegate.buffer()); }
    @Override public ByteBuf buffer(int initialCapacity) { return record(delegate.buffer(initialCapacity)); }
    @Override public ByteBuf buffer(int initialCapacity, int maxCapacity) { return record(delegate.buffer(initialCapacity, maxCapacity)); }
    @Override public ByteBuf ioBuffer() { return record(delegate.ioBuffer()); }
    @Override public ByteBuf ioBuffer(int initialCapacity) { return record(delegate.ioBuffer(initialCapacity)); }
    @Override public ByteBuf ioBuffer(int initialCapacity, int maxCapacity) { return record(delegate.ioBuffer(initialCapacity, maxCapacity)); }
    @Override public ByteBuf heapBuffer() { return record(delegate.heapBuffer()); }
    @Override public ByteBuf heapBuffer(int initialCapacity) { return record(delegate.heapBuffer(initialCapacity)); }
    @Override public ByteBuf heapBuffer(int initialCapacity, int maxCapacity) { return record(delegate.heapBuffer(initialCapacity, maxCapacity)); }
    @Override public ByteBuf directBuffer() { return record(delegate.directBuffer()); }
    @Override public ByteBuf directBuffer(int initialCapacity) { return record(delegate.directBuffer(initialCapacity)); }
    @Override public ByteBuf directBuffer(int initialCapacity, int maxCapacity) { return record(delegate.directBuffer(initialCapacity, maxCapacity)); }
    @Override public CompositeByteBuf compositeBuffer() { return record(delegate.compositeBuffer()); }
    @Override public CompositeByteBuf compositeBuffer(int maxNumComponents) { return record(delegate.compositeBuffer(maxNumComponents)); }
    @Override public CompositeByteBuf compositeHeapBuffer() { return record(delegate.compositeHeapBuffer()); }
    @Override public CompositeByteBuf compositeHeapBuffer(int maxNumComponents) { return record(delegate.compositeHeapBuffer(maxNumComponents)); }
    @Override public CompositeByteBuf compositeDirectBuffer() { return record(delegate.compositeDirectBuffer()); }
    @Override public CompositeByteBuf compositeDirectBuffer(int maxNumComponents) { return record(delegate.compositeDirectBuffer(maxNumComponents)); }
    @Override public boolean isDirectBufferPooled() { return delegate.isDirectBufferPooled(); }
    @Override public int calculateNewCapacity(int minNewCapacity, int maxCapacity) { return delegate.calculateNewCapacity(minNewCapacity, maxCapacity); }
}
