package loopbench.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code java} executable and what it is (feature release, full version, VM name), learnt by running it:
 * the CI gate runs each side on a JVM of its choice and needs the flags ({@link JvmFlags}) and profile guards
 * ({@code [jdk>=21]}) of that JVM, not of its own.
 */
public record JavaRuntime(Path executable, int feature, String version, String vmName) {
    private static final Pattern PROPERTY = Pattern.compile("^\\s*([\\w.]+) = (.*)$");

    /** The JVM running this code. */
    public static JavaRuntime current() {
        return new JavaRuntime(Paths.get(System.getProperty("java.home"), "bin", "java"), Runtime.version().feature(),
                System.getProperty("java.runtime.version", Runtime.version().toString()),
                System.getProperty("java.vm.name"));
    }

    /**
     * Runs {@code executable -XshowSettings:properties -version} and reads its specification version.
     *
     * @throws IOException if it is not a runnable java executable (the message says which and why)
     */
    public static JavaRuntime probe(Path executable) throws IOException {
        if (!Files.isRegularFile(executable) || !Files.isExecutable(executable)) {
            throw new IOException(executable + " is not an executable file (expected the path of a java "
                    + "executable, e.g. /usr/lib/jvm/temurin-25-jdk-amd64/bin/java)");
        }
        Process p = new ProcessBuilder(executable.toString(), "-XshowSettings:properties", "-version")
                .redirectErrorStream(true).start();
        String output;
        try {
            p.getOutputStream().close();
            output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                throw new IOException(executable + " -version did not finish in 60 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while asking " + executable + " its version", e);
        } finally {
            p.destroyForcibly();
        }
        return fromSettings(executable, output, p.exitValue());
    }

    /**
     * The runtime described by the output of {@code JAVA -XshowSettings:properties -version} (run here, or on another
     * machine through SSH), which exited with {@code exitCode}.
     *
     * @throws IOException if the output is not a runnable java's
     */
    public static JavaRuntime fromSettings(Path executable, String output, int exitCode) throws IOException {
        String spec = null;
        String version = null;
        String vm = null;
        for (String line : output.split("\\R")) {
            Matcher m = PROPERTY.matcher(line);
            if (!m.matches()) {
                continue;
            }
            switch (m.group(1)) {
                case "java.specification.version" -> spec = m.group(2).trim();
                case "java.runtime.version" -> version = m.group(2).trim();
                case "java.vm.name" -> vm = m.group(2).trim();
                default -> { }
            }
        }
        if (exitCode != 0 || spec == null) {
            throw new IOException(executable + " is not a java executable this can use (exit " + exitCode
                    + "): " + String.join(" ", List.of(output.strip().split("\\R")).subList(0,
                    Math.min(3, output.strip().split("\\R").length))));
        }
        int feature;
        try {
            feature = Integer.parseInt(spec.startsWith("1.") ? spec.substring(2) : spec);
        } catch (NumberFormatException e) {
            throw new IOException(executable + " reports java.specification.version = " + spec + ", not a number");
        }
        return new JavaRuntime(executable, feature, version == null ? spec : version, vm == null ? "?" : vm);
    }

    /** "JDK 17.0.15+6 (OpenJDK 64-Bit Server VM)". */
    public String describe() {
        return "JDK " + version + " (" + vmName + ")";
    }
}
