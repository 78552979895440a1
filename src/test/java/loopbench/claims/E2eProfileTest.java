package loopbench.claims;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * profiles/e2e.jmh states its size and time in its header: the trials its lines expand to (each benchmark's default
 * values filling what a line leaves out) and the minutes they take by the estimate profiles/claims.jmh uses for a
 * fork. Both are recomputed here from the lines, so that the header cannot drift from them.
 */
class E2eProfileTest {
    private static final Path E2E = Path.of("profiles/e2e.jmh");

    @Test
    void theHeaderStatesTheTrialsAndMinutesItsLinesMakeUp() throws Exception {
        List<ProfileLines.Line> lines = new ArrayList<>();
        for (ProfileLines.Line l : ProfileLines.read(E2E)) {
            assertEquals(1, l.options().getForkCount().get(), "line " + l.number() + " runs 1 fork");
            lines.add(l.withDefaults());
        }
        int trials = 0;
        int newerJdkTrials = 0;
        double seconds = 0;
        double newerJdkSeconds = 0;
        List<String> coldStarts = new ArrayList<>();
        for (ProfileLines.Line l : lines) {
            boolean cold = l.className().equals("ProxyWarmupBenchmark");
            for (int i = 0; cold && i < l.arms(); i++) {
                coldStarts.add(String.format(Locale.ROOT, "%.0f s", l.forkSeconds()));
            }
            if (l.minJdk() > 0) {
                newerJdkTrials += l.arms();
                newerJdkSeconds += l.arms() * l.forkSeconds();
            } else {
                trials += cold ? 0 : l.arms();
                seconds += l.arms() * l.forkSeconds();
            }
        }
        String header = Files.readString(E2E);
        assertTrue(header.contains(trials + " trials of 23 s"), "the trials on JDK 17: " + trials);
        assertEquals(List.of("43 s", "43 s"), coldStarts);
        assertTrue(header.contains("two cold starts of 43 s"), header);
        assertTrue(header.contains(String.format(Locale.ROOT, "about %d min with 1 fork", Math.round(seconds / 60))),
                "the minutes on JDK 17: " + seconds / 60);
        assertTrue(header.contains(String.format(Locale.ROOT, "the JDK 21+ line adds %d trials (%.1f min)",
                newerJdkTrials, newerJdkSeconds / 60)), "the JDK 21+ line: " + newerJdkTrials);
    }
}
