package loopbench.cli;

import picocli.CommandLine;

import java.util.function.Supplier;

/** Turns a configuration's own validation error into a usage error (exit 2, message and usage). */
final class Cli {
    private Cli() {
    }

    static <T> T validated(Supplier<T> build) {
        try {
            return build.get();
        } catch (IllegalArgumentException e) {
            throw new BadInput(e.getMessage());
        }
    }

    /** Reported like a picocli parameter error: message, usage hint, exit code 2. */
    static final class BadInput extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadInput(String message) {
            super(message);
        }
    }

    static int exitCodeFor(Throwable e, CommandLine cmd) {
        if (e instanceof BadInput) {
            cmd.getErr().println(cmd.getColorScheme().errorText(e.getMessage()));
            cmd.getErr().println("Try '" + cmd.getCommandSpec().qualifiedName() + " --help' for more information.");
            return 2;
        }
        String message = e instanceof java.nio.file.NoSuchFileException ? "no such file: " + e.getMessage()
                : e.getMessage();
        cmd.getErr().println(cmd.getColorScheme().errorText(cmd.getCommandSpec().qualifiedName() + ": " + message));
        return 1;
    }
}
