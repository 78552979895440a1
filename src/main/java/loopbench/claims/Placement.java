package loopbench.claims;

import loopbench.report.JmhResult;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Where the processes of one end-to-end result ran, from its own side files: the {@code placement} parameter, the
 * CPUs each process really had (read back from /proc by the benchmark), and each one's CPU use over the measurement
 * against the CPUs it had, so a reader sees which component was saturated.
 *
 * @param param  the result's {@code placement} parameter, or null (a result from before placements existed)
 * @param cpus   per role (client, proxy, origin, echo), the CPU lists its processes had over the trials
 * @param use    per role, the mean CPU use over the trials, in CPUs
 * @param trials side files read
 */
public record Placement(String param, Map<String, Set<String>> cpus, Map<String, Double> use, int trials) {

    /** The placement of {@code r}, from its side files in {@code m}. */
    public static Placement of(JmhResult r, Measurements m) {
        Map<String, Set<String>> cpus = new TreeMap<>();
        Map<String, List<Double>> uses = new TreeMap<>();
        List<SideFile> files = m.sideFiles(r);
        for (SideFile f : files) {
            f.cpus().forEach((role, list) -> cpus.computeIfAbsent(role, k -> new TreeSet<>()).add(list));
            f.cpuUse().forEach((role, u) -> uses.computeIfAbsent(role, k -> new ArrayList<>()).add(u));
        }
        Map<String, Double> use = new TreeMap<>();
        uses.forEach((role, l) -> use.put(role, l.stream().mapToDouble(Double::doubleValue).average().orElse(0)));
        return new Placement(r.param(ClaimCatalog.PLACEMENT), cpus, use, files.size());
    }

    /** How many CPUs a list such as {@code 0-1,3} or {@code 0+2} names; 0 if it cannot be read. */
    public static int count(String cpuList) {
        int n = 0;
        for (String part : cpuList.trim().split("[,+]")) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            try {
                int dash = p.indexOf('-');
                n += dash < 0 ? 1
                        : Integer.parseInt(p.substring(dash + 1)) - Integer.parseInt(p.substring(0, dash)) + 1;
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return n;
    }

    /** "pinned" (or "not recorded"). */
    public String paramText() {
        return param == null ? "not recorded (no placement parameter)" : param;
    }

    /** "client 0, proxy 1, origin 0" (or "not recorded"). */
    public String cpusText() {
        if (cpus.isEmpty()) {
            return "not recorded";
        }
        List<String> parts = new ArrayList<>();
        cpus.forEach((role, lists) -> parts.add(role + " " + String.join(" / ", lists)));
        return String.join(", ", parts);
    }

    /** "client 0.95 of 1 CPU, proxy 0.97 of 1 CPU (saturated)" (or "not recorded"). */
    public String useText() {
        if (use.isEmpty()) {
            return "not recorded";
        }
        List<String> parts = new ArrayList<>();
        use.forEach((role, u) -> {
            int had = had(role);
            String of = had > 0 ? " of " + had + (had == 1 ? " CPU" : " CPUs") : "";
            parts.add(String.format(Locale.ROOT, "%s %.2f%s%s", role, u, of, saturated(role) ? " (saturated)" : ""));
        });
        return String.join(", ", parts);
    }

    /**
     * Whether {@code role}'s processes used 90% or more of the CPUs they had (as {@link #useText()} marks them): for
     * the client, the load generator was saturated and requests/s measured its pace as much as the server's.
     */
    public boolean saturated(String role) {
        Double u = use.get(role);
        int had = had(role);
        return u != null && had > 0 && u >= 0.9 * had;
    }

    /** How many CPUs {@code role}'s processes had; 0 when unknown or when it differed between trials. */
    private int had(String role) {
        Set<String> lists = cpus.getOrDefault(role, Set.of());
        return lists.size() == 1 ? count(lists.iterator().next()) : 0;
    }

    /** The distinct placement parameters of a set of placements, for the machine section. */
    static Set<String> params(List<Placement> all) {
        Set<String> s = new LinkedHashSet<>();
        all.forEach(p -> s.add(p.paramText()));
        return s;
    }
}
