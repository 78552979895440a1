package loopbench.rounds;

import java.util.List;

/**
 * One configuration of a group: what one fork per round runs. In the gate, a jar (baseline or candidate) with the
 * profile line as written; in a rounds profile, one combination of the line's {@code -p} values.
 *
 * @param label   what results call it ("baseline", "layer=4", "layer=4 [A]")
 * @param id      its part of the fork files' names ({@code [A-Za-z0-9-]}, unique in its group)
 * @param twin    "A" or "B" for the twins of a null experiment ({@code [twins]}), else null
 * @param launch  the JVM, jar and JVM arguments of its forks
 * @param jmhArgs the JMH arguments of its forks (the engine adds the fork count and the result file)
 */
public record Arm(String label, String id, String twin, Launch launch, List<String> jmhArgs) {
    public Arm {
        jmhArgs = List.copyOf(jmhArgs);
    }
}
