package loopbench.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * Can the CI gate ({@code loopbench gate}) see a change of known size, and does it stay quiet when there is
 * none? (the gate's own claim: no false alarm in A/A runs; a 5% throughput loss and 1% more bytes per
 * operation detected)
 *
 * <p>A control, not a question about Netty: one op burns {@code tokens} of {@link Blackhole#consumeCPU} (pure
 * CPU, no memory traffic) and allocates one {@code byte[bytes]} that escapes to JMH. Its code never changes, so
 * in an ordinary gate its ratio shows the gate's own noise on this machine. To inject a change honestly, the
 * candidate side of a gate runs the same jar with system properties that only this class reads:
 * <ul>
 *   <li>{@value #CPU_SCALE} (default 1): the tokens are multiplied by it. {@code 1.0526} (= 1/0.95) makes
 *       the CPU part of an op 5.26% longer; the op also allocates and returns an array (~1-2% of its time, not
 *       scaled), so throughput drops by a little less than 5% (measured: docs/results/2026-11-23/gate-proof/).</li>
 *   <li>{@value #ALLOC_SCALE} (default 1): the array length is multiplied by it. {@code 1.01} turns
 *       {@code byte[8000]} (8016 B with its header) into {@code byte[8080]} (8096 B): +1.0% bytes per op.</li>
 * </ul>
 * No production code reads these properties: nothing else can be slowed by them.
 *
 * <p>What to expect: with both properties unset, the candidate/baseline ratio is 1 within the machine's
 * fork-to-fork noise (throughput) and exactly 1 in bytes per op; with the scales above, about 0.95 and 1.01.
 *
 * <p>Run alone: {@code java -jar target/benchmarks.jar CalibrationBenchmark -prof gc}; the slower,
 * hungrier variant: {@code -jvmArgsPrepend "-Dloopbench.calibration.cpuScale=1.0526
 * -Dloopbench.calibration.allocScale=1.01"}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
// consumeCPU and an array allocation are compiled within a second; AbstractBenchmark's 3 x 1 s is plenty.
@Warmup(iterations = 3, time = 1)
public class CalibrationBenchmark extends AbstractBenchmark {
    /** System property: multiplier of the CPU tokens per op (the candidate side of a power run). */
    public static final String CPU_SCALE = "loopbench.calibration.cpuScale";
    /** System property: multiplier of the array length allocated per op. */
    public static final String ALLOC_SCALE = "loopbench.calibration.allocScale";

    /** Blackhole.consumeCPU tokens per op, before scaling (~40 us on a 2020s x86 core). */
    @Param({"20000"})
    public long tokens;

    /** Length of the byte[] allocated per op, before scaling. */
    @Param({"8000"})
    public int bytes;

    long scaledTokens;
    int scaledBytes;

    @Setup
    public void setUp() {
        scaledTokens = Math.round(tokens * scale(CPU_SCALE));
        scaledBytes = Math.toIntExact(Math.round(bytes * scale(ALLOC_SCALE)));
        if (scaledTokens < 0 || scaledBytes < 0) {
            throw new IllegalArgumentException("tokens and bytes must be >= 0, were " + tokens + " and " + bytes);
        }
    }

    static double scale(String property) {
        String value = System.getProperty(property);
        if (value == null) {
            return 1;
        }
        double scale;
        try {
            scale = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + property + "=" + value + " is not a number; "
                    + "expected a positive factor, e.g. 1.0526");
        }
        if (!(scale > 0) || Double.isInfinite(scale)) {
            throw new IllegalArgumentException("-D" + property + "=" + value + " must be a positive factor, e.g. 1.01");
        }
        return scale;
    }

    /** Burns the CPU tokens, then allocates the array; returning it makes it escape, so it is really allocated. */
    @Benchmark
    public byte[] work() {
        Blackhole.consumeCPU(scaledTokens);
        return new byte[scaledBytes];
    }
}
