package loopbench.rounds;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The command line of one fork: {@code JVM -Djmh.ignoreLock=true -jar JAR <JMH arguments> -f 1 -foe true -rf json
 * -rff FILE -jvmArgsPrepend "<properties> <launch's JVM args> <the arguments' own prepend args>"}.
 *
 * <p>The engine owns the fork count, the result file and the failure mode, so the arguments' own {@code -f},
 * {@code -rf}, {@code -rff}, {@code -foe} and {@code -o} are dropped (JMH refuses an option given twice); their
 * {@code -jvmArgsPrepend} is merged into the engine's (JMH splits one such value on spaces, but not several, and keeps
 * a quoted part whole: an argument with a space in it is quoted). The JMH lock is the engine's for the whole run (its
 * forks run one at a time), hence {@code jmh.ignoreLock} for the children.
 */
public final class ForkCommand {
    /** Options with one value that the engine sets itself. */
    private static final Set<String> OWNED = Set.of("-f", "-rf", "-rff", "-foe", "-o");
    private static final String PREPEND = "-jvmArgsPrepend";

    private ForkCommand() {
    }

    /**
     * @param properties JVM arguments first in the fork's prepend (the fork's identity: run, arm, round)
     */
    public static List<String> of(Launch launch, List<String> jmhArgs, Path resultFile, List<String> properties) {
        List<String> lineArgs = new ArrayList<>();
        List<String> prepend = new ArrayList<>(properties);
        prepend.addAll(launch.jvmArgs());
        for (int i = 0; i < jmhArgs.size(); i++) {
            String a = jmhArgs.get(i);
            if (OWNED.contains(a) && i + 1 < jmhArgs.size()) {
                i++;
            } else if (PREPEND.equals(a) && i + 1 < jmhArgs.size()) {
                prepend.addAll(List.of(jmhArgs.get(++i).trim().split("\\s+")));
            } else {
                lineArgs.add(a);
            }
        }
        List<String> cmd = new ArrayList<>();
        cmd.add(launch.java().toString());
        cmd.add("-Djmh.ignoreLock=true");
        cmd.add("-jar");
        cmd.add(launch.jar().toString());
        cmd.addAll(lineArgs);
        cmd.addAll(List.of("-f", "1", "-foe", "true", "-rf", "json", "-rff", resultFile.toString()));
        cmd.add(PREPEND);
        cmd.add(String.join(" ", prepend.stream().map(ForkCommand::quoted).toList()));
        return cmd;
    }

    private static String quoted(String arg) {
        return arg.chars().anyMatch(Character::isWhitespace) ? '"' + arg + '"' : arg;
    }
}
