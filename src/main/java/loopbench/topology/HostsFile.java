package loopbench.topology;

import loopbench.load.Durations;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.time.Duration;

/**
 * Which machine each component of an end-to-end run runs on ({@code -Dloopbench.hosts=hosts.properties}):
 *
 * <pre>
 * proxy=ssh://bench@host-b          # a role on another machine, reached with OpenSSH
 * origin=ssh://bench@host-c:2222
 * client=local                      # this machine (the default for every role not named)
 * ssh.options=-i /home/me/.ssh/bench -o StrictHostKeyChecking=accept-new   # given to every ssh and scp
 * jar=/opt/loopbench/loopbench.jar  # where loopbench's jar is on the hosts; default: this run's jar, copied there
 * java=/usr/lib/jvm/java-17/bin/java                       # the hosts' java; default: java on their PATH
 * proxy.address=10.0.0.2            # where the others reach a role's server; default: its ssh host
 * proxy.listen=0.0.0.0              # what it binds; default: its address when that is an IP, else 0.0.0.0
 * local.jar=target/loopbench.jar    # which local jar to copy; default: the jar this JVM runs from
 * heartbeat=15s                     # a remote server stops after this long without a word from here (a link
 *                                   # that drops without a reset); this side writes a line a third as often
 * </pre>
 *
 * Roles: client, proxy, origin, echo; the client may name several machines, comma-separated (each runs a load
 * generator; their results are merged). A key or role not listed here is an error naming the valid ones.
 */
public final class HostsFile {
    public static final String PROPERTY = "loopbench.hosts";
    public static final List<String> ROLES = List.of("client", "proxy", "origin", "echo");
    static final String LOCAL = "local";
    private static final List<String> SETTINGS = List.of("ssh.options", "jar", "java", "local.jar", "heartbeat");
    /** How long a remote server waits for a word from this side before it takes the link for dropped. */
    static final Duration DEFAULT_HEARTBEAT = Duration.ofSeconds(15);
    private static final List<String> PER_ROLE = List.of("address", "listen");

    private final String source;
    private final Map<String, List<SshHost>> hosts; // role -> its machines; an entry of null is this one
    private final Properties properties;
    private final Map<SshHost, RemoteJvm> jvms = new ConcurrentHashMap<>();

    private HostsFile(String source, Map<String, List<SshHost>> hosts, Properties properties) {
        this.source = source;
        this.hosts = hosts;
        this.properties = properties;
    }

    /** The file named by {@code -Dloopbench.hosts}, if any. */
    public static Optional<HostsFile> fromSystemProperty() {
        String file = System.getProperty(PROPERTY);
        return file == null || file.isBlank() ? Optional.empty() : Optional.of(load(Paths.get(file)));
    }

