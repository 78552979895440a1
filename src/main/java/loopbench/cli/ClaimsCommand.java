package loopbench.cli;

import com.google.gson.JsonParseException;
import loopbench.claims.CatalogMarkdown;
import loopbench.claims.Claim;
import loopbench.claims.ClaimCatalog;
import loopbench.claims.ClaimResult;
import loopbench.claims.ClaimsReport;
import loopbench.claims.Measurements;
import loopbench.claims.NullExperiments;
import loopbench.claims.Peers;
import loopbench.claims.RoundsPlan;
import loopbench.claims.VerdictHistory;
import loopbench.report.JmhResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

@Command(name = "claims", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Gives every claim of CLAIMS.md its verdict (CONFIRMED, REFUTED, INCONCLUSIVE, "
                + "NOT-TESTABLE-HERE, or MISSING with the profiles/claims.jmh line that measures it) from JMH JSON "
                + "results, with 95%% confidence intervals from the per-fork data, charts, and links to flame graphs "
                + "taken with the results.",
                "Writes DIR/report.md (charts in DIR/charts/*.png), a self-contained DIR/report.html and "
                        + "DIR/report.json. Reads the end-to-end side files of the results' own run (e2e/), flame "
                        + "graphs (flame/) and machine.json next to each input.",
                "The results come from: ./mvnw -Pjmh verify -Djmh.profile=profiles/claims.jmh",
                "--null judges null experiments (twin arms) instead; --catalog-markdown rewrites CLAIMS.md's "
                        + "generated part from the catalogue; --across sets the verdicts of several runs side by "
                        + "side; --plan-rounds sizes the rounds of a next run from them."})
