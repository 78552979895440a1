package loopbench.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of a profile ({@code profiles/*.jmh}): a JMH run, written as JMH's own command-line arguments, optionally
 * behind tags in brackets. Blank lines and lines starting with # are comments. The suite runner
 * ({@code loopbench.suite.Suite}) and the CI gate ({@code loopbench gate}) read profiles through here.
 *
 * <p>Tags, in any order, before the JMH arguments:
 * <ul>
 *   <li>{@code [jdk>=N]}: the line runs only on JDK N or later;</li>
 *   <li>{@code [label=NAME]}: a name other files refer to the line by ({@code [a-z0-9-]+}, unique in the file);</li>
 *   <li>{@code [rounds=N]}: the line is a group of the rounds engine, run in N rounds (one fork of each of its
 *       configurations per round); a profile has it on every line or on none;</li>
 *   <li>{@code [jar=NAME]}: the line runs from another benchmarks jar ({@link #JARS}), through the rounds engine;</li>
 *   <li>{@code [twins]}: every configuration runs twice per round (a null experiment), through the rounds engine.</li>
 * </ul>
 *
 * @param number the line's number in its file (1-based), for messages
 * @param text   the JMH arguments as written, without the tags
 * @param minJdk the JDK feature release the line needs (0: any)
 * @param args   {@code text} split on whitespace
 * @param label  the line's label, or null
 * @param rounds the rounds of the line's group in the rounds engine, or 0 (a plain JMH run)
 * @param jar    the other benchmarks jar the line runs from, or null (the suite's own)
 * @param twins  whether every configuration runs twice per round
 */
public record ProfileLine(int number, String text, int minJdk, List<String> args, String label, int rounds, String jar,
                          boolean twins) {
    /** The benchmarks jars a {@code [jar=NAME]} tag may name. */
    public static final List<String> JARS = List.of("netty-4.1");
    /** The tags, as the messages name them. */
    public static final String VALID_TAGS = "[jdk>=N], [label=NAME], [rounds=N], [jar=NAME], [twins]";
    private static final Pattern TAG = Pattern.compile("^\\[([^\\]\\[]*)]\\s*");
    private static final Pattern LABEL = Pattern.compile("[a-z0-9-]+");
    private static final Pattern NUMBER = Pattern.compile("\\d{1,6}");

    public ProfileLine {
        args = List.copyOf(args);
    }

    /** A plain line (no label, no rounds). */
    public ProfileLine(int number, String text, int minJdk, List<String> args) {
        this(number, text, minJdk, args, null, 0, null, false);
    }

    /** The runs of a profile file, in file order; an error if the file is missing, has none, or a tag is wrong. */
    public static List<ProfileLine> read(Path file) throws IOException {
        List<String> raw;
        try {
            raw = Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            throw new NoSuchFileException(file + " (no such profile; the profiles that ship are in profiles/)");
        }
        List<ProfileLine> lines = new ArrayList<>();
        Map<String, Integer> labels = new HashMap<>();
        for (int i = 0; i < raw.size(); i++) {
            String text = raw.get(i).trim();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            ProfileLine line = parse(file, i + 1, text);
            if (line.label() != null) {
                Integer earlier = labels.putIfAbsent(line.label(), line.number());
                if (earlier != null) {
                    throw error(file, line.number(), "label '" + line.label() + "' is already line " + earlier
                            + "'s; labels are unique in a profile");
                }
            }
            lines.add(line);
        }
        if (lines.isEmpty()) {
            throw new IOException(file + " has no runs in it");
        }
        List<Integer> roundsLines = lines.stream().filter(ProfileLine::isRounds).map(ProfileLine::number).toList();
        List<Integer> plainLines = lines.stream().filter(l -> !l.isRounds()).map(ProfileLine::number).toList();
        if (!roundsLines.isEmpty() && !plainLines.isEmpty()) {
            throw new IOException(file + ": line(s) " + join(roundsLines) + " carry [rounds=N] and line(s) "
                    + join(plainLines) + " do not; a profile runs all its lines through the rounds engine "
                    + "([rounds=N] on every line) or none");
        }
        return lines;
    }

    private static ProfileLine parse(Path file, int number, String text) throws IOException {
        int minJdk = 0;
        String label = null;
        int rounds = 0;
        String jar = null;
        boolean twins = false;
        Set<String> seen = new HashSet<>();
        String rest = text;
        while (rest.startsWith("[")) {
            Matcher m = TAG.matcher(rest);
            if (!m.find()) {
                throw error(file, number, "a tag that does not close: '" + rest + "'; valid tags: " + VALID_TAGS);
            }
            String tag = m.group(1).trim();
            rest = rest.substring(m.end());
            int eq = tag.startsWith("jdk>=") ? 4 : tag.indexOf('=');
            String name = eq < 0 ? tag : tag.substring(0, eq + 1);
            String value = eq < 0 ? null : tag.substring(eq + 1);
            if (!seen.add(name)) {
                throw error(file, number, "the tag [" + name + (value == null ? "" : "...") + "] is given twice");
            }
            switch (name) {
                case "jdk>=" -> minJdk = number(file, number, tag, value, 1);
                case "label=" -> {
                    if (value == null || !LABEL.matcher(value).matches()) {
                        throw error(file, number, "label '" + value + "' is not valid: use a-z, 0-9 and -");
                    }
                    label = value;
                }
                case "rounds=" -> rounds = number(file, number, tag, value, 2);
                case "jar=" -> {
                    if (!JARS.contains(value)) {
                        throw error(file, number, "[jar=" + value + "]: unknown jar '" + value + "'; valid: "
                                + String.join(", ", JARS));
                    }
                    jar = value;
                }
                case "twins" -> twins = true;
                default -> throw error(file, number, "unknown tag '[" + tag + "]'; valid tags: " + VALID_TAGS);
            }
        }
        if (rest.isEmpty()) {
            throw error(file, number, "tags but no JMH arguments: '" + text + "'");
        }
        if (rounds == 0 && (twins || jar != null)) {
            throw error(file, number, (twins ? "[twins]" : "[jar=" + jar + "]") + " needs [rounds=N]: only the "
                    + "rounds engine runs " + (twins ? "twin forks" : "another benchmarks jar"));
        }
        return new ProfileLine(number, rest, minJdk, Arrays.asList(rest.split("\\s+")), label, rounds, jar, twins);
    }

    private static int number(Path file, int line, String tag, String value, int min) throws IOException {
        if (value == null || !NUMBER.matcher(value).matches() || Integer.parseInt(value) < min) {
            throw error(file, line, "[" + tag + "]: '" + value + "' is not a whole number >= " + min);
        }
        return Integer.parseInt(value);
    }

    private static IOException error(Path file, int line, String message) {
        return new IOException(file + " line " + line + ": " + message);
    }

    private static String join(List<Integer> numbers) {
        List<String> s = numbers.stream().limit(8).map(String::valueOf).toList();
        return String.join(", ", s) + (numbers.size() > 8 ? ", ..." : "");
    }

    /** Whether a JVM of this feature release (17, 21, 25, ...) may run the line. */
    public boolean runsOn(int jdkFeature) {
        return jdkFeature >= minJdk;
    }

    /** Whether the line is a group of the rounds engine ({@code [rounds=N]}). */
    public boolean isRounds() {
        return rounds > 0;
    }

    /** What results and reports call the line: its label, else its line number. */
    public String name() {
        return label != null ? label : String.valueOf(number);
    }
}
