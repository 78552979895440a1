package loopbench.flame;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.Properties;

/**
 * async-profiler's native library, from the async-profiler jar on the class path (Maven Central's
 * {@code tools.profiler:async-profiler} carries it as {@code linux-x64/libasyncProfiler.so} and
 * {@code linux-arm64/...}): used where it lies when the class path is a directory, extracted once to the temporary
 * directory when it is inside a jar (both benchmarks.jar and the Maven repository's jar). A JVM loads it by path,
 * and an attached JVM needs a path too. {@code -Dloopbench.asyncProfiler.lib=PATH} overrides.
 */
public final class AsyncProfilerLibrary {
    public static final String OVERRIDE_PROPERTY = "loopbench.asyncProfiler.lib";
    private static final String POM_PROPERTIES = "META-INF/maven/tools.profiler/async-profiler/pom.properties";

    private AsyncProfilerLibrary() {
    }

    /** The library's path on disk; IllegalStateException saying why when there is none for this platform. */
    public static synchronized Path locate() {
        String override = System.getProperty(OVERRIDE_PROPERTY);
        if (override != null && !override.isBlank()) {
            Path p = Paths.get(override).toAbsolutePath();
            if (!Files.isRegularFile(p)) {
                throw new IllegalStateException("-D" + OVERRIDE_PROPERTY + "=" + override + ": no such file");
            }
            return p;
        }
        String resource = platform() + "/libasyncProfiler.so";
        ClassLoader loader = AsyncProfilerLibrary.class.getClassLoader();
        URL url = loader.getResource(resource);
        if (url == null) {
            throw new IllegalStateException("async-profiler's " + resource + " is not on the class path (it comes with "
                    + "tools.profiler:async-profiler, which target/benchmarks.jar includes)");
        }
        try {
            if ("file".equals(url.getProtocol())) {
                return Paths.get(url.toURI());
            }
            Path target = Paths.get(System.getProperty("java.io.tmpdir"),
                    "loopbench-async-profiler-" + version(loader) + "-" + System.getProperty("user.name", "user"),
                    resource);
            long size;
            try (InputStream in = url.openStream()) {
                size = in.transferTo(OutputDiscard.INSTANCE);
            }
            if (Files.isRegularFile(target) && Files.size(target) == size) {
                return target;
            }
            Files.createDirectories(target.getParent());
            Path tmp = Files.createTempFile(target.getParent(), "libasyncProfiler", ".tmp");
            try (InputStream in = url.openStream()) {
                Files.copy(in, tmp, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + url + ": " + e.getMessage(), e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("bad resource URL " + url, e);
        }
    }

    /** The jar's directory name for this platform; flame graphs need Linux on x64 or arm64. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.contains("linux")) {
            throw new IllegalStateException("flame graphs need Linux (async-profiler's library for " + os
                    + " is not used here)");
        }
        if (arch.equals("amd64") || arch.equals("x86_64")) {
            return "linux-x64";
        }
        if (arch.equals("aarch64") || arch.equals("arm64")) {
            return "linux-arm64";
        }
        throw new IllegalStateException("async-profiler has no library for Linux on " + arch + " (only x64 and arm64)");
    }

    private static String version(ClassLoader loader) {
        try (InputStream in = loader.getResourceAsStream(POM_PROPERTIES)) {
            if (in != null) {
                Properties p = new Properties();
                p.load(in);
                return p.getProperty("version", "unknown");
            }
        } catch (IOException e) {
            // fall through
        }
        return "unknown";
    }

    /** Counts bytes without keeping them. */
    private static final class OutputDiscard extends java.io.OutputStream {
        static final OutputDiscard INSTANCE = new OutputDiscard();

        @Override
        public void write(int b) {
        }

        @Override
        public void write(byte[] b, int off, int len) {
        }
    }
}
