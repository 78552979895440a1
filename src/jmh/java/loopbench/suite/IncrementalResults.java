package loopbench.suite;

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
 * leaves the last complete state.
 */
final class IncrementalResults {
    private final Path json;
    private final Path table;
    private final List<RunResult> results = new ArrayList<>();

    IncrementalResults(Path json, Path table) {
        this.json = json;
        this.table = table;
    }

    synchronized void add(RunResult result) {
        results.add(result);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ResultFormatFactory.getInstance(ResultFormatType.JSON, ps).writeOut(results);
        }
        byte[] jsonBytes = bytes.toByteArray();
        replace(json, jsonBytes);
        try {
            replace(table, ResultTable.render(ResultTable.read(json)).getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
