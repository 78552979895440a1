package loopbench.gate;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import loopbench.profile.ProfileLine;
import loopbench.report.Comparison;
import loopbench.report.JmhResult;
import loopbench.rounds.RoundsEngine;
import loopbench.stats.Verdicts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The gate's reports: a Markdown summary (fit for a CI job summary) and JSON for tools. */
final class GateReport {
    private GateReport() {
    }

    static String markdown(GateSettings s, List<Comparison.Row> rows, int roundsDone, String verdict, double seconds,
                           List<String> dropped) {
        StringBuilder sb = new StringBuilder();
        long regressions = Comparison.count(rows, Comparison.Status.REGRESSION);
        sb.append("## loopbench gate: ").append(verdict)
                .append(regressions > 0 ? " (" + regressions + " regression" + (regressions > 1 ? "s" : "") + ")" : "")
                .append("\n\n");
        sb.append("- baseline: ").append(s.baseline().describe()).append('\n');
        sb.append("- candidate: ").append(s.candidate().describe()).append('\n');
        sb.append(String.format(Locale.ROOT, "- profile: %s (%d line(s)), %d of %d rounds done, one fork per side per "
                        + "line per round, randomized interleaved order (seed %d), %s%n", s.profile(), s.lines().size(),
                roundsDone, s.rounds(), s.seed(), RoundsEngine.duration(seconds)));
        s.skipped().forEach(k -> sb.append("- skipped: ").append(k).append('\n'));
        dropped.forEach(k -> sb.append("- left out: ").append(k).append('\n'));
        s.newParams().forEach((name, value) -> sb.append("- compared across a new parameter: ").append(name).append('=')
                .append(value).append(" on one side, the same benchmark without ").append(name).append(" on the other")
                .append('\n'));
        sb.append("- every fork's JSON and log: ").append(s.out().resolve("forks")).append('\n');
        if (!dropped.isEmpty() || !Gate.unjudged(rows).isEmpty()) {
            sb.append("- not judged: ").append(unjudgedSentence(rows, dropped)).append(s.allowPartial()
                    ? " (allowed by --allow-partial)" : " (the gate fails on this: exit 2; --allow-partial allows it)")
                    .append('\n');
        }
        sb.append('\n');
        if (rows.isEmpty()) {
            sb.append("No complete round yet.\n");
            return sb.toString();
        }
        sb.append(Comparison.rule(rows, s.thresholds(), true)).append("\n\n");
        sb.append(Comparison.markdown(rows));
        return sb.toString();
    }

    /** What the gate did not judge, in one sentence: "2 of 10 comparisons (...), 1 line left out". */
    static String unjudgedSentence(List<Comparison.Row> rows, List<String> dropped) {
        List<Comparison.Row> unjudged = Gate.unjudged(rows);
        List<String> parts = new ArrayList<>();
        if (!unjudged.isEmpty()) {
            parts.add(unjudged.size() + " of " + rows.size() + " comparison(s) have no verdict ("
                    + String.join("; ", unjudged.stream().map(GateReport::describe).toList()) + ")");
        }
        if (!dropped.isEmpty()) {
            parts.add(dropped.size() + " profile line(s) left out (a selection one jar does not have)");
        }
        return String.join(", ", parts);
    }

    private static String describe(Comparison.Row r) {
        String metric = JmhResult.PRIMARY.equals(r.entry().metric()) ? "score" : r.entry().metric();
        return r.entry().key() + " " + metric + ": " + r.status() + (r.note() == null ? "" : ", " + r.note());
    }

    static String json(GateSettings s, List<Comparison.Row> rows, int roundsDone, String verdict, double seconds,
                       List<String> dropped) {
        JsonObject o = new JsonObject();
        o.addProperty("verdict", verdict);
        o.addProperty("regressions", Comparison.count(rows, Comparison.Status.REGRESSION));
        JsonArray unjudged = new JsonArray();
        Gate.unjudged(rows).forEach(r -> unjudged.add(describe(r)));
        o.add("unjudged", unjudged);
        o.addProperty("allowPartial", s.allowPartial());
        JsonObject newParams = new JsonObject();
        s.newParams().forEach(newParams::addProperty);
        o.add("newParams", newParams);
        o.add("baseline", side(s.baseline()));
        o.add("candidate", side(s.candidate()));
        o.addProperty("profile", s.profile().toString());
        JsonArray lines = new JsonArray();
        for (ProfileLine l : s.lines()) {
            lines.add(l.text());
        }
        o.add("lines", lines);
        JsonArray skipped = new JsonArray();
        s.skipped().forEach(skipped::add);
        dropped.forEach(skipped::add);
        o.add("skipped", skipped);
        o.addProperty("rounds", s.rounds());
        o.addProperty("roundsDone", roundsDone);
        o.addProperty("seed", s.seed());
        o.addProperty("thresholdPercent", s.thresholds().primaryPercent());
        o.addProperty("allocThresholdPercent", s.thresholds().allocPercent());
        o.addProperty("familyAlpha", Verdicts.FAMILY_ALPHA);
        o.addProperty("confidence", Verdicts.CONFIDENCE);
        o.addProperty("seconds", Math.round(seconds * 10) / 10.0);
        o.addProperty("forks", s.out().resolve("forks").toString());
        o.add("results", Comparison.json(rows));
        return new GsonBuilder().setPrettyPrinting().serializeSpecialFloatingPointValues().create().toJson(o) + "\n";
    }

    private static JsonObject side(Side side) {
        JsonObject o = new JsonObject();
        o.addProperty("jar", side.jar().toString());
        o.addProperty("jvm", side.java().executable().toString());
        o.addProperty("jdk", side.java().version());
        o.addProperty("jdkFeature", side.java().feature());
        o.addProperty("vm", side.java().vmName());
        o.addProperty("netty", side.nettyVersion());
        o.addProperty("nettyUnsafe", side.unsafe());
        JsonArray args = new JsonArray();
        side.jvmArgs().forEach(args::add);
        o.add("jvmArgs", args);
        JsonArray fork = new JsonArray();
        side.forkJvmArgs().forEach(fork::add);
        o.add("forkJvmArgsPrepend", fork);
        return o;
    }
}
