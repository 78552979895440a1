package loopbench.claims;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import loopbench.report.AtomicFile;
import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;
import loopbench.stats.LogRatio;
import loopbench.stats.Margin;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The judging of null experiments, the proof that the claims' rounds and rules do not find effects that are not
 * there: a profile line tagged {@code [twins]} runs every arm twice per round (twins A and B, the same
 * configuration); for each family (a line of {@code profiles/claims-null.jmh}) every twin check's ratio B / A is
 * computed as a claim's check would be (paired by round) and called decisive when its 95% interval lies wholly
 * beyond the margin of the claim the family mimics, on either side (above 1+m or below 1/(1+m)). A family with
 * any decisive check is a false effect; the script that runs N families tallies them (target: 0 of 20).
 *
 * <p>The side-by-side family (profiles/claims-null-side-by-side.jmh) has its twins inside each fork instead: two arms
 * of ProxySideBySideBenchmark with one configuration, each its own proxy process; its checks are arm B over arm A
 * cycle by cycle, each fork's mean, judged against 1 over the forks as the side-by-side claims are (one-sample t on
 * the logs), each against the margin or boundary of the claim it mimics. The side-by-side aggregator family
 * (profiles/claims-null-aggregator-side-by-side.jmh) likewise: two channels with the same limit in one fork; and
 * C004-1's (profiles/claims-null-epoll41-side-by-side.jmh, Netty 4.1): two servers in the same epoll mode.
 */
public final class NullExperiments {
    public static final String JSON = "null.json";
    public static final String MARKDOWN = "null.md";

    private NullExperiments() {
    }

    /**
     * A comparison of twin A with twin B of one configuration, by one statistic. {@code margin}: the mimicked claim's
     * (null: the family's). {@code sideBySide}: the twins are arms of one result and {@code statistic} is already
     * their per-fork ratio B / A.
     */
    public record TwinCheck(String label, Statistic statistic, Selection configuration, Margin margin,
                            boolean sideBySide) {
        TwinCheck(String label, Statistic statistic, Selection configuration) {
            this(label, statistic, configuration, null, false);
        }

        /** Arm {@code twin} over arm {@code arm} in the same cycles, by {@code metric}, against {@code margin}. */
        static TwinCheck sideBySide(String label, String metric, String what, Selection sideBySide, String arm,
                                    String twin, Margin margin) {
            return new TwinCheck(label, Statistic.iterationRatio(what + " of " + twin + " over " + arm
                    + " in the same cycle", "", List.of(EndToEndMetrics.arm(twin, metric)),
                    List.of(EndToEndMetrics.arm(arm, metric))), sideBySide, margin, true);
        }

        Margin marginIn(Family f) {
            return margin != null ? margin : f.margin();
        }
    }

    /** A family: the label of its line, the claim it mimics, that claim's margin, and its twin checks. */
    public record Family(String label, String mimics, Margin margin, List<TwinCheck> checks) {
    }

    /** What one twin check found; {@code missing} says why there is no ratio, else null. */
    public record Judgement(TwinCheck check, double ratio, double lower, double upper, String method, int pairs,
                            int dropped, Margin.Side beyond, String missing) {
        public boolean decisive() {
            return beyond != null;
        }
    }

    /** A family's judgements. */
    public record Judged(Family family, List<Judgement> checks) {
        public boolean decisive() {
            return checks.stream().anyMatch(Judgement::decisive);
        }

        public boolean measured() {
            return checks.stream().anyMatch(j -> j.missing() == null);
        }
    }

    private static Selection proxy(Group g, String layer) {
        return Selection.of("L" + layer, ClaimCatalog.PROXY_E2E, g, "layer", layer, "threadModel", ClaimCatalog.RST,
                "transport", "nio", "allocator", "adaptive", "connections", "64", "bodySize", "1024",
                ClaimCatalog.PLACEMENT, ClaimCatalog.PINNED);
    }

