package loopbench.process;

import java.util.ArrayList;
import java.util.List;

/**
 * JVM options loopbench gives the JVMs it starts (benchmark forks and server processes), by the JDK's
 * feature release: the flags differ between JDK 17 and 25, and an option a JDK does not know stops it from
 * starting at all.
 */
public final class JvmFlags {
    /**
     * The system property whose options (separated by blanks) every server process gets after the defaults, so
     * they win: an experiment on the servers' JVM (a collector, a JIT setting) without a new build. Set it in the
     * JVM that starts the servers: {@code -jvmArgsAppend -Dloopbench.server.jvmArgs=...} for a benchmark fork.
     */
    public static final String SERVER_JVM_ARGS = "loopbench.server.jvmArgs";

    private JvmFlags() {
    }

    /** The running JVM's feature release (17, 21, 25, ...). */
    public static int currentFeature() {
        return Runtime.version().feature();
    }

    /**
     * Keep Netty's {@code sun.misc.Unsafe} path usable: JDK 23+ denies Unsafe's memory access unless told
     * otherwise (JDK 25 makes Netty turn Unsafe off), and JDK 22+ warns about native access by Netty's transports.
     * Empty on JDK 17. Netty itself must also be told ({@code -Dio.netty.noUnsafe=false}).
     */
    public static List<String> unsafeAccess(int feature) {
        List<String> flags = new ArrayList<>();
        if (feature >= 23) {
            flags.add("--sun-misc-unsafe-memory-access=allow");
        }
        if (feature >= 22) {
            flags.add("--enable-native-access=ALL-UNNAMED");
        }
        return flags;
    }

    /**
     * What a server process of a benchmark runs with, the same as a benchmark fork: a 1 GiB heap (above the
     * 512 MiB under which Netty's adaptive allocator switches to its low-memory mode), leak detection off (its
     * sampling would be measured too), Netty's Unsafe path on, and on JDK 21+ dynamic agent loading allowed
     * without a warning (a flame graph of the process attaches async-profiler to it). G1 by name: the JVM picks
     * the serial collector by itself when it sees one CPU, so a server pinned to one CPU would otherwise run
     * another collector than the same server unpinned, and a placement would change what runs, not only where.
     */
    public static List<String> serverDefaults(int feature) {
        return serverDefaults(feature, System.getProperty(SERVER_JVM_ARGS, ""));
    }

    /** {@link #serverDefaults(int)} followed by {@code extra}, the options of {@value #SERVER_JVM_ARGS}. */
    static List<String> serverDefaults(int feature, String extra) {
        List<String> flags = new ArrayList<>(List.of("-Xms1g", "-Xmx1g", "-XX:+UseG1GC",
                "-Dio.netty.leakDetection.level=disabled", "-Dio.netty.noUnsafe=false"));
        flags.addAll(unsafeAccess(feature));
        if (feature >= 21) {
            flags.add("-XX:+EnableDynamicAgentLoading");
        }
        for (String option : extra.trim().split("\\s+")) {
            if (option.isEmpty()) {
                continue;
            }
            if (!option.startsWith("-")) {
                throw new IllegalArgumentException(SERVER_JVM_ARGS + ": '" + option + "' is not a JVM option; "
                        + "valid: options that start with '-', separated by blanks (e.g. -XX:+UseParallelGC)");
            }
            flags.add(option);
        }
        return flags;
    }
}
