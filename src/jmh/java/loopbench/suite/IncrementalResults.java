package loopbench.suite;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import loopbench.report.AtomicFile;
import loopbench.report.ResultTable;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatFactory;
import org.openjdk.jmh.results.format.ResultFormatType;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import java.util.ArrayList;
import java.util.List;

/**
 * Every result of the suite so far, rewritten to disk (JMH's JSON, then the Markdown tables) each time a
 * benchmark finishes. The files are replaced atomically, so a reader never sees half a file and a killed run
 * leaves the last complete state. Every result carries the run's id ({@code "loopbench": {"run": ID}}), as the
 * side files of its forks do.
 */
final class IncrementalResults {
    private final Path json;
    private final Path table;
    private final String run;
    private final List<RunResult> results = new ArrayList<>();

    IncrementalResults(Path json, Path table, String run) {
        this.json = json;
        this.table = table;
        this.run = run;
    }

    synchronized void add(RunResult result) {
        results.add(result);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, ps).writeOut(results);
        }
        JsonArray array = JsonParser.parseString(bytes.toString(StandardCharsets.UTF_8)).getAsJsonArray();
        for (JsonElement e : array) {
            JsonObject loopbench = new JsonObject();
            loopbench.addProperty("run", run);
            e.getAsJsonObject().add("loopbench", loopbench);
        }
        replace(json, (new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create().toJson(array) + "\n")
                .getBytes(StandardCharsets.UTF_8));
        replace(table, ResultTable.render(array).getBytes(StandardCharsets.UTF_8));
    }

    synchronized int count() {
        return results.size();
    }

    private static void replace(Path target, byte[] content) {
        try {
            AtomicFile.write(target, content);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target + ": " + e.getMessage(), e);
        }
    }
}
