package loopbench.gate;

import loopbench.process.JavaRuntime;
import loopbench.process.JvmFlags;
import loopbench.rounds.Launch;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * One side of a gate: a benchmarks jar, the JVM that runs it and the JVM arguments its forks get.
 *
 * <p>Every fork of the side gets, through JMH's {@code -jvmArgsPrepend}: Netty's Unsafe path on or off, checked in
 * the fork itself ({@code -Dloopbench.requireUnsafe}, see AbstractBenchmark), then the side's own arguments.
 * Prepended, so a benchmark's own {@code @Fork(jvmArgsAppend)} (heap size, leak detection, its executor) is kept;
 * for a property that a benchmark sets itself, the benchmark's value wins.
 *
 * @param role        "baseline" or "candidate"
 * @param jar         the side's benchmarks.jar
 * @param java        the JVM that runs the jar and its forks
 * @param jvmArgs     the side's own JVM arguments for every fork (e.g. a flag under test)
 * @param unsafe      whether Netty's sun.misc.Unsafe path is on in the forks
 * @param nettyVersion the Netty version inside the jar (from its io.netty.versions.properties), or "unknown"
 */
public record Side(String role, Path jar, JavaRuntime java, List<String> jvmArgs, boolean unsafe, String nettyVersion) {
    public Side {
        jvmArgs = List.copyOf(jvmArgs);
    }

    /** The side, with the Netty version read from its jar. */
    public static Side of(String role, Path jar, JavaRuntime java, List<String> jvmArgs, boolean unsafe) {
        return new Side(role, jar, java, jvmArgs, unsafe, nettyVersion(jar));
    }

    /** What every fork of this side gets before the benchmark's own JVM arguments. */
    public List<String> forkJvmArgs() {
        List<String> args = new ArrayList<>();
        if (unsafe) {
            args.addAll(JvmFlags.unsafeAccess(java.feature()));
            args.add("-Dio.netty.noUnsafe=false");
            args.add("-Dloopbench.requireUnsafe=true");
        } else {
            args.add("-Dio.netty.tryUnsafe=false");
            args.add("-Dloopbench.requireUnsafe=false");
        }
        args.addAll(jvmArgs);
        return args;
    }

    /** How the rounds engine starts this side's forks: its JVM, its jar, {@link #forkJvmArgs()}. */
    public Launch launch() {
        return new Launch(java.executable(), jar, forkJvmArgs());
    }

    /** One line for reports: jar, JDK, Netty, Unsafe, JVM args. */
    public String describe() {
        return jar + " on " + java.describe() + ", Netty " + nettyVersion + ", Netty Unsafe "
                + (unsafe ? "on" : "off") + " (checked in every fork)"
                + (jvmArgs.isEmpty() ? "" : ", JVM args: " + String.join(" ", jvmArgs));
    }

    static String nettyVersion(Path jar) {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            ZipEntry e = zip.getEntry("META-INF/io.netty.versions.properties");
            if (e == null) {
                return "unknown";
            }
            Properties p = new Properties();
            try (InputStream in = zip.getInputStream(e)) {
                p.load(in);
            }
            return p.getProperty("netty-common.version", "unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }
}
