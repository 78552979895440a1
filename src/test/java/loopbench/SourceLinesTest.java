package loopbench;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lines within 120 columns (Netty's own limit), in the code and the scripts: the Java sources of every source set
 * under src/, the scripts and tools under profiles/, the CI's files. Left out on purpose: the profiles' *.jmh lines
 * (one JMH command per line), generated and recorded files (CLAIMS.md, docs/results, JSON fixtures).
 */
class SourceLinesTest {
    private static final int LIMIT = 120;

    @Test
    void everyLineFitsIn120Columns() throws IOException {
        List<Path> files = new ArrayList<>();
        files.addAll(tree("src", ".java"));
        files.addAll(tree("profiles", ".sh"));
        files.addAll(tree("profiles", ".py"));
        files.addAll(tree(".github/workflows", ".yml"));
        files.add(Path.of(".ci/run"));
        assertTrue(files.stream().filter(f -> f.toString().endsWith(".java")).count() > 100,
                "the Java sources were found: " + files.size() + " files");
        List<String> over = new ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                int columns = lines.get(i).codePointCount(0, lines.get(i).length());
                if (columns > LIMIT) {
                    over.add(f + ":" + (i + 1) + " (" + columns + " columns)");
                }
            }
        }
        assertEquals(List.of(), over, "lines over " + LIMIT + " columns");
    }

    private static List<Path> tree(String root, String suffix) throws IOException {
        try (Stream<Path> s = Files.walk(Path.of(root))) {
            return s.filter(p -> Files.isRegularFile(p) && p.toString().endsWith(suffix)).sorted().toList();
        }
    }
}
