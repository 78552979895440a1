package loopbench.bench;

import org.openjdk.jmh.infra.Blackhole;

/** A Blackhole for calling @Benchmark methods outside JMH, in tests. */
final class TestBlackhole {
    static final Blackhole INSTANCE = new Blackhole(
            "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");

    private TestBlackhole() {
    }
}
