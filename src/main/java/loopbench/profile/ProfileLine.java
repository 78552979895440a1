package loopbench.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of a profile ({@code profiles/*.jmh}): a JMH run, written as JMH's own command-line arguments, optionally
 * behind a {@code [jdk>=N]} guard. Blank lines and lines starting with # are comments. The suite runner
 * ({@code loopbench.suite.Suite}) and the CI gate ({@code loopbench gate}) read profiles through here.
 *
 * @param number the line's number in its file (1-based), for messages
 * @param text   the JMH arguments as written, without the guard
 * @param minJdk the JDK feature release the line needs (0: any)
 * @param args   {@code text} split on whitespace
 */
public record ProfileLine(int number, String text, int minJdk, List<String> args) {
    private static final Pattern GUARD = Pattern.compile("^\\[jdk>=(\\d+)]\\s*(.*)$");

    public ProfileLine {
        args = List.copyOf(args);
    }

    /** The runs of a profile file, in file order; an error if the file is missing or has none. */
    public static List<ProfileLine> read(Path file) throws IOException {
        List<String> raw;
        try {
            raw = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file + " (no such profile; the profiles that ship are in profiles/)");
        }
        List<ProfileLine> lines = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            String text = raw.get(i).trim();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            int minJdk = 0;
            Matcher m = GUARD.matcher(text);
            if (m.matches()) {
                minJdk = Integer.parseInt(m.group(1));
                text = m.group(2);
            }
            lines.add(new ProfileLine(i + 1, text, minJdk, Arrays.asList(text.split("\\s+"))));
        }
        if (lines.isEmpty()) {
            throw new IOException(file + " has no runs in it");
        }
        return lines;
    }

    /** Whether a JVM of this feature release (17, 21, 25, ...) may run the line. */
    public boolean runsOn(int jdkFeature) {
        return jdkFeature >= minJdk;
    }
}
