package loopbench.suite;

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
 * One line of a suite profile: a JMH run, written as JMH's own command-line arguments, optionally behind a
 * {@code [jdk>=N]} guard. Blank lines and lines starting with # are comments.
 */
record ProfileLine(int number, String text, int minJdk, List<String> args) {
    private static final Pattern GUARD = Pattern.compile("^\\[jdk>=(\\d+)]\\s*(.*)$");

    static List<ProfileLine> read(Path file) throws IOException {
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
}