    public static HostsFile load(Path file) {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the hosts file " + file + ": " + e.getMessage(), e);
        }
        return parse(p, file.toString());
    }

    public static HostsFile parse(Properties p, String source) {
        List<String> options = split(p.getProperty("ssh.options", ""));
        Map<String, List<SshHost>> hosts = new LinkedHashMap<>();
        for (String key : p.stringPropertyNames()) {
            String value = p.getProperty(key).trim();
            int dot = key.indexOf('.');
            String role = dot < 0 ? key : key.substring(0, dot);
            boolean perRole = dot > 0 && ROLES.contains(role) && PER_ROLE.contains(key.substring(dot + 1));
            if (SETTINGS.contains(key) || perRole) {
                continue;
            }
            if (dot >= 0 || !ROLES.contains(key)) {
                throw new IllegalArgumentException(source + ": unknown key '" + key + "'; valid: " + String.join(", ",
                        ROLES) + " (each " + LOCAL + " or ssh://[user@]host[:port]), ROLE.address, ROLE.listen, "
                        + String.join(", ", SETTINGS));
            }
            List<SshHost> machines = new ArrayList<>();
            for (String v : value.split(",")) {
                String m = v.trim();
                if (m.equals(LOCAL)) {
                    machines.add(null);
                } else {
                    try {
                        machines.add(SshHost.parse(m, options));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(source + ": " + key + "=" + value + ": " + e.getMessage()
                                + "; valid: " + LOCAL + " or ssh://[user@]host[:port]", e);
                    }
                }
            }
            if (machines.size() > 1 && !key.equals("client")) {
                throw new IllegalArgumentException(source + ": " + key + "=" + value + " names " + machines.size()
                        + " machines; only client may name several");
            }
            hosts.put(key, machines);
        }
        return new HostsFile(source, hosts, p);
    }

    /** The machine a server role runs on: empty for this one. */
    public Optional<SshHost> host(String role) {
        requireRole(role);
        List<SshHost> m = hosts.get(role);
        return m == null || m.get(0) == null ? Optional.empty() : Optional.of(m.get(0));
    }

    /** The machines of the load generators (an empty Optional for this one); one, this machine, by default. */
    public List<Optional<SshHost>> clients() {
        List<SshHost> m = hosts.getOrDefault("client", Arrays.asList((SshHost) null));
        List<Optional<SshHost>> list = new ArrayList<>();
        m.forEach(h -> list.add(Optional.ofNullable(h)));
        return list;
    }

    /** Where the others reach {@code role}'s server: {@code ROLE.address}, else its ssh host. */
    public String reachAddress(String role) {
        return Optional.ofNullable(properties.getProperty(role + ".address")).map(String::trim)
                .orElseGet(() -> host(role).map(SshHost::host).orElse("127.0.0.1"));
    }

    /** What {@code role}'s server binds: {@code ROLE.listen}, else its address when that is an IP, else 0.0.0.0. */
    public String listenAddress(String role) {
        String given = properties.getProperty(role + ".listen");
        if (given != null) {
            return given.trim();
        }
        String reach = reachAddress(role);
        return reach.matches("[0-9.]+") || reach.contains(":") ? reach : "0.0.0.0";
    }

    /** loopbench on {@code host}: its java, and its jar (copied once per run and host). */
    public RemoteJvm jvm(SshHost host) {
        return jvms.computeIfAbsent(host, h -> {
            String localJar = properties.getProperty("local.jar");
            Path jar = localJar != null ? Paths.get(localJar.trim()) : RemoteJvm.ownJar();
            String remoteJar = properties.getProperty("jar");
            if (remoteJar == null && jar == null) {
                throw new IllegalStateException(source + ": this JVM runs loopbench from class directories, not a jar: "
                        + "give jar= (where loopbench.jar is on the hosts) or local.jar= (a jar to copy there)");
            }
            return RemoteJvm.on(h, properties.getProperty("java", "java").trim(),
                    remoteJar == null ? null : remoteJar.trim(), jar);
        });
    }

    /** Starts {@code loopbench <command> <args>} as {@code role} on its machine (which must be another one). */
    public RemoteServer startServer(String role, String command, List<String> args) {
        SshHost h = host(role).orElseThrow(() -> new IllegalStateException(role + " runs on this machine"));
        return RemoteServer.start(jvm(h), role, command, args, listenAddress(role), reachAddress(role), heartbeat());
    }

    /** {@code heartbeat=}, default {@link #DEFAULT_HEARTBEAT}. */
    Duration heartbeat() {
        String v = properties.getProperty("heartbeat");
        if (v == null) {
            return DEFAULT_HEARTBEAT;
        }
        try {
            Duration d = Durations.parse(v.trim());
            if (d.toMillis() >= 1000) {
                return d;
            }
        } catch (IllegalArgumentException e) {
            // said below
        }
        throw new IllegalArgumentException(source + ": heartbeat=" + v + " is not a duration of 1s or more (e.g. 15s)");
    }

    private void requireRole(String role) {
        if (!ROLES.contains(role)) {
            throw new IllegalArgumentException("unknown role '" + role + "'; valid: " + String.join(", ", ROLES));
        }
    }

    private static List<String> split(String s) {
        return s.isBlank() ? List.of() : List.of(s.trim().split("\\s+"));
    }

    @Override
    public String toString() {
        return source;
    }
}