    /** The arms of profiles/claims-null-side-by-side.jmh: the L7 proxy (reuse-server-thread, adaptive) twice. */
    public static final String SIDE_BY_SIDE_TWIN = ClaimCatalog.ARM_L7_RST + "/twin-b";
    public static final String SIDE_BY_SIDE_ARMS = "7;" + SIDE_BY_SIDE_TWIN;

    /** The arms of profiles/claims-null-epoll41-side-by-side.jmh: the ET+ET server twice (Netty 4.1). */
    public static final String EPOLL_SIDE_BY_SIDE_TWIN = ClaimCatalog.ARM_ET_ET + "/twin-b";
    public static final String EPOLL_TWIN_ARMS = ClaimCatalog.ARM_ET_ET + ";" + EPOLL_SIDE_BY_SIDE_TWIN;

    /** The families of profiles/claims-null.jmh, then those of the side-by-side null profiles. */
    public static final List<Family> FAMILIES = families();

    private static List<Family> families() {
        Group aggregator = Group.of("null-aggregator", 1);
        Group proxy = Group.of("null-proxy", 1);
        Group sideBySide = Group.of("null-side-by-side", 1);
        Group aggregatorSideBySide = Group.of("null-aggregator-side-by-side", 1);
        Group epollSideBySide = Group.netty41("null-epoll41-side-by-side", 1);
        Selection twins = Selection.of("L7 twins side by side", ClaimCatalog.SIDE_BY_SIDE_E2E, sideBySide, "arms",
                SIDE_BY_SIDE_ARMS, "transport", "nio", "connections", "64", "bodySize", "1024", "maxContentLength",
                "2000", "sliceSeconds", "1", ClaimCatalog.TOPOLOGY, ClaimCatalog.LOCAL, ClaimCatalog.PLACEMENT,
                ClaimCatalog.PINNED);
        Selection limit2000 = Selection.of("limit 2,000", "AggregatorBenchmark.aggregate", aggregator,
                "maxContentLength", "2000", "encoding", "fixed", "bodySize", "1500");
        return List.of(
                new Family(aggregator.label(), "C000-7", Margin.percent(1), List.of(new TwinCheck(
                        "time per request, limit 2,000, B / A", ClaimCatalog.TIME_PER_OP, limit2000))),
                new Family(proxy.label(), "C000-3, C000-4, C000-6", Margin.percent(2), List.of(
                        new TwinCheck("L4 requests/s, B / A (as C000-3)", ClaimCatalog.THROUGHPUT, proxy(proxy, "4")),
                        new TwinCheck("L7 proxy CPU per request, B / A (as C000-4, C000-6)", ClaimCatalog.PROXY_CPU,
                                proxy(proxy, "7")))),
                new Family(sideBySide.label(), "C000-3, C000-6 (side by side)", Margin.percent(2), List.of(
                        TwinCheck.sideBySide("L7 requests/s, arm B / arm A, side by side (as C000-3)",
                                EndToEndMetrics.REQUESTS_PER_SECOND, "requests/s", twins, ClaimCatalog.ARM_L7_RST,
                                SIDE_BY_SIDE_TWIN, null),
                        TwinCheck.sideBySide("L7 proxy CPU per request, arm B / arm A, side by side (as C000-6)",
                                EndToEndMetrics.cpu(EndToEndMetrics.PROXY), "proxy CPU per request", twins,
                                ClaimCatalog.ARM_L7_RST, SIDE_BY_SIDE_TWIN, Margin.percent(1)))),
                new Family(aggregatorSideBySide.label(), "C000-7 (side by side)", Margin.percent(1), List.of(
                        new TwinCheck("time per request, limit 2,000, channel B / channel A, side by side",
                                ClaimCatalog.largeOverSmallLimit("time per request", "Nanos"),
                                ClaimCatalog.aggregatorSideBySide("limit 2,000 twice side by side",
                                        aggregatorSideBySide, 2000, 2000), null, true))),
                new Family(epollSideBySide.label(), "C004-1 (side by side)", Margin.percent(5), List.of(
                        TwinCheck.sideBySide("Netty 4.1 requests/s, ET+ET server B / server A, side by side (as "
                                + "C004-1)", EndToEndMetrics.REQUESTS_PER_SECOND, "requests/s",
                                ClaimCatalog.epollSideBySide("ET+ET twins side by side", epollSideBySide,
                                        EPOLL_TWIN_ARMS), ClaimCatalog.ARM_ET_ET, EPOLL_SIDE_BY_SIDE_TWIN,
                                null))));
    }

