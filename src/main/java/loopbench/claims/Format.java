package loopbench.claims;

import loopbench.report.ResultTable;

import java.util.Locale;

/** Numbers as the report writes them: ratios with 3 significant digits, figures with thousands separators. */
final class Format {
    private Format() {
    }

    /** {@link ResultTable#ratio}: the project's one ratio format. */
    static String ratio(double r) {
        return ResultTable.ratio(r);
    }

    /** A figure with its unit, e.g. "84,042 req/s", "1.27 µs/request". */
    static String value(double v, String unit) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        String n = a >= 1000 ? String.format(Locale.ROOT, "%,.0f", v)
                : a >= 100 ? String.format(Locale.ROOT, "%.1f", v)
                : a >= 1 ? String.format(Locale.ROOT, "%.2f", v)
                : a == 0 ? "0" : String.format(Locale.ROOT, "%.3g", v);
        return unit == null || unit.isEmpty() ? n : n + " " + unit;
    }

    static String p(double p) {
        if (Double.isNaN(p)) {
            return "n/a";
        }
        return p < 0.0001 ? "< 0.0001" : String.format(Locale.ROOT, "%.4f", p);
    }

    /** The ratio as a change, e.g. 0.95 -> "-5.0%". */
    static String change(double ratio) {
        return String.format(Locale.ROOT, "%+.1f%%", (ratio - 1) * 100);
    }
}
