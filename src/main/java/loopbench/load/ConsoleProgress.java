package loopbench.load;

import java.io.PrintStream;
import java.util.Locale;

/** One line per second on a console (stderr), so that a long run shows it is alive and how it goes. */
public final class ConsoleProgress implements LoadGenerator.Progress {
    private final PrintStream out;

    public ConsoleProgress(PrintStream out) {
        this.out = out;
    }

    @Override
    public void second(PerSecond s) {
        out.printf(Locale.ROOT,
                "  %4d s  %,12.0f req/s   p50 %,8.0f µs   p99 %,9.0f µs   max %,9.0f µs   errors %,d%n",
                s.second(), s.requestsPerSecond(), s.p50Micros(), s.p99Micros(), s.maxMicros(), s.errors());
    }

    @Override
    public void warmup(int second, long completed) {
        out.printf(Locale.ROOT, "  warm-up %d s: %,d requests so far (not recorded)%n", second, completed);
    }
}
