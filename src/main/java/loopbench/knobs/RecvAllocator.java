package loopbench.knobs;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;

/**
 * How big a buffer each socket read gets (claim C003-2): Netty's adaptive predictor, a fixed size, or
 * Mina's double/halve predictor. Spelled {@code adaptive}, {@code fixed:BYTES} or {@code halving}.
 *
 * @param kind       which predictor
 * @param fixedBytes the buffer size for {@link Kind#FIXED}, otherwise 0
 */
public record RecvAllocator(Kind kind, int fixedBytes) {
    public static final String VALID = "adaptive, fixed:BYTES (e.g. fixed:2048), halving";
    private static final int MAX_FIXED = 16 * 1024 * 1024;

    public enum Kind { ADAPTIVE, FIXED, HALVING }

    public static final RecvAllocator ADAPTIVE = new RecvAllocator(Kind.ADAPTIVE, 0);
    public static final RecvAllocator HALVING = new RecvAllocator(Kind.HALVING, 0);

    public RecvAllocator {
        if (kind == Kind.FIXED ? fixedBytes < 1 || fixedBytes > MAX_FIXED : fixedBytes != 0) {
            throw new IllegalArgumentException("fixed recv buffer size must be 1.." + MAX_FIXED + " bytes, was "
                    + fixedBytes);
        }
    }

    public static RecvAllocator fixed(int bytes) {
        return new RecvAllocator(Kind.FIXED, bytes);
    }

    public static RecvAllocator parse(String value) {
        if ("adaptive".equals(value)) {
            return ADAPTIVE;
        }
        if ("halving".equals(value)) {
            return HALVING;
        }
        if (value != null && value.startsWith("fixed:")) {
            String n = value.substring("fixed:".length());
            try {
                return fixed(Integer.parseInt(n));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad recv allocator '" + value + "': '" + n
                        + "' is not a number of bytes; valid values: " + VALID);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("bad recv allocator '" + value + "': " + e.getMessage()
                        + "; valid values: " + VALID);
            }
        }
        throw new IllegalArgumentException("unknown recv allocator '" + value + "'; valid values: " + VALID);
    }

    /** A new allocator (each channel gets its own handle from it). */
    public RecvByteBufAllocator create() {
        switch (kind) {
            case ADAPTIVE:
                return new AdaptiveRecvByteBufAllocator();
            case FIXED:
                return new FixedRecvByteBufAllocator(fixedBytes);
            case HALVING:
                return new HalvingRecvByteBufAllocator();
            default:
                throw new AssertionError(kind);
        }
    }

    public String cliName() {
        return kind == Kind.FIXED ? "fixed:" + fixedBytes : kind.name().toLowerCase(java.util.Locale.ROOT);
    }

    @Override
    public String toString() {
        return cliName();
    }
}