    /**
     * The families with a result in {@code m} judged on it (one null profile's run is one family of each of its
     * lines); every family, each not measured, when {@code m} has none.
     */
    public static List<Judged> judge(Measurements m) {
        List<Family> present = FAMILIES.stream()
                .filter(f -> m.results().stream().anyMatch(r -> f.label().equals(r.group()))).toList();
        List<Judged> all = new ArrayList<>();
        for (Family f : present.isEmpty() ? FAMILIES : present) {
            List<Judgement> j = new ArrayList<>();
            for (TwinCheck c : f.checks()) {
                j.add(judge(f, c, m));
            }
            all.add(new Judged(f, j));
        }
        return all;
    }

    private static JmhResult twin(Measurements m, Family f, Selection s, String twin) {
        for (JmhResult r : m.results()) {
            if (twin.equals(r.twin()) && f.label().equals(r.group()) && s.matches(r)) {
                return r;
            }
        }
        return null;
    }

    static Judgement judge(Family f, TwinCheck c, Measurements m) {
        if (c.sideBySide()) {
            return judgeSideBySide(f, c, m);
        }
        JmhResult a = twin(m, f, c.configuration(), "A");
        JmhResult b = twin(m, f, c.configuration(), "B");
        if (a == null || b == null) {
            return missing(c, "no twin " + (a == null ? "A" : "B") + " of " + c.configuration().describe()
                    + " in group " + f.label());
        }
        ForkValues va = c.statistic().forkValues(a, m);
        ForkValues vb = c.statistic().forkValues(b, m);
        if (va == null || vb == null) {
            return missing(c, "the twins lack " + c.statistic().requires());
        }
        Check.Compared compared;
        try {
            compared = Check.compare(vb, va, Double.NaN);
        } catch (IllegalArgumentException e) {
            return missing(c, "no ratio: " + e.getMessage());
        }
        if (compared == null) {
            return missing(c, "no ratio: the twins share no round");
        }
        LogRatio ratio = compared.ratio();
        Check.Basis basis = compared.basis();
        String method = basis.method() == Check.Basis.Method.WELCH ? ratio.method() : basis.describe();
        if (!ratio.hasInterval()) {
            return new Judgement(c, ratio.ratio(), Double.NaN, Double.NaN, method, basis.n(), basis.dropped(), null,
                    "no interval (fewer than 2 pairs)");
        }
        LogRatio.Interval i = ratio.interval(CheckResult.CONFIDENCE);
        return new Judgement(c, i.ratio(), i.lower(), i.upper(), method, basis.n(), basis.dropped(),
                c.marginIn(f).beyond(i.lower(), i.upper()), null);
    }

    /** Twin arms of one result: the ratio B / A per fork against 1, as a claim's side-by-side check reads it. */
    private static Judgement judgeSideBySide(Family f, TwinCheck c, Measurements m) {
        CheckResult r = Check.againstConstant(c.label(), c.statistic(), c.configuration(), 1.0, "equal", null, null)
                .evaluate(m);
        if (r.basis() == null || Double.isNaN(r.ratio())) {
            return missing(c, r.missing().isEmpty() ? "no ratio: " + String.join("; ", r.notes())
                    : "no " + c.configuration().describe() + " in group " + f.label());
        }
        String method = r.basis().describe();
        if (Double.isNaN(r.lower())) {
            return new Judgement(c, r.ratio(), Double.NaN, Double.NaN, method, r.basis().n(), 0, null,
                    "no interval (fewer than 2 forks)");
        }
        return new Judgement(c, r.ratio(), r.lower(), r.upper(), method, r.basis().n(), 0,
                c.marginIn(f).beyond(r.lower(), r.upper()), null);
    }

