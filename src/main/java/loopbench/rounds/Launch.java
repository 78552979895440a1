package loopbench.rounds;

import java.nio.file.Path;
import java.util.List;

/**
 * What starts an arm's forks: the JVM that runs the benchmarks jar (JMH's runner, which starts the fork), the jar,
 * and the JVM arguments every fork gets before the benchmark's own (through JMH's {@code -jvmArgsPrepend}).
 *
 * @param java    the java executable
 * @param jar     the benchmarks jar (main class org.openjdk.jmh.Main)
 * @param jvmArgs JVM arguments for every fork, e.g. Netty's Unsafe flags for the JVM's release
 */
public record Launch(Path java, Path jar, List<String> jvmArgs) {
    public Launch {
        jvmArgs = List.copyOf(jvmArgs);
    }
}
