package loopbench.load;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as a performance engineer types them: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}. */
public final class Durations {
    private static final Pattern SYNTAX = Pattern.compile("^(\\d+)(ms|s|m|h)$");
    public static final String VALID = "a whole number followed by ms, s, m or h, e.g. 500ms, 10s, 2m";

    private Durations() {
    }

    public static Duration parse(String text) {
        Matcher m = SYNTAX.matcher(text == null ? "" : text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("bad duration '" + text + "'; expected " + VALID);
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad duration '" + text + "': number too large");
        }
        switch (m.group(2)) {
            case "ms":
                return Duration.ofMillis(n);
            case "s":
                return Duration.ofSeconds(n);
            case "m":
                return Duration.ofMinutes(n);
            default:
                return Duration.ofHours(n);
        }
    }

    /** The shortest of the accepted spellings that says {@code d} exactly. */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 3_600_000 == 0 && ms > 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1000 == 0) {
            return ms / 1000 + "s";
        }
        return ms + "ms";
    }
}
