package loopbench.testing;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * A real benchmarks jar in seconds, for tests that run real JMH forks: CalibrationBenchmark compiled with JMH's
 * annotation processor, and a jar holding only a manifest (main class org.openjdk.jmh.Main) whose Class-Path points at
 * the compiled classes and the test classpath.
 */
public final class TinyBenchmarksJar {
    private TinyBenchmarksJar() {
    }

    /** Builds {@code dir/benchmarks.jar} (and {@code dir/classes}); throws if the compiler fails. */
    public static Path build(Path dir) throws Exception {
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String classpath = System.getProperty("java.class.path");
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int rc = javac.run(null, diagnostics, diagnostics, "--release", "17", "-implicit:class",
                "-processor", "org.openjdk.jmh.generators.BenchmarkProcessor", "-cp", classpath,
                "-d", classes.toString(), "src/jmh/java/loopbench/bench/CalibrationBenchmark.java",
                "src/jmh/java/loopbench/bench/AbstractBenchmark.java");
        if (rc != 0 || !Files.exists(classes.resolve("META-INF/BenchmarkList"))) {
            throw new IllegalStateException("compiling CalibrationBenchmark with JMH's processor failed:\n"
                    + diagnostics.toString(StandardCharsets.UTF_8));
        }
        List<String> path = new ArrayList<>();
        path.add(classes.toUri().toString());
        for (String entry : classpath.split(File.pathSeparator)) {
            path.add(Paths.get(entry).toAbsolutePath().toUri().toString());
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "org.openjdk.jmh.Main");
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, String.join(" ", path));
        Path jar = dir.resolve("benchmarks.jar");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, manifest)) {
            j.flush();
        }
        return jar;
    }
}