final class ClaimsCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RESULTS.json", arity = "0..*",
            description = "JMH JSON result files; a later file's result replaces an earlier one's with the same "
                    + "benchmark, parameters, group and arm.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where report.md, report.html and charts/ go. Default: claims/ next to the first input.")
    Path out;

    @Option(names = "--claim", paramLabel = "ID", split = ",",
            description = "Only these claims (e.g. C000-3,C001-2). Default: all.")
    List<String> only = new ArrayList<>();

    @Option(names = "--peers", paramLabel = "RESULTS.json", split = ",",
            description = "JMH JSON files of real gateways measured apart in the L7 proxy's place "
                    + "(ProxyEndToEndBenchmark or ProxyWarmupBenchmark with -p layer=external, one gateway per "
                    + "file, e.g. from profiles/reference-proxies/external.sh) and of their layer=direct "
                    + "reference: the claims that name their gateways (C002-1..3) show each check again with each "
                    + "gateway. They decide nothing.")
    List<Path> peers = new ArrayList<>();

    @Option(names = "--null",
            description = "Judge null experiments (profiles/claims-null.jmh, twin arms A and B): per family, each "
                    + "twin check's ratio B/A with its interval and whether it is decisive beyond the mimicked "
                    + "claim's margin. Writes DIR/null.json and DIR/null.md; exits 0.")
    boolean nullExperiments;

    @Option(names = "--catalog-markdown", paramLabel = "CLAIMS.md",
            description = "Rewrite the generated part of this file (CLAIMS.md) from the claims catalogue, then exit.")
    Path catalogMarkdown;

    @Option(names = "--across", paramLabel = "RUN", arity = "2..*",
            description = "Instead of judging: the verdicts of these claims runs side by side (each a folder holding "
                    + "the report.json the claims report wrote, e.g. docs/results/2026-11-26/claims-run-3, or the "
                    + "file), and how often each pair of runs agrees on the claims both measured; Markdown on stdout. "
                    + "Runs from different CPUs (each run's machine.json) are named as such, here and in "
                    + "--plan-rounds.")
    List<Path> across = new ArrayList<>();

    @Option(names = "--plan-rounds", paramLabel = "RUN", arity = "1..*",
            description = "Instead of judging: the rounds each decisive check needs for 80%% power, sized from these "
                    + "finished runs (folders holding report.json, or the files): their mean log ratio, their noise "
                    + "and the distance to the nearest boundary of the check's rule; Markdown on stdout. For "
                    + "planning a run before it has data.")
    List<Path> planRounds = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        if (!across.isEmpty() || !planRounds.isEmpty()) {
            return finishedRuns();
        }
        if (catalogMarkdown != null) {
            if (!Files.isRegularFile(catalogMarkdown)) {
                throw new Cli.BadInput("--catalog-markdown '" + catalogMarkdown + "' is not a file; give CLAIMS.md");
            }
            try {
                boolean changed = CatalogMarkdown.update(catalogMarkdown, ClaimCatalog.all());
                System.out.println(catalogMarkdown + ": generated part " + (changed ? "rewritten" : "unchanged") + " ("
                        + ClaimCatalog.all().size() + " claims)");
                return 0;
            } catch (IllegalArgumentException e) {
                throw new Cli.BadInput(e.getMessage());
            }
        }
        if (files.isEmpty()) {
            throw new Cli.BadInput("give RESULTS.json (one or more JMH JSON result files), or --catalog-markdown "
                    + "CLAIMS.md");
        }
        Map<String, Claim> catalog = ClaimCatalog.byId();
        List<Claim> claims = new ArrayList<>();
        if (only.isEmpty()) {
            claims.addAll(catalog.values());
        }
        for (String id : only) {
            Claim c = catalog.get(id.trim());
            if (c == null) {
                throw new Cli.BadInput("no claim '" + id + "'; valid claim IDs: "
                        + String.join(", ", catalog.keySet()));
            }
            claims.add(c);
        }
        for (Path f : concat(files, peers)) {
            if (!Files.exists(f)) {
                throw new NoSuchFileException(f.toString());
            }
        }
        Path dir = out != null ? out : files.get(0).toAbsolutePath().getParent().resolve("claims");
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new Cli.BadInput("--out " + dir + " is a file; give a directory (it is created if missing)");
        }
        if (nullExperiments) {
            return judgeNull(dir.getFileName().toString().equals("claims") && out == null
                    ? dir.resolveSibling("null") : dir);
        }
        ClaimsReport.Written w;
        try {
            refuseGatewaysAsResults(files);
            w = ClaimsReport.write(files, dir, claims, peers.isEmpty() ? Peers.none() : Peers.load(peers));
        } catch (JsonParseException | IllegalStateException e) {
            throw notJmh(e);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().contains("is not a JMH JSON result")) {
                throw new Cli.BadInput(e.getMessage() + "; give the JSON of a run with -rf json");
            }
            throw e;
        }
        for (ClaimResult r : w.results()) {
            System.out.printf("%-7s %-17s %s%n", r.claim().id(), r.verdictText(), r.claim().title());
        }
        System.out.println();
        System.out.println("claims report: " + w.markdown() + " and " + w.html() + " (" + w.results().size()
                + " claims: " + w.summary() + ")");
        return 0;
    }

    /** --across or --plan-rounds: what finished runs' reports say, side by side or as a plan of rounds. */
    private int finishedRuns() {
        String option = across.isEmpty() ? "--plan-rounds" : "--across";
        boolean both = !across.isEmpty() && !planRounds.isEmpty();
        if (!files.isEmpty() || catalogMarkdown != null || nullExperiments || both) {
            throw new Cli.BadInput(option + " reads finished runs' reports; give it alone, not with RESULTS.json, "
                    + "--null, --catalog-markdown or the other of --across and --plan-rounds");
        }
        List<VerdictHistory.Run> runs = new ArrayList<>();
        for (Path p : across.isEmpty() ? planRounds : across) {
            try {
                runs.add(VerdictHistory.load(p));
            } catch (IOException e) {
                throw new Cli.BadInput(option + ": " + e.getMessage());
            }
        }
        System.out.print(across.isEmpty() ? RoundsPlan.markdown(runs, RoundsPlan.plan(runs))
                : VerdictHistory.markdown(runs));
        return 0;
    }

    private static List<Path> concat(List<Path> a, List<Path> b) {
        List<Path> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    /**
     * A results file that holds only gateways measured apart ({@code -p layer=external}) was meant for --peers, whose
     * files are comma-separated: {@code --peers a.json b.json} would read b.json as results, silently.
     */
    private static void refuseGatewaysAsResults(List<Path> files) throws IOException {
        for (Path f : files) {
            List<JmhResult> results = JmhResult.read(f);
            if (!results.isEmpty() && results.stream().allMatch(r -> "external".equals(r.param("layer")))) {
                throw new Cli.BadInput("'" + f + "' holds only gateways measured apart (-p layer=external): give it "
                        + "with --peers, several files comma-separated (--peers A.json,B.json)");
            }
        }
    }

    private static Cli.BadInput notJmh(RuntimeException e) {
        return new Cli.BadInput("not a JMH JSON result file (" + e.getMessage() + "); give the JSON of a run with "
                + "-rf json");
    }

    private int judgeNull(Path dir) throws IOException {
        Measurements m;
        try {
            m = Measurements.load(files);
        } catch (JsonParseException | IllegalStateException e) {
            throw notJmh(e);
        }
        List<NullExperiments.Judged> judged = NullExperiments.judge(m);
        NullExperiments.write(judged, m, dir);
        for (NullExperiments.Judged j : judged) {
            System.out.printf("%-16s %s%n", j.family().label(), !j.measured() ? "not measured"
                    : j.decisive() ? "DECISIVE (a false effect)" : "no decisive check");
        }
        // One run of the null profile is one family of the engine's proof; profiles/claims-null-proof.sh reads this
        // line.
        List<NullExperiments.Judgement> checks = judged.stream().flatMap(j -> j.checks().stream()).toList();
        long unmeasured = checks.stream().filter(c -> c.missing() != null).count();
        System.out.println("decisive checks: " + checks.stream().filter(NullExperiments.Judgement::decisive).count()
                + " of " + (checks.size() - unmeasured) + " (" + unmeasured + " not measured)");
        System.out.println();
        System.out.println("null experiments: " + dir.resolve(NullExperiments.MARKDOWN) + " and "
                + dir.resolve(NullExperiments.JSON) + " (" + judged.stream().filter(NullExperiments.Judged::decisive)
                .count() + " of " + judged.size() + " null lines with a decisive check)");
        return 0;
    }
}
