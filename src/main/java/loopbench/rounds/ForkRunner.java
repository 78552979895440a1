package loopbench.rounds;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Runs one fork's command to its end, its output into a log file: the engine's only contact with processes. */
public interface ForkRunner {
    /** @return the command's exit code */
    int run(List<String> command, Path log) throws IOException, InterruptedException;
}
