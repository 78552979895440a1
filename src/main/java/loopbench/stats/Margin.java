package loopbench.stats;

import java.util.Locale;

/**
 * An equivalence margin stated before the data: a ratio within [1/(1+m), 1+m] is "no effect beyond +-m" (symmetric
 * in logarithms: a 2% gain and the matching loss are the same distance from 1). An interval wholly inside it is a
 * decisive answer that there is no effect of that size; an interval wholly beyond it on either side is a decisive
 * effect. The claims report words its checks with it, and the null experiments judge their twin pairs by it.
 *
 * @param fraction m, e.g. 0.02 for +-2%
 */
public record Margin(double fraction) {

    /** Which side of the margin an interval lies wholly beyond, if any. */
    public enum Side { ABOVE, BELOW }

    public Margin {
        if (!(fraction > 0 && fraction < 1)) {
            throw new IllegalArgumentException("a margin must be in (0, 1), was " + fraction);
        }
    }

    public static Margin percent(double percent) {
        return new Margin(percent / 100);
    }

    /** 1/(1+m). */
    public double lower() {
        return 1 / (1 + fraction);
    }

    /** 1+m. */
    public double upper() {
        return 1 + fraction;
    }

    /** Whether the interval [lo, hi] lies wholly within the margin (NaN bounds: no). */
    public boolean contains(double lo, double hi) {
        return lo >= lower() && hi <= upper();
    }

    /** The side the interval [lo, hi] lies wholly beyond, or null (inside, straddling, or no interval). */
    public Side beyond(double lo, double hi) {
        if (lo > upper()) {
            return Side.ABOVE;
        }
        if (hi < lower()) {
            return Side.BELOW;
        }
        return null;
    }

    /** "±2%", "±1%", "±0.5%". */
    public String describe() {
        double p = fraction * 100;
        return "\u00b1" + (p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f", p)
                : String.format(Locale.ROOT, "%s", p)) + "%";
    }

    /** "no effect beyond ±2%". */
    public String noEffect() {
        return "no effect beyond " + describe();
    }
}
