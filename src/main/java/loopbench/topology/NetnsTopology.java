package loopbench.topology;

import loopbench.metrics.ProcStat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The articles' separate hosts on a switch, on one machine: every server of a run in a network namespace of its
 * own, joined with the client to a bridge (the switch, in a namespace of its own too) by one veth pair per host,
 * each pair optionally shaped in both directions ({@link LinkSpec}: tc {@code tbf} on both ends, {@code netem}
 * for a delay). Set up and torn down with iproute2's {@code ip} and {@code tc}.
 *
 * <p>The client is this process, which stays in its own namespace (a JVM cannot move itself into another one):
 * this namespace is the client's host, joined to the switch by a veth of its own, like the servers. Every address is
 * in one /24 of 198.18.0.0/15 (RFC 2544's benchmark range) that no interface of this namespace uses yet: the client
 * .1, then proxy .2, origin .3, echo .4. No namespace has a default route, so nothing leaves them: a server reaches
 * only the hosts on the switch.
 *
 * <p>Nothing outlives its run: {@link #close()} removes every namespace and link (a failed setup removes what it
 * made before it throws, a shutdown hook what a run left open), and since a killed JVM runs no hook, every name
 * carries its owner's pid and start time and {@link #removeStale()} (called by every setup) removes what a dead
 * owner left: {@code loopbench-PID-START-N-ROLE} for namespaces, {@code lbPID-N} for this namespace's veth end.
 */
public final class NetnsTopology implements AutoCloseable {
    private static final String PREFIX = "loopbench-";
    private static final Pattern NAMESPACE = Pattern.compile("^loopbench-(\\d+)-(\\d+)-(\\d+)-([a-z]+)$");
    private static final Pattern CLIENT_LINK = Pattern.compile("^lb(\\d+)-(\\d+)$");
    private static final String SWITCH = "switch";
    private static final String BRIDGE = "br0";
    private static final String HOST_LINK = "eth0";
    /** CAP_NET_ADMIN and CAP_SYS_ADMIN, as bits of /proc/PID/status CapEff. */
    private static final int CAP_NET_ADMIN = 12;
    private static final int CAP_SYS_ADMIN = 21;
    private static final AtomicInteger SEQUENCE = new AtomicInteger();
    private static final Set<NetnsTopology> OPEN = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (NetnsTopology t : List.copyOf(OPEN)) {
                t.close();
            }
        }, "loopbench-netns-reaper"));
    }

    private final String base;
    private final String clientLink;
    private final LinkSpec link;
    private final int subnet;
    private final Map<Role, String> namespaces = new EnumMap<>(Role.class);
    /** Everything made so far, to remove: namespaces by name, and this namespace's veth end. */
    private final List<String> made = new ArrayList<>();
    private boolean clientLinkMade;
    private long setupNanos;
    private long teardownNanos = -1;

    private NetnsTopology(LinkSpec link, int subnet) {
        long pid = ProcessHandle.current().pid();
        int n = SEQUENCE.incrementAndGet();
        this.base = PREFIX + pid + "-" + startSeconds(ProcessHandle.current()).orElse(0L) + "-" + n + "-";
        this.clientLink = "lb" + pid + "-" + n;
        this.link = link;
        this.subnet = subnet;
    }

    /**
     * Why this process cannot set up a netns topology (no {@code ip}, neither root nor the capabilities), or null
     * if it can.
     */
    public static String unavailableReason() {
        long caps;
        try {
            caps = Long.parseUnsignedLong(ProcStat.statusField(ProcessHandle.current().pid(), "CapEff"), 16);
        } catch (RuntimeException e) {
            return "cannot read this process's capabilities: " + e.getMessage();
        }
        List<String> missing = new ArrayList<>();
        if ((caps & (1L << CAP_SYS_ADMIN)) == 0) {
            missing.add("CAP_SYS_ADMIN (to create network namespaces)");
        }
        if ((caps & (1L << CAP_NET_ADMIN)) == 0) {
            missing.add("CAP_NET_ADMIN (to create and shape links)");
        }
        if (!missing.isEmpty()) {
            return "topology netns needs root, or " + String.join(" and ", missing) + ", which this process (uid "
                    + ProcStat.statusField(ProcessHandle.current().pid(), "Uid").split("\\s+")[0] + ") lacks";
        }
        try {
            SystemCommand.run("ip", "-V");
        } catch (IllegalStateException e) {
            return "topology netns needs iproute2's ip and tc: " + e.getMessage();
        }
        return null;
    }

    /**
     * Sets up a host for each of {@code roles} (the client here, every other role in a namespace of its own) on a
     * switch, every link shaped as {@code link} says. Removes first what dead owners left. On failure, removes what it
     * made and throws saying why.
     */
    public static NetnsTopology create(Set<Role> roles, LinkSpec link) {
        String why = unavailableReason();
        if (why != null) {
            throw new IllegalStateException(why);
        }
        long start = System.nanoTime();
        removeStale();
        NetnsTopology t;
        // The subnet is this namespace's only shared resource: chosen and taken under a lock, against concurrent runs.
        try (FileChannel lockFile = FileChannel.open(Path.of(System.getProperty("java.io.tmpdir"),
                "loopbench-netns.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
             FileLock lock = lockFile.lock()) {
            t = new NetnsTopology(link, freeSubnet());
            OPEN.add(t);
            try {
                t.setUp(roles);
            } catch (RuntimeException | Error e) {
                try {
                    t.close();
                } catch (RuntimeException again) {
                    e.addSuppressed(again);
                }
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + System.getProperty("java.io.tmpdir")
                    + "/loopbench-netns.lock: " + e.getMessage(), e);
        }
        t.setupNanos = System.nanoTime() - start;
        return t;
    }

    private void setUp(Set<Role> roles) {
        String sw = newNamespace(SWITCH);
        ip("netns", "add", sw);
        ip("-n", sw, "link", "set", "lo", "up");
        ip("-n", sw, "link", "add", BRIDGE, "type", "bridge");
        ip("-n", sw, "link", "set", BRIDGE, "up");
        if (link.delay() != null) {
            requireNetem(sw);
        }
        for (Role role : roles) {
            String port = role.cliName();
            if (role == Role.CLIENT) {
                ip("link", "add", clientLink, "type", "veth", "peer", "name", port, "netns", sw);
                clientLinkMade = true;
                hostSide(null, clientLink, role);
            } else {
                String ns = newNamespace(role.cliName());
                ip("netns", "add", ns);
                namespaces.put(role, ns);
                ip("-n", ns, "link", "set", "lo", "up");
                ip("link", "add", HOST_LINK, "netns", ns, "type", "veth", "peer", "name", port, "netns", sw);
                hostSide(ns, HOST_LINK, role);
            }
            // The switch's port: no address, no IPv6 link-local either; shaped towards the host.
            ip("-n", sw, "link", "set", port, "addrgenmode", "none");
            ip("-n", sw, "link", "set", port, "master", BRIDGE, "up");
            if (link.shaped()) {
                tc(sw, "qdisc", "add", "dev", port, "root", "tbf", "rate", link.tcRate(), "burst",
                        Long.toString(link.burstBytes()), "latency", "10ms");
            }
        }
    }

    /** A host's end of its link: its address (and no other: no IPv6 link-local), shaped towards the switch. */
    private void hostSide(String ns, String dev, Role role) {
        List<String> in = ns == null ? List.of() : List.of("-n", ns);
        ip(concat(in, "link", "set", dev, "addrgenmode", "none"));
        ip(concat(in, "addr", "add", address(role).getHostAddress() + "/24", "dev", dev));
        ip(concat(in, "link", "set", dev, "up"));
        if (link.delay() != null) {
            tc(ns, "qdisc", "add", "dev", dev, "root", "handle", "1:", "netem", "delay", link.tcDelay());
        }
        if (link.shaped()) {
            List<String> where = link.delay() != null ? List.of("parent", "1:1", "handle", "10:") : List.of("root");
            List<String> args = new ArrayList<>(List.of("qdisc", "add", "dev", dev));
            args.addAll(where);
            args.addAll(List.of("tbf", "rate", link.tcRate(), "burst", Long.toString(link.burstBytes()),
                    "latency", "10ms"));
            tc(ns, args.toArray(new String[0]));
        }
    }

    /** netem is a module many kernels lack: tried on the switch's loopback, refused with tc's own words. */
    private void requireNetem(String sw) {
        SystemCommand.Result r = SystemCommand.attempt("tc", "-n", sw, "qdisc", "add", "dev", "lo", "root", "netem",
                "delay", "1ms");
        if (!r.ok()) {
            throw new IllegalArgumentException("link '" + link + "' has a delay, which needs the kernel's netem qdisc"
                    + " (sch_netem), and this kernel has none ('tc qdisc add ... netem' says: " + r.output().trim()
                    + "); valid here: none, or a rate such as 1gbit or 100mbit");
        }
        tc(sw, "qdisc", "del", "dev", "lo", "root");
    }

    /** The name of a namespace of this topology, remembered for the teardown before it is made. */
    private String newNamespace(String role) {
        String ns = base + role;
        made.add(ns);
        return ns;
    }

    /** The namespace {@code role} runs in, or null for the client (this process's own). */
    public String namespace(Role role) {
        return namespaces.get(role);
    }

    /** The host {@code role} runs on: its namespace, and {@code cpus} (null: anywhere). */
    public Host host(Role role, CpuSet cpus) {
        return new Host(namespace(role), cpus);
    }

    /** The address of {@code role}'s host on the switch. */
    public InetAddress address(Role role) {
        return address(subnet, role.ordinal() + 1);
    }

    /** The veth end of the client's host (this namespace's). */
    public String clientLink() {
        return clientLink;
    }

    public LinkSpec link() {
        return link;
    }

    /** Every namespace of this topology, the switch's included. */
    public List<String> namespaces() {
        return List.copyOf(made);
    }

    /** How long the setup took (the removal of stale topologies included). */
    public long setupMillis() {
        return setupNanos / 1_000_000;
    }

    /** How long the teardown took, or -1 before it. */
    public long teardownMillis() {
        return teardownNanos < 0 ? -1 : teardownNanos / 1_000_000;
    }

    /**
     * Removes every namespace and link of this topology. Servers in them should have been stopped first; a process
     * still inside keeps its namespace alive, nameless, until it exits. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (!OPEN.remove(this)) {
            return;
        }
        long start = System.nanoTime();
        List<String> failures = new ArrayList<>();
        if (clientLinkMade) {
            removeLink(clientLink, failures);
        }
        for (String ns : made) {
            removeNamespace(ns, failures);
        }
        teardownNanos = System.nanoTime() - start;
        if (!failures.isEmpty()) {
            throw new IllegalStateException("could not remove all of " + base + "*: " + String.join("; ", failures));
        }
    }

    /**
     * Removes the namespaces and links whose owner (by the pid and start time in their names) is no longer running,
     * killing any process left inside them. Returns what it removed.
     */
    public static List<String> removeStale() {
        List<String> removed = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (String ns : namespaceNames()) {
            Matcher m = NAMESPACE.matcher(ns);
            if (m.matches() && !alive(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)))) {
                for (String pid : SystemCommand.attempt("ip", "netns", "pids", ns).output().split("\\s+")) {
                    if (!pid.isBlank()) {
                        ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
                    }
                }
                removeNamespace(ns, failures);
                removed.add(ns);
            }
        }
        for (String dev : linkNames()) {
            Matcher m = CLIENT_LINK.matcher(dev);
            if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                removeLink(dev, failures);
                removed.add(dev);
            }
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("could not remove what dead runs left: " + String.join("; ", failures));
        }
        return removed;
    }

    /** The names of the network namespaces of this machine ({@code ip netns list}). */
    public static Set<String> namespaceNames() {
        Set<String> names = new LinkedHashSet<>();
        for (String line : SystemCommand.run("ip", "netns", "list").split("\n")) {
            if (!line.isBlank()) {
                names.add(line.trim().split("\\s+")[0]);
            }
        }
        return names;
    }

    /** The names of the links of this process's namespace. */
    public static Set<String> linkNames() {
        Set<String> names = new LinkedHashSet<>();
        for (String line : SystemCommand.run("ip", "-o", "link", "show").split("\n")) {
            String[] f = line.split(":\\s+", 3);
            if (f.length >= 2) {
                names.add(f[1].split("@")[0]);
            }
        }
        return names;
    }

    private static void removeNamespace(String ns, List<String> failures) {
        SystemCommand.Result r = SystemCommand.attempt("ip", "netns", "del", ns);
        if (!r.ok() && namespaceNames().contains(ns)) {
            failures.add(ns + ": " + r.output().trim());
        }
    }

    private static void removeLink(String dev, List<String> failures) {
        SystemCommand.Result r = SystemCommand.attempt("ip", "link", "del", dev);
        if (!r.ok() && linkNames().contains(dev)) {
            failures.add(dev + ": " + r.output().trim());
        }
    }

    /** Whether the process that made a name still runs: same pid, and (where known) the same start time. */
    private static boolean alive(long pid, long startSeconds) {
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        return p.isPresent() && (startSeconds == 0
                || startSeconds(p.get()).map(s -> Math.abs(s - startSeconds) <= 1).orElse(true));
    }

    private static Optional<Long> startSeconds(ProcessHandle p) {
        return p.info().startInstant().map(Instant::getEpochSecond);
    }

    /** The first /24 of 198.18.0.0/15 that no address of this namespace is in. */
    private static int freeSubnet() {
        Set<Integer> used = new LinkedHashSet<>();
        Pattern inet = Pattern.compile("inet (198)\\.(18|19)\\.(\\d+)\\.\\d+/");
        Matcher m = inet.matcher(SystemCommand.run("ip", "-o", "-4", "addr", "show"));
        while (m.find()) {
            used.add((Integer.parseInt(m.group(2)) - 18) * 256 + Integer.parseInt(m.group(3)));
        }
        for (int i = 0; i < 512; i++) {
            if (!used.contains(i)) {
                return i;
            }
        }
        throw new IllegalStateException("every /24 of 198.18.0.0/15 is in use on this machine");
    }

    private static InetAddress address(int subnet, int host) {
        try {
            return InetAddress.getByAddress(new byte[] {(byte) 198, (byte) (18 + subnet / 256), (byte) (subnet % 256),
                    (byte) host});
        } catch (UnknownHostException e) {
            throw new AssertionError(e);
        }
    }

    private static String[] concat(List<String> head, String... tail) {
        List<String> all = new ArrayList<>(head);
        all.addAll(List.of(tail));
        return all.toArray(new String[0]);
    }

    private static void ip(String... args) {
        SystemCommand.run(concat(List.of("ip"), args));
    }

    /** tc in namespace {@code ns} (null: this one). */
    private static void tc(String ns, String... args) {
        SystemCommand.run(concat(ns == null ? List.of("tc") : List.of("tc", "-n", ns), args));
    }

    @Override
    public String toString() {
        return "netns topology " + base + "* (link " + link + ", " + address(subnet, 0).getHostAddress() + "/24)";
    }
}
