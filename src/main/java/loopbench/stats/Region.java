package loopbench.stats;

import java.util.List;
import java.util.function.DoubleFunction;

/**
 * Where a claim says a ratio lies: above a boundary, below one, or within two. With the one-sided level
 * {@link #ALPHA} on each side, "the data put the ratio inside" is exactly "the 95% two-sided interval lies entirely
 * inside the region", and "outside" is the interval lying entirely outside it; an interval that contains a
 * boundary is inside the noise.
 *
 * <ul>
 *   <li>{@link Kind#ABOVE}: p for = p(ratio above b); p against = p(ratio below b).</li>
 *   <li>{@link Kind#BELOW}: the mirror image.</li>
 *   <li>{@link Kind#WITHIN}: two one-sided tests (TOST): p for = max(p above lo, p below hi), both must be small;
 *       p against = min(p below lo, p above hi): the interval lies wholly on one side or the other. A ratio at a
 *       boundary is called outside by chance at most {@link #ALPHA} of the time, since only one side can be.</li>
 * </ul>
 *
 * @param lower the boundary of {@link Kind#ABOVE} and the lower one of {@link Kind#WITHIN}; 0 for BELOW
 * @param upper the boundary of {@link Kind#BELOW} and the upper one of {@link Kind#WITHIN}; infinite for ABOVE
 */
public record Region(Kind kind, double lower, double upper) {
    /** One-sided level of each test; 0.025 on each side makes the rule read off a 95% interval. */
    public static final double ALPHA = 0.025;

    public enum Kind { ABOVE, BELOW, WITHIN }

    public Region {
        if (kind == Kind.ABOVE) {
            requireRatio(lower);
        } else if (kind == Kind.BELOW) {
            requireRatio(upper);
        } else {
            requireRatio(lower);
            requireRatio(upper);
            if (!(lower < upper)) {
                throw new IllegalArgumentException("a region's lower boundary must be below its upper one, was ["
                        + lower + ", " + upper + "]");
            }
        }
    }

    private static void requireRatio(double b) {
        if (!(b > 0) || Double.isInfinite(b)) {
            throw new IllegalArgumentException("a ratio's boundary must be positive and finite, was " + b);
        }
    }

    public static Region above(double boundary) {
        return new Region(Kind.ABOVE, boundary, Double.POSITIVE_INFINITY);
    }

    public static Region below(double boundary) {
        return new Region(Kind.BELOW, 0, boundary);
    }

    public static Region within(double lower, double upper) {
        return new Region(Kind.WITHIN, lower, upper);
    }

    /** The boundaries an interval is compared with: one, or two for {@link Kind#WITHIN}. */
    public List<Double> boundaries() {
        return switch (kind) {
            case ABOVE -> List.of(lower);
            case BELOW -> List.of(upper);
            case WITHIN -> List.of(lower, upper);
        };
    }

    public boolean contains(double ratio) {
        return switch (kind) {
            case ABOVE -> ratio > lower;
            case BELOW -> ratio < upper;
            case WITHIN -> ratio > lower && ratio < upper;
        };
    }

    /** One-sided p-value that the true ratio lies inside the region (small: the data say it does). */
    public double pFor(LogRatio r) {
        return switch (kind) {
            case ABOVE -> r.pValueAbove(lower);
            case BELOW -> r.pValueBelow(upper);
            case WITHIN -> Math.max(r.pValueAbove(lower), r.pValueBelow(upper));
        };
    }

    /** One-sided p-value that the true ratio lies outside the region (small: the data say it does). */
    public double pAgainst(LogRatio r) {
        return switch (kind) {
            case ABOVE -> r.pValueBelow(lower);
            case BELOW -> r.pValueAbove(upper);
            case WITHIN -> Math.min(r.pValueBelow(lower), r.pValueAbove(upper));
        };
    }

    /** "> 1.05", "< 0.800" or "within [0.800, 1.25]", with the numbers written by {@code number}. */
    public String describe(DoubleFunction<String> number) {
        return switch (kind) {
            case ABOVE -> "> " + number.apply(lower);
            case BELOW -> "< " + number.apply(upper);
            case WITHIN -> "within [" + number.apply(lower) + ", " + number.apply(upper) + "]";
        };
    }

    /** In words, for rules: "above 1.05", "below 0.800", "within [0.800, 1.25]". */
    public String words(DoubleFunction<String> number) {
        return switch (kind) {
            case ABOVE -> "above " + number.apply(lower);
            case BELOW -> "below " + number.apply(upper);
            case WITHIN -> "within [" + number.apply(lower) + ", " + number.apply(upper) + "]";
        };
    }

    @Override
    public String toString() {
        return "ratio " + describe(Double::toString);
    }
}
