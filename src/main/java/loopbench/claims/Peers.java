package loopbench.claims;

import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Real gateways measured in the place of the claims run's stand-in (loopbench's L7 proxy): results of
 * {@code ProxyEndToEndBenchmark -p layer=external} (nginx, HAProxy, Zuul 2, a user's gateway) and of its
 * {@code layer=direct} reference, run apart from the claims run (e.g. by {@code profiles/reference-proxies/external.sh}
 * under a claim's load). A claim that names its peers ({@link Claim#peers()}) shows each of its checks again with each
 * gateway as the numerator. They decide nothing: they ran outside the claims run's rounds, so the machine's drift
 * between the runs lies inside their intervals (Welch t on forks), and with the gateways' own settings.
 *
 * <p>Each input file is one gateway (external.sh writes one file per target) or, when every result in it is
 * {@code layer=direct}, the reference every gateway's ratio divides by. A gateway matches a check when it ran the
 * check's benchmark under the check's load: the parameters in {@link #WORKLOAD} as the check pins them; the stand-in's
 * own knobs (transport, threads, allocator, ...) are free, since each gateway brings its own.
 */
public final class Peers {
    /** The parameters that say what load ran, and where; a peer must match these, not the stand-in's knobs. */
    static final Set<String> WORKLOAD = Set.of("connections", "bodySize", "connection", "rate", ClaimCatalog.TOPOLOGY,
            ClaimCatalog.LINK, ClaimCatalog.PLACEMENT);
    /** The stand-in these results replace. */
    static final String STAND_IN_LAYER = "7";

    /** One gateway: its name, its layer parameter, the file it came from, with the references beside it. */
    public record Target(String name, String layer, Path source, Measurements measurements) {
    }

    /** A claim's check evaluated with one gateway in the stand-in's place. */
    public record Row(String gateway, CheckResult result) {
    }

    private final List<Path> sources;
    private final List<Target> targets;

    private Peers(List<Path> sources, List<Target> targets) {
        this.sources = List.copyOf(sources);
        this.targets = List.copyOf(targets);
    }

    public static Peers none() {
        return new Peers(List.of(), List.of());
    }

    /** Reads the gateways' and the references' JMH JSON files; IOException for a file that holds no result. */
    public static Peers load(List<Path> files) throws IOException {
        Measurements all = Measurements.load(files); // each file and side-file folder read once
        List<Path> references = new ArrayList<>();
        Map<Path, JmhResult> gateways = new LinkedHashMap<>();
        for (Path f : files) {
            List<JmhResult> results = all.resultsOf(f);
            JmhResult gateway = results.stream().filter(r -> !"direct".equals(r.param("layer"))).findFirst()
                    .orElse(null);
            if (results.isEmpty()) {
                throw new IOException(f + " holds no JMH result");
            } else if (gateway == null) {
                references.add(f);
            } else {
                gateways.put(f, gateway);
            }
        }
        List<Target> targets = new ArrayList<>();
        for (Map.Entry<Path, JmhResult> g : gateways.entrySet()) {
            List<Path> in = new ArrayList<>(references);
            in.add(g.getKey());
            targets.add(new Target(name(g.getValue()), g.getValue().param("layer"), g.getKey(), all.only(in)));
        }
        return new Peers(files, targets);
    }

    /** "nginx", "Zuul 2", "loopbench L7": from the external command template, or the layer. */
    static String name(JmhResult r) {
        String layer = r.param("layer");
        if (!"external".equals(layer)) {
            return "loopbench L" + layer;
        }
        String command = Objects.requireNonNullElse(r.systemProperty(EndToEndMetrics.EXTERNAL_PROXY_PROPERTY), "");
        String c = command.toLowerCase(Locale.ROOT);
        if (c.contains("zuul")) {
            return "Zuul 2";
        } else if (c.contains("haproxy")) {
            return "HAProxy";
        } else if (c.contains("nginx")) {
            return "nginx";
        }
        return command.isEmpty() ? "external gateway" : "external: " + abbreviate(command);
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    public boolean isEmpty() {
        return targets.isEmpty();
    }

    public List<Path> sources() {
        return sources;
    }

    public List<Target> targets() {
        return targets;
    }

    /**
     * The claim's checks (decisive, then supporting) whose numerator is the stand-in, each evaluated with every
     * gateway that ran under its load; empty for a claim that names no peers.
     */
    public List<Row> rows(Claim c) {
        List<Row> rows = new ArrayList<>();
        if (c.peers() == null) {
            return rows;
        }
        List<Check> checks = new ArrayList<>(c.decisive());
        checks.addAll(c.supporting());
        for (Check check : checks) {
            if (!STAND_IN_LAYER.equals(check.numerator().params().get("layer"))) {
                continue;
            }
            for (Target t : targets) {
                Check peer = check.onPeers(workload(check.numerator(), t.layer()),
                        check.denominator() == null ? null : workload(check.denominator(), null));
                if (t.measurements().find(peer.numerator()) == null) {
                    continue; // this gateway did not run under this check's load
                }
                CheckResult r = peer.evaluate(t.measurements());
                if (r.status() != Verdict.MISSING) { // e.g. no direct reference given, or a metric its run lacks
                    rows.add(new Row(t.name(), r));
                }
            }
        }
        return rows;
    }

    /** The selection with only its workload parameters pinned, and its layer set to {@code layer} if given. */
    static Selection workload(Selection s, String layer) {
        Map<String, String> p = new TreeMap<>();
        s.params().forEach((k, v) -> {
            if (WORKLOAD.contains(k)) {
                p.put(k, v);
            }
        });
        String l = layer != null ? layer : s.params().get("layer");
        if (l != null) {
            p.put("layer", l);
        }
        return new Selection(s.label(), s.benchmark(), p, s.group());
    }
}
