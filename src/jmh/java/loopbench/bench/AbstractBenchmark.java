package loopbench.bench;

import io.netty.util.internal.PlatformDependent;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Settings every loopbench benchmark shares (JMH annotations are inherited; a benchmark overrides any of
 * them on its own class, and the command line overrides both).
 *
 * <ul>
 *   <li>1 GiB heap: above 512 MiB, so Netty's adaptive allocator is not in its low-memory mode.</li>
 *   <li>Leak detection off: its sampling would be measured too.</li>
 *   <li>{@code -Dio.netty.noUnsafe=false}: keeps Netty's Unsafe path on JDK 25, where it is off by default
 *       (harmless on 17). The suite runner adds {@code --sun-misc-unsafe-memory-access=allow} on JDK 23+ and
 *       records whether Unsafe was in use.</li>
 * </ul>
 */
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g",
        "-Dio.netty.leakDetection.level=disabled", "-Dio.netty.noUnsafe=false"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public abstract class AbstractBenchmark {

    /** "true": the fork fails unless Netty uses Unsafe; "false": unless it does not; unset: no check. */
    static final String REQUIRE_UNSAFE = "loopbench.requireUnsafe";

    static {
        // The suite runner and the gate set this, so that "Unsafe on" (or off) in their results is checked, not
        // assumed.
        String required = System.getProperty(REQUIRE_UNSAFE);
        if ("true".equals(required) && !PlatformDependent.hasUnsafe()) {
            throw new IllegalStateException("Netty's sun.misc.Unsafe path is off in this fork ("
                    + PlatformDependent.getUnsafeUnavailabilityCause() + "); on JDK 23+ run the fork with "
                    + "--sun-misc-unsafe-memory-access=allow and -Dio.netty.noUnsafe=false");
        }
        if ("false".equals(required) && PlatformDependent.hasUnsafe()) {
            throw new IllegalStateException("Netty's sun.misc.Unsafe path is on in this fork, but -D" + REQUIRE_UNSAFE
                    + "=false asks for it off; add -Dio.netty.tryUnsafe=false");
        }
    }
}
