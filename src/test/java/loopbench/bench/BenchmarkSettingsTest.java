package loopbench.bench;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;

import java.lang.reflect.AnnotatedElement;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code @Fork} on a benchmark class or method replaces AbstractBenchmark's (JMH does not merge them), so
 * every benchmark that declares its own (to run on {@link EventLoopHarnessExecutor}) must repeat the shared
 * JVM arguments: heap above 512 MiB, leak detection off, Unsafe on.
 */
class BenchmarkSettingsTest {

    @ParameterizedTest
    @ValueSource(classes = {AllocatorBenchmark.class, PipelineCostBenchmark.class, AggregatorBenchmark.class,
            AggregatorSideBySideBenchmark.class,
            RecvBufferPredictionBenchmark.class, OffloadBenchmark.class, TlsBenchmark.class})
    void ownForksKeepTheSharedJvmArguments(Class<?> benchmark) {
        assertTrue(AbstractBenchmark.class.isAssignableFrom(benchmark), benchmark + " extends AbstractBenchmark");
        List<String> shared = Arrays.asList(AbstractBenchmark.class.getAnnotation(Fork.class).jvmArgsAppend());
        assertTrue(shared.stream().anyMatch(a -> a.startsWith("-Xmx")), "AbstractBenchmark sets the heap");

        List<AnnotatedElement> places = new ArrayList<>();
        places.add(benchmark);
        for (Method m : benchmark.getDeclaredMethods()) {
            if (m.isAnnotationPresent(Benchmark.class)) {
                places.add(m);
            }
        }
        for (AnnotatedElement place : places) {
            Fork fork = place.getAnnotation(Fork.class);
            if (fork == null) {
                continue;
            }
            List<String> args = Arrays.asList(fork.jvmArgsAppend());
            assertTrue(args.containsAll(shared), place + ": @Fork(jvmArgsAppend = " + args
                    + ") must include AbstractBenchmark's " + shared);
            assertTrue(fork.value() == 1, place + ": @Fork(value = 1) like AbstractBenchmark, was " + fork.value());
        }
    }
}
