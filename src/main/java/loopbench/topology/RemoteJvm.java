package loopbench.topology;

import loopbench.process.JavaRuntime;
import loopbench.process.JvmFlags;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarFile;

/**
 * loopbench on another machine: the java there ({@code java=} of the hosts file, default {@code java} on its PATH,
 * its release asked once) and loopbench's class path there: the jar found at a configured path ({@code jar=}), or
 * this run's own jar copied there with scp, once per content (/tmp/loopbench-SHA.jar: a later run finds it).
 */
public record RemoteJvm(SshHost host, String java, int feature, String classPath) {

    /** Asks the host its java's release and makes sure loopbench's jar is there. */
    public static RemoteJvm on(SshHost host, String java, String remoteJar, Path localJar) {
        SshHost.Output settings = host.run(List.of(java, "-XshowSettings:properties", "-version"));
        int feature;
        try {
            feature = JavaRuntime.fromSettings(Paths.get(java), settings.text(), settings.exitCode()).feature();
        } catch (IOException e) {
            throw new IllegalStateException("on " + host + ": " + e.getMessage() + " (give java= in the hosts file)",
                    e);
        }
        String classPath;
        if (remoteJar != null) {
            if (host.run(List.of("test", "-r", remoteJar)).exitCode() != 0) {
                throw new IllegalStateException("on " + host + ": jar=" + remoteJar + " is not a readable file there");
            }
            classPath = remoteJar;
        } else {
            classPath = copy(host, localJar);
        }
        return new RemoteJvm(host, java, feature, classPath);
    }

    /** {@code java <server flags for its release> -cp <jar> loopbench.cli.Main <command> <args>}: a server. */
    public List<String> loopbench(String command, List<String> args) {
        List<String> plain = command(command, args);
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(JvmFlags.serverDefaults(feature));
        cmd.addAll(plain.subList(1, plain.size()));
        return cmd;
    }

    /** {@code java -cp <jar> loopbench.cli.Main <command> <args>}: a command with the JVM's defaults (load). */
    public List<String> command(String command, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add("loopbench.cli.Main");
        cmd.add(command);
        cmd.addAll(args);
        return cmd;
    }

    private static String copy(SshHost host, Path localJar) {
        if (!Files.isRegularFile(localJar)) {
            throw new IllegalStateException("no loopbench jar to copy to " + host + ": " + localJar
                    + " is not a file (give jar= in the hosts file: where loopbench.jar is on the hosts)");
        }
        String remote = remotePath(localJar);
        if (host.run(List.of("test", "-r", remote)).exitCode() == 0) {
            return remote; // copied by an earlier run: same content, same name
        }
        String partial = remote + ".partial-" + ProcessHandle.current().pid();
        SshHost.Output scp = SshHost.runLocally(host.scp(localJar, partial));
        if (scp.exitCode() != 0) {
            throw new IllegalStateException("cannot copy " + localJar + " to " + host + ":" + partial + " (scp exit "
                    + scp.exitCode() + "): " + scp.text().trim());
        }
        host.check(List.of("mv", "-f", partial, remote));
        return remote;
    }

    /** Where a host keeps its copy of {@code localJar}: /tmp/loopbench-SHA.jar, a name of its content. */
    public static String remotePath(Path localJar) {
        return "/tmp/loopbench-" + sha256(localJar).substring(0, 16) + ".jar";
    }

    /**
     * The jar this JVM runs loopbench from (loopbench.jar, or benchmarks.jar in a JMH fork: both hold the CLI), or
     * null when it runs from class directories (a build's tests).
     */
    public static Path ownJar() {
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path p = Paths.get(entry);
            if (entry.endsWith(".jar") && Files.isRegularFile(p) && containsCli(p)) {
                return p;
            }
        }
        return null;
    }

    private static boolean containsCli(Path jar) {
        try (JarFile j = new JarFile(jar.toFile())) {
            return j.getEntry("loopbench/cli/Main.class") != null;
        } catch (IOException e) {
            return false;
        }
    }

    private static String sha256(Path file) {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
