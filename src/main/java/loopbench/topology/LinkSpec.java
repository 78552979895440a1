package loopbench.topology;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What each link of a {@link NetnsTopology} is like: the {@code link} parameter. {@code none}: as fast as the
 * kernel moves packets between namespaces; a rate ({@code 1gbit}, {@code 100mbit}, {@code 500kbit}): each host's
 * link shaped to it in both directions with tc's token bucket ({@code tbf}), as a NIC of that speed on a switch;
 * plus a one-way delay between any two hosts ({@code 1gbit+5ms}, or {@code 5ms} alone), which needs the kernel's
 * {@code netem} qdisc and is refused where the kernel has none.
 *
 * @param name          as given
 * @param bitsPerSecond the rate, 0 for none
 * @param delay         the one-way delay between two hosts, or null
 */
public record LinkSpec(String name, long bitsPerSecond, Duration delay) {
    public static final String NONE = "none";
    public static final LinkSpec UNSHAPED = new LinkSpec(NONE, 0, null);
    /** The forms the parameter takes, for error messages. */
    public static final String FORMS = "none, a rate (1gbit, 100mbit, 500kbit), a one-way delay (5ms, 200us; needs"
            + " netem), or a rate and a delay joined by '+' (1gbit+5ms)";

    private static final Pattern RATE = Pattern.compile("(\\d+(?:\\.\\d+)?)(k|m|g)bit");
    private static final Pattern DELAY = Pattern.compile("(\\d+)(us|ms|s)");

    public static LinkSpec parse(String value) {
        String v = value == null ? "" : value.trim();
        if (NONE.equals(v)) {
            return UNSHAPED;
        }
        long bits = 0;
        Duration delay = null;
        for (String item : v.split("\\+", -1)) {
            Matcher rate = RATE.matcher(item);
            Matcher d = DELAY.matcher(item);
            if (rate.matches() && bits == 0) {
                double unit = switch (rate.group(2)) {
                    case "k" -> 1e3;
                    case "m" -> 1e6;
                    default -> 1e9;
                };
                bits = Math.round(Double.parseDouble(rate.group(1)) * unit);
                if (bits < 8_000) {
                    throw bad(value, "a rate below 8kbit");
                }
            } else if (d.matches() && delay == null) {
                long n = Long.parseLong(d.group(1));
                delay = switch (d.group(2)) {
                    case "us" -> Duration.ofNanos(n * 1000);
                    case "ms" -> Duration.ofMillis(n);
                    default -> Duration.ofSeconds(n);
                };
            } else {
                throw bad(value, "'" + item + "' is " + (rate.matches() || d.matches() ? "given twice"
                        : "neither a rate nor a delay"));
            }
        }
        return new LinkSpec(v, bits, delay);
    }

    private static IllegalArgumentException bad(String value, String why) {
        return new IllegalArgumentException("bad link '" + value + "' (" + why + "); valid: " + FORMS);
    }

    public boolean shaped() {
        return bitsPerSecond > 0;
    }

    /** The rate as tc takes it ({@code 1000000000bit}). */
    String tcRate() {
        return bitsPerSecond + "bit";
    }

    /**
     * The token bucket's depth in bytes: 1 ms at the rate, at least two full-size frames. Shallow, so that the link
     * never runs much above its rate for long (a NIC cannot); the kernel's high-resolution timers refill it.
     */
    long burstBytes() {
        return Math.max(bitsPerSecond / 8 / 1000, 2 * 1514);
    }

    /** The delay as tc takes it ({@code 5000us}). */
    String tcDelay() {
        return String.format(Locale.ROOT, "%dus", delay.toNanos() / 1000);
    }

    @Override
    public String toString() {
        return name;
    }
}