    private static Judgement missing(TwinCheck c, String why) {
        return new Judgement(c, Double.NaN, Double.NaN, Double.NaN, "-", 0, 0, null, why);
    }

    /** Writes {@value #JSON} and {@value #MARKDOWN} into {@code dir}. */
    public static void write(List<Judged> judged, Measurements m, Path dir) throws IOException {
        Files.createDirectories(dir);
        AtomicFile.write(dir.resolve(JSON), json(judged, m).getBytes(StandardCharsets.UTF_8));
        AtomicFile.write(dir.resolve(MARKDOWN), markdown(judged, m).getBytes(StandardCharsets.UTF_8));
    }

    static String json(List<Judged> judged, Measurements m) {
        JsonObject root = new JsonObject();
        JsonArray runs = new JsonArray();
        m.runs().forEach(runs::add);
        root.add("runs", runs);
        root.addProperty("familiesWithADecisiveCheck", judged.stream().filter(Judged::decisive).count());
        root.addProperty("familiesMeasured", judged.stream().filter(Judged::measured).count());
        JsonArray families = new JsonArray();
        for (Judged j : judged) {
            JsonObject f = new JsonObject();
            f.addProperty("label", j.family().label());
            f.addProperty("mimics", j.family().mimics());
            f.addProperty("margin", j.family().margin().fraction());
            f.addProperty("measured", j.measured());
            f.addProperty("decisive", j.decisive());
            JsonArray checks = new JsonArray();
            for (Judgement x : j.checks()) {
                JsonObject o = new JsonObject();
                o.addProperty("label", x.check().label());
                o.addProperty("margin", x.check().marginIn(j.family()).fraction());
                o.addProperty("ratio", x.ratio());
                o.addProperty("lower", x.lower());
                o.addProperty("upper", x.upper());
                o.addProperty("method", x.method());
                o.addProperty("pairs", x.pairs());
                o.addProperty("dropped", x.dropped());
                o.addProperty("decisive", x.beyond() == null ? null : x.beyond().name().toLowerCase(Locale.ROOT));
                o.addProperty("missing", x.missing());
                checks.add(o);
            }
            f.add("checks", checks);
            families.add(f);
        }
        root.add("families", families);
        return new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().serializeSpecialFloatingPointValues()
                .create().toJson(root) + "\n";
    }

    static String markdown(List<Judged> judged, Measurements m) {
        StringBuilder s = new StringBuilder("# Null experiments: twin B / twin A\n\n");
        s.append("Input: ").append(String.join(", ", m.sources().stream().map(p -> "`" + p + "`").toList()))
                .append(m.runs().isEmpty() ? "" : " (run " + String.join(", ", m.runs()) + ")").append(". ");
        long decisive = judged.stream().filter(Judged::decisive).count();
        s.append(decisive).append(" of ").append(judged.size()).append(" families with a decisive check (an interval ")
                .append("wholly beyond the mimicked claim's margin, either side).\n\n");
        s.append("| family | mimics | check | B / A [95% CI] | margin | method | decisive |\n");
        s.append("| --- | --- | --- | --- | --- | --- | --- |\n");
        for (Judged j : judged) {
            for (Judgement x : j.checks()) {
                String effect = x.missing() != null && Double.isNaN(x.ratio()) ? x.missing()
                        : Format.ratio(x.ratio()) + (Double.isNaN(x.lower()) ? " (" + x.missing() + ")"
                        : " [" + Format.ratio(x.lower()) + ", " + Format.ratio(x.upper()) + "]");
                s.append("| ").append(j.family().label()).append(" | ").append(j.family().mimics()).append(" | ")
                        .append(x.check().label()).append(" | ").append(effect).append(" | ")
                        .append(x.check().marginIn(j.family()).describe()).append(" | ").append(x.method())
                        .append(" | ")
                        .append(x.beyond() == null ? "no" : "yes, " + x.beyond().name().toLowerCase(Locale.ROOT))
                        .append(" |\n");
            }
        }
        return s.toString();
    }
}
