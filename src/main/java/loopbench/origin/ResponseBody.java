package loopbench.origin;

/**
 * The bytes the origin serves: printable, deterministic and not periodic, so that a test can tell a
 * shifted, truncated or re-ordered body from the right one by comparing with {@link #bytes(int)}.
 */
public final class ResponseBody {
    private ResponseBody() {
    }

    public static byte[] bytes(int size) {
        byte[] b = new byte[size];
        int x = 0x9E3779B9;
        for (int i = 0; i < size; i++) {
            x ^= x << 13; // xorshift32
            x ^= x >>> 17;
            x ^= x << 5;
            b[i] = (byte) ('!' + Integer.remainderUnsigned(x, 94));
        }
        return b;
    }
}
