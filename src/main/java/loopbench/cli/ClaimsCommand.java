package loopbench.cli;

import com.google.gson.JsonParseException;
import loopbench.claims.Claim;
import loopbench.claims.ClaimCatalog;
import loopbench.claims.ClaimResult;
import loopbench.claims.ClaimsReport;
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
        description = {"Gives every claim of CLAIMS.md its verdict (CONFIRMED, REFUTED, INCONCLUSIVE, NOT-TESTABLE-HERE, "
                + "or MISSING with the profiles/claims.jmh line that measures it) from JMH JSON results, with 95%% "
                + "confidence intervals from the per-fork data, charts, and links to flame graphs taken with the results.",
                "Writes DIR/report.md (charts in DIR/charts/*.png) and a self-contained DIR/report.html. Reads the "
                        + "end-to-end side files (e2e/), flame graphs (flame/) and machine.json next to each input.",
                "The results come from: ./mvnw -Pjmh verify -Djmh.profile=profiles/claims.jmh"})
final class ClaimsCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RESULTS.json", arity = "1..*",
            description = "JMH JSON result files; a later file's result replaces an earlier one's with the same benchmark and parameters.")
    List<Path> files;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where report.md, report.html and charts/ go. Default: claims/ next to the first input.")
    Path out;

    @Option(names = "--claim", paramLabel = "ID", split = ",",
            description = "Only these claims (e.g. C000-3,C001-2). Default: all.")
    List<String> only = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        Map<String, Claim> catalog = ClaimCatalog.byId();
        List<Claim> claims = new ArrayList<>();
        if (only.isEmpty()) {
            claims.addAll(catalog.values());
        }
        for (String id : only) {
            Claim c = catalog.get(id.trim());
            if (c == null) {
                throw new Cli.BadInput("no claim '" + id + "'; valid claim IDs: " + String.join(", ", catalog.keySet()));
            }
            claims.add(c);
        }
        for (Path f : files) {
            if (!Files.exists(f)) {
                throw new NoSuchFileException(f.toString());
            }
        }
        Path dir = out != null ? out : files.get(0).toAbsolutePath().getParent().resolve("claims");
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw new Cli.BadInput("--out " + dir + " is a file; give a directory (it is created if missing)");
        }
        ClaimsReport.Written w;
        try {
            w = ClaimsReport.write(files, dir, claims);
        } catch (JsonParseException | IllegalStateException e) {
            throw new Cli.BadInput("not a JMH JSON result file (" + e.getMessage() + "); give the JSON of a run with -rf json");
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().contains("is not a JMH JSON result")) {
                throw new Cli.BadInput(e.getMessage() + "; give the JSON of a run with -rf json");
            }
            throw e;
        }
        for (ClaimResult r : w.results()) {
            System.out.printf("%-7s %-17s %s%n", r.claim().id(), r.verdict().label(), r.claim().title());
        }
        System.out.println();
        System.out.println("claims report: " + w.markdown() + " and " + w.html() + " (" + w.results().size()
                + " claims: " + w.summary() + ")");
        return 0;
    }
}
