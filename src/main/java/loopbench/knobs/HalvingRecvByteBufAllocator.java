package loopbench.knobs;

import io.netty.channel.DefaultMaxMessagesRecvByteBufAllocator;

/**
 * Apache Mina's read-buffer predictor, as the C003 article describes it (claim C003-2), written as a Netty
 * {@link io.netty.channel.RecvByteBufAllocator}: a read that fills the buffer doubles the next one; a read
 * of less than half the buffer halves it, but only on the second such read in a row. Growth and shrinkage
 * are symmetric, so a message size between two powers of two makes the guess jitter, which Netty's
 * adaptive predictor (grow fast, shrink slowly) avoids.
 */
public final class HalvingRecvByteBufAllocator extends DefaultMaxMessagesRecvByteBufAllocator {
    /** Mina's defaults: IoSessionConfig min/initial/max read buffer size. */
    public static final int DEFAULT_MINIMUM = 64;
    public static final int DEFAULT_INITIAL = 2048;
    public static final int DEFAULT_MAXIMUM = 65536;

    private final int minimum;
    private final int initial;
    private final int maximum;

    public HalvingRecvByteBufAllocator() {
        this(DEFAULT_MINIMUM, DEFAULT_INITIAL, DEFAULT_MAXIMUM);
    }

    public HalvingRecvByteBufAllocator(int minimum, int initial, int maximum) {
        if (minimum <= 0 || initial < minimum || maximum < initial) {
            throw new IllegalArgumentException("need 0 < minimum <= initial <= maximum, got " + minimum + ", "
                    + initial + ", " + maximum);
        }
        this.minimum = minimum;
        this.initial = initial;
        this.maximum = maximum;
    }

    @Override
    public Handle newHandle() {
        return new HandleImpl();
    }

    private final class HandleImpl extends MaxMessageHandle {
        private int size = initial;
        /** Mina's deferDecreaseReadBuffer: the first small read after a change is forgiven. */
        private boolean deferDecrease = true;

        @Override
        public int guess() {
            return size;
        }

        @Override
        public void lastBytesRead(int bytes) {
            if (bytes > 0) {
                int capacity = attemptedBytesRead();
                if (bytes == capacity) {
                    size = Math.min(maximum, size << 1);
                    deferDecrease = true;
                } else if (bytes << 1 < capacity) {
                    if (deferDecrease) {
                        deferDecrease = false;
                    } else {
                        size = Math.max(minimum, size >>> 1);
                        deferDecrease = true;
                    }
                }
            }
            super.lastBytesRead(bytes);
        }
    }
}
