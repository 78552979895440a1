package loopbench.topology;

import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which CPUs each component of an end-to-end run may use: the {@code placement} parameter.
 * <ul>
 *   <li>{@code pinned}: the component under study (the proxy; without a proxy, the server) alone on the upper half
 *       of the CPUs this process may use, every other component (the load generator, the origin) on the rest. On
 *       2 CPUs: the proxy on CPU 1, the generator and the origin on CPU 0, as on the articles' machines, where the
 *       proxy had a host of its own. With one CPU there is nothing to separate: every component shares it, and the
 *       plan says so.</li>
 *   <li>{@code shared}: no pinning; the kernel puts every thread where it likes.</li>
 *   <li>{@code ROLE=CPUS/ROLE=CPUS...}: as given ({@code proxy=1/client=0/origin=0}); a component not named may
 *       use every CPU this process may use.</li>
 * </ul>
 */
public final class Placement {
    public static final String PINNED = "pinned";
    public static final String SHARED = "shared";
    /** The forms the parameter takes, for error messages. */
    public static final String FORMS = "pinned, shared, or ROLE=CPUS joined by '/' (e.g. proxy=1/client=0/origin=0;"
            + " ROLE: client, proxy, origin, echo; CPUS: a CPU number (0), a range (1-3), or items joined by "
            + "'+' (0+2))";

    private final String name;
    /** Null for pinned and shared. */
    private final Map<Role, CpuSet> explicit;

    private Placement(String name, Map<Role, CpuSet> explicit) {
        this.name = name;
        this.explicit = explicit;
    }

    public static Placement parse(String value) {
        String v = value == null ? "" : value.trim();
        if (PINNED.equals(v) || SHARED.equals(v)) {
            return new Placement(v, null);
        }
        if (!v.contains("=")) {
            throw bad(value, "neither pinned, shared nor ROLE=CPUS");
        }
        Map<Role, CpuSet> m = new EnumMap<>(Role.class);
        for (String item : v.split("/", -1)) {
            int eq = item.indexOf('=');
            if (eq < 0) {
                throw bad(value, "'" + item + "' is not ROLE=CPUS");
            }
            Role role;
            CpuSet cpus;
            try {
                role = Role.parse(item.substring(0, eq).trim());
                cpus = CpuSet.parse(item.substring(eq + 1));
            } catch (IllegalArgumentException e) {
                throw bad(value, e.getMessage());
            }
            if (m.put(role, cpus) != null) {
                throw bad(value, role + " is named twice");
            }
        }
        return new Placement(v, m);
    }

    private static IllegalArgumentException bad(String value, String why) {
        return new IllegalArgumentException("bad placement '" + value + "' (" + why + "); valid: " + FORMS);
    }

    public String name() {
        return name;
    }

    /**
     * The CPUs of each component of a run whose components are {@code roles}, {@code alone} the one that gets CPUs
     * of its own under {@code pinned}, on a machine where this process may use {@code available}. Throws naming the
     * CPUs available if the placement asks for others, or names a component the run does not have.
     */
    public CpuPlan resolve(Role alone, Set<Role> roles, CpuSet available) {
        if (!roles.contains(alone)) {
            throw new IllegalArgumentException(alone + " is not among the components " + roles);
        }
        Map<Role, CpuSet> cpus = new EnumMap<>(Role.class);
        if (SHARED.equals(name)) {
            return new CpuPlan(name, available, cpus, null);
        }
        if (explicit == null) { // pinned
            if (available.size() < 2) {
                return new CpuPlan(name, available, cpus, "placement pinned needs 2 CPUs or more, and this process may"
                        + " use only CPU " + available + ": every component shares it, as with placement shared");
            }
            CpuSet own = available.highest(available.size() / 2);
            CpuSet rest = available.minus(own);
            for (Role r : roles) {
                cpus.put(r, r == alone ? own : rest);
            }
            return new CpuPlan(name, available, cpus, null);
        }
        for (Map.Entry<Role, CpuSet> e : explicit.entrySet()) {
            if (!roles.contains(e.getKey())) {
                throw new IllegalArgumentException("placement '" + name + "' names " + e.getKey() + ", which this run"
                        + " does not have; its components: " + roles.stream().map(Role::cliName)
                        .collect(Collectors.joining(", ")));
            }
            if (!e.getValue().isSubsetOf(available)) {
                throw new IllegalArgumentException("placement '" + name + "' puts " + e.getKey() + " on CPU "
                        + e.getValue().minus(available) + ", which this process may not use: it may use CPUs "
                        + available + " (" + available.size() + " CPUs, Cpus_allowed_list of /proc/self/status)");
            }
        }
        for (Role r : roles) {
            // Named or not, every component gets a CPU list: an unnamed one would otherwise inherit the affinity of
            // the thread that starts it (the pinned load generator's).
            cpus.put(r, explicit.getOrDefault(r, available));
        }
        return new CpuPlan(name, available, cpus, null);
    }

    @Override
    public String toString() {
        return name;
    }
}
