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
    @Override public ByteBuf buffer(int initial) { return record(delegate.buffer(initial)); }
    @Override public ByteBuf buffer(int initial, int max) { return record(delegate.buffer(initial, max)); }
    @Override public ByteBuf ioBuffer() { return record(delegate.ioBuffer()); }
    @Override public ByteBuf ioBuffer(int initial) { return record(delegate.ioBuffer(initial)); }
    @Override public ByteBuf ioBuffer(int initial, int max) { return record(delegate.ioBuffer(initial, max)); }
    @Override public ByteBuf heapBuffer() { return record(delegate.heapBuffer()); }
    @Override public ByteBuf heapBuffer(int initial) { return record(delegate.heapBuffer(initial)); }
    @Override public ByteBuf heapBuffer(int initial, int max) { return record(delegate.heapBuffer(initial, max)); }
    @Override public ByteBuf directBuffer() { return record(delegate.directBuffer()); }
    @Override public ByteBuf directBuffer(int initial) { return record(delegate.directBuffer(initial)); }
    @Override public ByteBuf directBuffer(int initial, int max) { return record(delegate.directBuffer(initial, max)); }
    @Override public CompositeByteBuf compositeBuffer() { return record(delegate.compositeBuffer()); }
    @Override
    public CompositeByteBuf compositeBuffer(int components) {
        return record(delegate.compositeBuffer(components));
    }
    @Override public CompositeByteBuf compositeHeapBuffer() { return record(delegate.compositeHeapBuffer()); }
    @Override
    public CompositeByteBuf compositeHeapBuffer(int components) {
        return record(delegate.compositeHeapBuffer(components));
    }
    @Override public CompositeByteBuf compositeDirectBuffer() { return record(delegate.compositeDirectBuffer()); }
    @Override
    public CompositeByteBuf compositeDirectBuffer(int components) {
        return record(delegate.compositeDirectBuffer(components));
    }
    @Override public boolean isDirectBufferPooled() { return delegate.isDirectBufferPooled(); }
    @Override public int calculateNewCapacity(int min, int max) { return delegate.calculateNewCapacity(min, max); }
}
