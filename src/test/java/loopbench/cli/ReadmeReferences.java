package loopbench.cli;

import loopbench.suite.Suite;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a Markdown guide refers to, and whether it exists: the commands it shows ({@code java -jar
 * target/loopbench.jar ...}, {@code java -jar target/benchmarks.jar ...}, the suite, {@code ./mvnw ...}), in code
 * blocks and in inline code; the repository paths it names ({@code profiles/...}, {@code docs/...}, {@code src/...},
 * {@code .ci/...}, {@code .github/...}); its links and their anchors; the {@code -Dloopbench.*} properties it mentions.
 * {@link #problems} checks each against the repository and the code: a CLI command's subcommand and every flag
 * against loopbench's own picocli model (in process, no JVM started), a benchmark command against JMH's option parser
 * and the benchmark classes' {@code @Param} fields, a Maven command's {@code -P} profiles and properties against
 * {@code pom.xml}.
 */
final class ReadmeReferences {
    private static final Pattern FENCE = Pattern.compile("^\\s*```");
    private static final Pattern INLINE_CODE = Pattern.compile("`([^`]+)`");
    private static final Pattern REPO_PATH =
            Pattern.compile("(?<![\\w./$-])((?:profiles|docs|src|\\.ci|\\.github)/[\\w.+/-]*)");
    private static final Pattern LINK = Pattern.compile("\\[[^]]*]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.+?)\\s*$", Pattern.MULTILINE);
    private static final Pattern PROPERTY = Pattern.compile("-D(loopbench\\.[A-Za-z0-9_.]*[A-Za-z0-9_])");
    private static final Pattern POM_PROFILE = Pattern.compile("<profile>\\s*<id>([^<]+)</id>");
    private static final String BENCH_PACKAGE = "loopbench.bench";

    /** A command as shown: its text (continuation lines joined) and its words, quotes removed. */
    record Command(String text, List<String> words) {
    }

    /** Everything the guide refers to. */
    record References(List<Command> commands, Set<String> paths, Set<String> links, Set<String> properties) {
    }

    private ReadmeReferences() {
    }

    static References extract(String guide) {
        String markdown = guide.replaceAll("(?s)<!--.*?-->", ""); // notes to the guide's writers
        List<String> codeLines = new ArrayList<>();
        StringBuilder prose = new StringBuilder();
        boolean inCode = false;
        for (String line : markdown.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                inCode = !inCode;
                continue;
            }
            if (inCode) {
                codeLines.add(line);
            } else {
                prose.append(line).append(' ');
            }
        }
        List<String> shown = new ArrayList<>(joinContinuations(codeLines));
        Matcher inline = INLINE_CODE.matcher(prose);
        while (inline.find()) {
            shown.add(inline.group(1).trim());
        }
        List<Command> commands = new ArrayList<>();
        for (String text : shown) {
            for (List<String> words : commandsIn(text)) {
                String first = words.get(0);
                if (first.equals("java") || first.equals("./mvnw")) {
                    commands.add(new Command(String.join(" ", words), words));
                }
            }
        }
        Set<String> paths = new TreeSet<>();
        Matcher p = REPO_PATH.matcher(markdown);
        while (p.find()) {
            String path = p.group(1).replaceAll("[.:]+$", "");
            if (!isPlaceholder(path)) {
                paths.add(path);
            }
        }
        Set<String> links = new LinkedHashSet<>();
        Matcher l = LINK.matcher(prose);
        while (l.find()) {
            if (!l.group(1).matches("[a-z]+:.*")) { // http:, https:, mailto: are not the repository's
                links.add(l.group(1));
            }
        }
        Set<String> properties = new TreeSet<>();
        Matcher d = PROPERTY.matcher(markdown);
        while (d.find()) {
            properties.add(d.group(1));
        }
        return new References(commands, paths, links, properties);
    }

    /** {@link #problems(String, Path, Path)} of a guide at the repository's top, as README.md is. */
    static List<String> problems(String markdown, Path root) {
        return problems(markdown, root, root);
    }

    /**
     * Everything the guide shows that does not exist, one message each (empty when all does).
     *
     * @param root the repository (paths, pom.xml and sources are read from there)
     * @param dir  the guide's directory (its relative links start there)
     */
    static List<String> problems(String markdown, Path root, Path dir) {
        References refs = extract(markdown);
        List<String> problems = new ArrayList<>();
        for (String path : refs.paths()) {
            if (!Files.exists(root.resolve(path))) {
                problems.add("no such path: " + path);
            }
        }
        for (String link : refs.links()) {
            problems.addAll(linkProblems(link, markdown, dir));
        }
        String sources = sources(root);
        for (String property : refs.properties()) {
            if (!sources.contains(property)) {
                problems.add("-D" + property + ": no such property in src/main or src/jmh");
            }
        }
        for (Command c : refs.commands()) {
            problems.addAll(commandProblems(c, root).stream().map(m -> m + "\n    in: " + c.text()).toList());
        }
        return problems;
    }

    // ---- extraction ------------------------------------------------------------------------------------------

    /** Code lines with a trailing backslash, or followed by an indented line of options, joined into one. */
    private static List<String> joinContinuations(List<String> lines) {
        List<String> joined = new ArrayList<>();
        StringBuilder current = null;
        for (String line : lines) {
            String trimmed = line.trim();
            boolean continues = current != null && current.toString().endsWith("\\");
            boolean indentedOptions = current != null && line.startsWith(" ")
                    && (trimmed.startsWith("-") || trimmed.startsWith("["));
            if (continues || indentedOptions) {
                if (continues) {
                    current.setLength(current.length() - 1);
                }
                current.append(' ').append(trimmed);
            } else {
                if (current != null) {
                    joined.add(current.toString());
                }
                current = new StringBuilder(trimmed);
            }
        }
        if (current != null) {
            joined.add(current.toString());
        }
        return joined;
    }

    /** The simple commands of a shell line: words (quotes removed), split at {@code && || ; |}, up to a comment. */
    static List<List<String>> commandsIn(String line) {
        List<List<String>> commands = new ArrayList<>();
        List<String> words = new ArrayList<>();
        for (String word : shellWords(line)) {
            if (Set.of("&&", "||", ";", "|").contains(word)) {
                if (!words.isEmpty()) {
                    commands.add(words);
                }
                words = new ArrayList<>();
            } else {
                String w = word.replaceAll("^\\(+", "").replaceAll("\\)+$", "");
                if (!w.isEmpty()) {
                    words.add(w);
                }
            }
        }
        if (!words.isEmpty()) {
            commands.add(words);
        }
        return commands;
    }

    private static List<String> shellWords(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = null;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    word.append(c);
                }
            } else if (c == '\'' || c == '"') {
                quote = c;
                word = word == null ? new StringBuilder() : word;
            } else if (Character.isWhitespace(c)) {
                if (word != null) {
                    words.add(word.toString());
                    word = null;
                }
            } else if (c == '#' && word == null) {
                break; // a comment
            } else {
                word = word == null ? new StringBuilder() : word;
                word.append(c);
            }
        }
        if (word != null) {
            words.add(word.toString());
        }
        return words;
    }

    /** DATE, FILE, claims-run-N, claims*: a pattern for a family of paths, not a path. */
    private static boolean isPlaceholder(String path) {
        return Arrays.stream(path.split("/")).anyMatch(s -> s.matches("[A-Z][A-Z0-9_]*") || s.matches(".*-N"))
                || path.endsWith("*") || path.endsWith("-");
    }

    // ---- checks ----------------------------------------------------------------------------------------------

    private static List<String> linkProblems(String link, String markdown, Path dir) {
        int hash = link.indexOf('#');
        String file = hash < 0 ? link : link.substring(0, hash);
        String anchor = hash < 0 ? null : link.substring(hash + 1);
        String target = markdown;
        if (!file.isEmpty()) {
            Path p = dir.resolve(file);
            if (!Files.exists(p)) {
                return List.of("link to a missing file: " + link);
            }
            if (anchor == null) {
                return List.of();
            }
            target = read(Files.isDirectory(p) ? p.resolve("README.md") : p);
        }
        if (anchor != null && !anchors(target).contains(anchor)) {
            return List.of("link to a missing heading: " + link + " (headings: " + anchors(target) + ")");
        }
        return List.of();
    }

    /** GitHub's anchors for a document's headings: lower case, punctuation dropped, spaces as hyphens. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Matcher h = HEADING.matcher(markdown.replaceAll("(?s)```.*?```", ""));
        while (h.find()) {
            anchors.add(h.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-'));
        }
        return anchors;
    }

    private static List<String> commandProblems(Command c, Path root) {
        List<String> w = c.words();
        if (w.get(0).equals("./mvnw")) {
            return mavenProblems(w.subList(1, w.size()), root);
        }
        String jar = null;
        String main = null;
        int i = 1;
        for (; i < w.size() && main == null && jar == null; i++) {
            String a = w.get(i);
            if (a.equals("-jar") && i + 1 < w.size()) {
                jar = w.get(++i);
            } else if ((a.equals("-cp") || a.equals("-classpath")) && i + 2 < w.size()) {
                i++;
                main = w.get(++i);
            } else if (!a.startsWith("-")) {
                main = a;
            }
        }
        List<String> args = w.subList(i, w.size());
        if ("loopbench.cli.Main".equals(main) || jar != null && jar.endsWith("loopbench.jar")) {
            return picocliProblems(new CommandLine(new Main()), args, true);
        }
        if ("loopbench.suite.Suite".equals(main)) {
            int dashes = args.indexOf("--");
            return picocliProblems(new CommandLine(new Suite()), dashes < 0 ? args : args.subList(0, dashes), false);
        }
        if ("org.openjdk.jmh.Main".equals(main) || jar != null && jar.endsWith("benchmarks.jar")) {
            return jmhProblems(args, root);
        }
        return List.of(); // another program (a gateway, a peer): not loopbench's to check
    }

    /** A subcommand that exists (when {@code subcommands}), and every --flag one of its options. */
    private static List<String> picocliProblems(CommandLine top, List<String> args, boolean subcommands) {
        List<String> problems = new ArrayList<>();
        CommandLine cmd = top;
        List<String> rest = args;
        if (subcommands && !args.isEmpty() && !args.get(0).startsWith("-")) {
            cmd = top.getSubcommands().get(args.get(0));
            if (cmd == null) {
                return List.of("no command '" + args.get(0) + "'; the commands: " + top.getSubcommands().keySet());
            }
            rest = args.subList(1, args.size());
        }
        CommandSpec spec = cmd.getCommandSpec();
        for (String arg : rest) {
            String a = arg.replaceAll("^\\[+", "").replaceAll("]+$", "");
            if (a.matches("--?[A-Za-z][\\w-]*(=.*)?")) {
                String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
                if (spec.findOption(name) == null) {
                    problems.add(spec.qualifiedName() + " has no option " + name + "; its options: "
                            + spec.options().stream().map(o -> o.longestName()).collect(Collectors.toList()));
                }
            }
        }
        return problems;
    }

    /** JMH's own parser accepts the options; the selection matches a benchmark; each -p names one of its @Params. */
    private static List<String> jmhProblems(List<String> args, Path root) {
        List<String> clean = args.stream().filter(a -> !a.equals("...")).toList();
        CommandLineOptions options;
        try {
            options = new CommandLineOptions(clean.toArray(new String[0]));
        } catch (CommandLineOptionException e) {
            return List.of("JMH refuses the options: " + e.getMessage());
        }
        List<String> problems = new ArrayList<>();
        List<Method> selected = new ArrayList<>();
        for (String include : options.getIncludes()) {
            Pattern regex = Pattern.compile(include);
            List<Method> matched = benchmarks(root).stream()
                    .filter(m -> regex.matcher(m.getDeclaringClass().getName() + "." + m.getName()).find()).toList();
            if (matched.isEmpty()) {
                problems.add("no benchmark matches '" + include + "'");
            }
            selected.addAll(matched);
        }
        for (int i = 0; i + 1 < clean.size(); i++) {
            if (clean.get(i).equals("-p") && !selected.isEmpty()) {
                String name = clean.get(i + 1).split("=", 2)[0];
                if (selected.stream().noneMatch(m -> params(m).contains(name))) {
                    problems.add("-p " + name + ": no such @Param in " + selected.stream()
                            .map(m -> m.getDeclaringClass().getSimpleName()).distinct().toList());
                }
            }
            if (clean.get(i).equals("-prof") && clean.get(i + 1).startsWith("loopbench.")) {
                String profiler = clean.get(i + 1).split(":", 2)[0];
                try {
                    Class.forName(profiler, false, ReadmeReferences.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    problems.add("-prof " + profiler + ": no such class");
                }
            }
        }
        return problems;
    }

    /** Every @Benchmark method of the benchmark package (the classes of src/jmh/java/loopbench/bench). */
    private static List<Method> benchmarks(Path root) {
        Path dir = root.resolve("src/jmh/java/" + BENCH_PACKAGE.replace('.', '/'));
        try (Stream<Path> files = Files.list(dir)) {
            List<Method> methods = new ArrayList<>();
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String name = f.getFileName().toString().replace(".java", "");
                Class<?> c = Class.forName(BENCH_PACKAGE + "." + name, false, ReadmeReferences.class.getClassLoader());
                Arrays.stream(c.getMethods()).filter(m -> m.isAnnotationPresent(Benchmark.class)).forEach(methods::add);
            }
            return methods;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The @Param names a benchmark method can be given: its class's (inherited too) and its @State arguments'. */
    private static Set<String> params(Method benchmark) {
        List<Class<?>> holders = new ArrayList<>();
        holders.add(benchmark.getDeclaringClass());
        holders.addAll(Arrays.asList(benchmark.getDeclaringClass().getDeclaredClasses()));
        holders.addAll(Arrays.asList(benchmark.getParameterTypes()));
        Set<String> names = new TreeSet<>();
        for (Class<?> c : holders) {
            for (Field f : c.getFields()) {
                if (f.isAnnotationPresent(Param.class)) {
                    names.add(f.getName());
                }
            }
        }
        return names;
    }

    /** -P profiles of pom.xml, -D properties pom.xml knows, and the files -f and -Djmh.profile name. */
    private static List<String> mavenProblems(List<String> args, Path root) {
        String pom = read(root.resolve("pom.xml"));
        Set<String> profiles = new TreeSet<>();
        Matcher m = POM_PROFILE.matcher(pom);
        while (m.find()) {
            profiles.add(m.group(1).trim());
        }
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (a.startsWith("-P")) {
                String ids = a.length() > 2 ? a.substring(2) : i + 1 < args.size() ? args.get(++i) : "";
                for (String id : ids.split(",")) {
                    if (!profiles.contains(id.replaceFirst("^[!-]", ""))) {
                        problems.add("-P" + id + ": no such profile in pom.xml; its profiles: " + profiles);
                    }
                }
            } else if (a.startsWith("-D")) {
                String[] kv = a.substring(2).split("=", 2);
                if (!pom.contains(kv[0])) {
                    problems.add("-D" + kv[0] + ": pom.xml knows no such property");
                } else if (kv[0].equals("jmh.profile") && kv.length == 2 && !Files.exists(root.resolve(kv[1]))) {
                    problems.add("-Djmh.profile=" + kv[1] + ": no such file");
                }
            } else if (a.equals("-f") && i + 1 < args.size() && !Files.exists(root.resolve(args.get(++i)))) {
                problems.add("-f " + args.get(i) + ": no such file");
            }
        }
        return problems;
    }

    private static String sources(Path root) {
        StringBuilder all = new StringBuilder();
        for (String dir : List.of("src/main/java", "src/jmh/java")) {
            try (Stream<Path> files = Files.walk(root.resolve(dir))) {
                files.filter(f -> f.toString().endsWith(".java")).forEach(f -> all.append(read(f)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return all.toString();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
