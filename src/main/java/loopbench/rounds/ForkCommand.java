package loopbench.gate;

import loopbench.profile.ProfileLine;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The command line of one gate fork: {@code JVM -Djmh.ignoreLock=true -jar SIDE.jar <profile line> -f 1 -foe true
 * -rf json -rff FILE -jvmArgsPrepend "<side's fork args> <line's own prepend args>"}.
 *
 * <p>The gate owns the fork count, the result file and the failure mode, so a profile line's own {@code -f},
 * {@code -rf}, {@code -rff}, {@code -foe} and {@code -o} are dropped (JMH refuses an option given twice); its
 * {@code -jvmArgsPrepend} is merged into the gate's (JMH splits one such value on spaces, but not several).
 * The JMH lock is the gate's for the whole run (its forks run one at a time), hence {@code jmh.ignoreLock}
 * for the children.
 */
final class ForkCommand {
    /** Options with one value that the gate sets itself. */
    private static final Set<String> OWNED = Set.of("-f", "-rf", "-rff", "-foe", "-o");
    private static final String PREPEND = "-jvmArgsPrepend";

    private ForkCommand() {
    }

    static List<String> of(Side side, ProfileLine line, Path resultFile) {
        List<String> lineArgs = new ArrayList<>();
        List<String> prepend = new ArrayList<>(side.forkJvmArgs());
        List<String> args = line.args();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (OWNED.contains(a) && i + 1 < args.size()) {
                i++;
            } else if (PREPEND.equals(a) && i + 1 < args.size()) {
                prepend.addAll(List.of(args.get(++i).trim().split("\\s+")));
            } else {
                lineArgs.add(a);
            }
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(side.java().executable().toString());
        cmd.add("-Djmh.ignoreLock=true");
        cmd.add("-jar");
        cmd.add(side.jar().toString());
        cmd.addAll(lineArgs);
        cmd.addAll(List.of("-f", "1", "-foe", "true", "-rf", "json", "-rff", resultFile.toString()));
        cmd.add(PREPEND);
        cmd.add(String.join(" ", prepend));
        return cmd;
    }
}
