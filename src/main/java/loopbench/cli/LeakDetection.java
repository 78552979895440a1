package loopbench.cli;

import io.netty.util.ResourceLeakDetector;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Netty's buffer leak detection in the rig's processes. They run as the suite measures them: off, unless asked for
 * with {@code --leak-detection LEVEL} or the system property {@value #PROPERTY} (the tests and the soak ask for
 * paranoid). Netty's own default (simple) samples buffers with a stack trace each, a cost on every request that the
 * processes being measured, or the generator measuring them, must not pay unasked.
 */
final class LeakDetection {
    static final String PROPERTY = "io.netty.leakDetection.level";
    /** The name Netty also reads (older spelling). */
    private static final String LEGACY_PROPERTY = "io.netty.leakDetectionLevel";

    private LeakDetection() {
    }

    /**
     * Sets the level: {@code requested} if not null, else the system property's (Netty has read it already), else
     * disabled. Says which on {@code err}, if not null. Returns the level in effect.
     */
    static ResourceLeakDetector.Level apply(ResourceLeakDetector.Level requested, PrintStream err) {
        if (requested != null) {
            ResourceLeakDetector.setLevel(requested);
        } else if (System.getProperty(PROPERTY) == null && System.getProperty(LEGACY_PROPERTY) == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        ResourceLeakDetector.Level level = ResourceLeakDetector.getLevel();
        if (err != null) {
            err.println("loopbench: Netty leak detection " + name(level));
        }
        return level;
    }

    /** disabled, simple, advanced or paranoid (Netty's levels, in lower case). */
    static ResourceLeakDetector.Level parse(String value) {
        for (ResourceLeakDetector.Level l : ResourceLeakDetector.Level.values()) {
            if (name(l).equals(value)) {
                return l;
            }
        }
        throw new IllegalArgumentException("unknown leak detection level '" + value + "'; valid values: "
                + Arrays.stream(ResourceLeakDetector.Level.values()).map(LeakDetection::name)
                .collect(Collectors.joining(", ")));
    }

    static String name(ResourceLeakDetector.Level level) {
        return level.name().toLowerCase(Locale.ROOT);
    }
}
