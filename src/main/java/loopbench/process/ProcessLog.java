package loopbench.process;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where a child process's stderr goes (a temporary file, deleted when this JVM exits), to read it back. */
public final class ProcessLog {
    private static final int TAIL_CHARS = 4000;
    private final Path file;

    private ProcessLog(Path file) {
        this.file = file;
    }

    /** A new, empty log named after {@code name}. */
    public static ProcessLog create(String name) {
        try {
            Path f = Files.createTempFile("loopbench-" + name + "-", ".log");
            f.toFile().deleteOnExit();
            return new ProcessLog(f);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a log file for " + name + ": " + e.getMessage(), e);
        }
    }

    /** For {@link ProcessBuilder#redirectError(File)}. */
    public File file() {
        return file.toFile();
    }

    /** Everything written so far. */
    public String read() {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    /** The last few thousand characters, to explain a failure. */
    public String tail() {
        String s = read();
        return s.length() > TAIL_CHARS ? "..." + s.substring(s.length() - TAIL_CHARS) : s;
    }
}
