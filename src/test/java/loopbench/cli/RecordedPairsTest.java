package loopbench.cli;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every {@code loopbench pairs} command a record under docs/results shows in a code block is run again on the
 * record's committed results, and the record must hold its output verbatim: a table of paired ratios in a record is
 * what the project's own statistic gives, not a figure computed elsewhere.
 */
class RecordedPairsTest {
    private static final String JAR = "java -jar target/loopbench.jar ";
    private static final Pattern BLOCK = Pattern.compile("```sh\n(.*?)```", Pattern.DOTALL);

    @TestFactory
    Stream<DynamicTest> everyRecordedPairsTableIsTheCommandsOutput() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("docs/results"))) {
            for (Path readme : files.filter(p -> p.getFileName().toString().equals("README.md")).sorted().toList()) {
                String text = Files.readString(readme);
                Matcher m = BLOCK.matcher(text);
                while (m.find()) {
                    String command = m.group(1).replace("\\\n", " ").trim();
                    if (command.startsWith(JAR + "pairs ")) {
                        tests.add(DynamicTest.dynamicTest(readme.getParent().getFileName() + ": " + command,
                                () -> holdsItsOutput(text, command)));
                    }
                }
            }
        }
        assertFalse(tests.isEmpty(), "no record shows a pairs command");
        return tests.stream();
    }

    private static void holdsItsOutput(String readme, String command) {
        String[] args = command.substring(JAR.length()).trim().split("\\s+");
        CliArgumentsTest.Result r = CliArgumentsTest.run(args);
        assertEquals(0, r.exitCode(), () -> Arrays.toString(args) + "\n" + r);
        assertTrue(readme.contains(r.out()), () -> "the record does not hold the output of " + command + ":\n"
                + r.out());
    }
}
