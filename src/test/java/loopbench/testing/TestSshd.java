package loopbench.testing;

import loopbench.process.CommandTemplate;
import loopbench.process.ExternalProcess;
import loopbench.topology.RemoteJvm;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.stream.Stream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * "Another machine" for the tests: OpenSSH's sshd started by the test on a free port of 127.0.0.1, with a host key
 * and a client key generated for it, that lets this user in with that key only: a JUnit extension, started before
 * the class's tests ({@code @RegisterExtension static final TestSshd SSHD = new TestSshd();}) and stopped after them.
 * It runs as an external process (its process group stopped after the tests, and by the watchdog if the test JVM
 * dies). Tests that cannot have it (no sshd installed: {@code apt-get install openssh-server}, which .ci/run does as
 * root) are skipped, saying why.
 */
public final class TestSshd implements BeforeAllCallback, AfterAllCallback {
    public static final Path SSHD = Paths.get("/usr/sbin/sshd");
    /** Its configuration, shared with profiles/ssh-loopback.sh ({@code @DIR@}: the directory of its keys). */
    static final Path CONFIG = Paths.get("profiles/lib/loopback-sshd.conf");

    private Path dir;
    private ExternalProcess sshd;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException, InterruptedException {
        assumeTrue(Files.isExecutable(SSHD), SSHD + " is not installed (apt-get install openssh-server; .ci/run "
                + "installs it when it runs as root)");
        assumeTrue(onPath("ssh") && onPath("scp") && onPath("ssh-keygen"), "OpenSSH's client (ssh, scp, ssh-keygen) "
                + "is not on the PATH (apt-get install openssh-client)");
        Path dir = Files.createTempDirectory("loopbench-sshd-");
        keygen(dir.resolve("host_key"));
        keygen(dir.resolve("client_key"));
        Files.copy(dir.resolve("client_key.pub"), dir.resolve("authorized_keys"));
        Files.writeString(dir.resolve("sshd_config"), Files.readString(CONFIG, StandardCharsets.UTF_8)
                .replace("@DIR@", dir.toString()), StandardCharsets.UTF_8);
        if ("root".equals(System.getProperty("user.name"))) {
            Files.createDirectories(Paths.get("/run/sshd")); // sshd's privilege separation directory
        }
        this.dir = dir;
        this.sshd = ExternalProcess.start("sshd", new CommandTemplate(SSHD + " -D -e -f " + dir.resolve("sshd_config")
                + " -o Port={listenPort}"), "127.0.0.1", 0, Duration.ofSeconds(30));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (sshd != null) {
            sshd.stop();
        }
        Path jar = dir == null ? null : dir.resolve("classpath.jar");
        if (jar != null && Files.exists(jar)) { // "the other host" is this one: its copy of the test's jar goes too
            try {
                Files.deleteIfExists(Paths.get(RemoteJvm.remotePath(jar)));
            } catch (IOException e) {
                System.err.println("TestSshd: cannot remove the copy of " + jar + ": " + e.getMessage());
            }
        }
        if (dir != null) { // its keys, config and known hosts
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            } catch (IOException e) {
                System.err.println("TestSshd: cannot remove " + dir + ": " + e.getMessage());
            }
        }
    }

    private static boolean onPath(String tool) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Paths.get(d, tool))) {
                return true;
            }
        }
        return false;
    }

    private static void keygen(Path key) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "loopbench-test", "-f",
                key.toString()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("ssh-keygen failed: " + out);
        }
    }

    public int port() {
        return sshd.port();
    }

    /** {@code ssh://USER@127.0.0.1:PORT}. */
    public String uri() {
        return "ssh://" + System.getProperty("user.name") + "@127.0.0.1:" + port();
    }

    /** The options every ssh and scp call needs for this server: its key, a known-hosts file of its own. */
    public String sshOptions() {
        return "-i " + dir.resolve("client_key") + " -o UserKnownHostsFile=" + dir.resolve("known_hosts")
                + " -o StrictHostKeyChecking=accept-new -o LogLevel=ERROR";
    }

    /**
     * A hosts file for this server: {@code roles} on it, this JVM's java, and a jar to copy there that holds nothing
     * but a manifest naming this JVM's class path (this is the same machine), so that the copy is really made.
     */
    public Properties hosts(String... roles) throws IOException {
        Properties p = new Properties();
        for (String role : roles) {
            p.setProperty(role, uri());
        }
        p.setProperty("ssh.options", sshOptions());
        p.setProperty("java", Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        p.setProperty("local.jar", classPathJar().toString());
        return p;
    }

    private Path classPathJar() throws IOException {
        Path jar = dir.resolve("classpath.jar");
        if (!Files.exists(jar)) {
            Manifest m = new Manifest();
            m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            StringBuilder cp = new StringBuilder();
            for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
                cp.append(cp.length() == 0 ? "" : " ").append(Paths.get(entry).toUri());
            }
            m.getMainAttributes().put(Attributes.Name.CLASS_PATH, cp.toString());
            try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
                out.flush();
            }
        }
        return jar;
    }

    /** What sshd logged (its errors). */
    public String log() {
        return sshd.stderr();
    }

    /** The sessions' processes must end by themselves; this lists what of {@code commandLinePart} still runs. */
    public static List<ProcessHandle> running(String commandLinePart) {
        return ProcessHandle.allProcesses().filter(h -> h.info().commandLine().orElse("").contains(commandLinePart))
                .toList();
    }
}
