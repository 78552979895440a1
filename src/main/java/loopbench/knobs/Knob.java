package loopbench.knobs;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A choice the user makes on the command line, in a JMH {@code @Param} or in a test: one spelling
 * ({@link #cliName()}) everywhere, and one error message that names the bad value and the valid ones.
 */
public interface Knob {

    String cliName();

    static <E extends Enum<E> & Knob> E parse(Class<E> type, String what, String value) {
        for (E e : type.getEnumConstants()) {
            if (e.cliName().equals(value)) {
                return e;
            }
        }
        throw new IllegalArgumentException("unknown " + what + " '" + value + "'; valid values: " + validValues(type));
    }

    static <E extends Enum<E> & Knob> String validValues(Class<E> type) {
        return Arrays.stream(type.getEnumConstants()).map(Knob::cliName).collect(Collectors.joining(", "));
    }
}
