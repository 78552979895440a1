package loopbench.claims;

import java.util.Locale;

/**
 * Where a claim says a ratio lies: above or below a boundary. With the one-sided level {@link #ALPHA} on each
 * side, "the data put the ratio inside" is exactly "the 95% two-sided interval lies entirely on the claimed side",
 * and "outside" is the interval lying entirely on the other side; an interval that contains the boundary is
 * inside the noise.
 */
public record Region(Direction direction, double boundary) {
    /** One-sided level of each test; 0.025 on each side makes the rule read off a 95% interval. */
    public static final double ALPHA = 0.025;

    public enum Direction { ABOVE, BELOW }

    public Region {
        if (!(boundary > 0) || Double.isInfinite(boundary)) {
            throw new IllegalArgumentException("a ratio's boundary must be positive and finite, was " + boundary);
        }
    }

    public static Region above(double boundary) {
        return new Region(Direction.ABOVE, boundary);
    }

    public static Region below(double boundary) {
        return new Region(Direction.BELOW, boundary);
    }

    public boolean contains(double ratio) {
        return direction == Direction.ABOVE ? ratio > boundary : ratio < boundary;
    }

    /** "> 1.05" or "< 0.8". */
    public String describe() {
        return (direction == Direction.ABOVE ? "> " : "< ") + Format.ratio(boundary);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "ratio %s", describe());
    }
}
