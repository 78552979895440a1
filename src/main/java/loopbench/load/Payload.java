package loopbench.load;

/**
 * The bytes the generator sends as a POST body or an echo message: deterministic and not periodic, so that
 * an echo that comes back shifted, truncated or re-ordered differs from what was sent at some position.
 */
final class Payload {
    private Payload() {
    }

    static byte[] bytes(int size) {
        byte[] b = new byte[size];
        int x = 0x2545F491;
        for (int i = 0; i < size; i++) {
            x ^= x << 13; // xorshift32
            x ^= x >>> 17;
            x ^= x << 5;
            b[i] = (byte) ('0' + Integer.remainderUnsigned(x, 75));
        }
        return b;
    }
}
