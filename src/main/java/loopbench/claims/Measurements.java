package loopbench.claims;

import loopbench.flame.FlameGraphs;
import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a claims report reads: the results of one or more JMH JSON files (a later file's result replaces an
 * earlier one with the same benchmark, mode, parameters, group and arm), the end-to-end side files next to each
 * ({@code e2e/}) that belong to the results' own runs, and the flame graphs next to each ({@code flame/}).
 *
 * <p>The side-file folder is shared: nobody clears it between runs, and a second run without {@code mvn clean}
 * writes into it too. So a result reads only the side files of its own run and arm ({@link SideFile#matches});
 * the others are counted ({@link #foreignSideFiles()}) and the report says how many were left out.
 */
public final class Measurements {
    private final List<Path> sources;
    private final List<JmhResult> results;
    private final List<SideFile> sideFiles;
    private final List<Path> flameRoots;
    private final List<String> problems;
    /** The results of each JSON file read, as read (empty for results given directly). */
    private final Map<Path, List<JmhResult>> bySource;

    private Measurements(List<Path> sources, List<JmhResult> results, List<SideFile> sideFiles, List<Path> flameRoots,
                         List<String> problems, Map<Path, List<JmhResult>> bySource) {
        this.sources = List.copyOf(sources);
        this.results = List.copyOf(results);
        this.sideFiles = List.copyOf(sideFiles);
        this.flameRoots = List.copyOf(flameRoots);
        this.problems = List.copyOf(problems);
        this.bySource = Collections.unmodifiableMap(new LinkedHashMap<>(bySource));
    }

    /** Reads JMH JSON files and what lies next to them. Throws IOException for a file that is not JMH's JSON. */
    public static Measurements load(List<Path> jsonFiles) throws IOException {
        List<JmhResult> all = new ArrayList<>();
        List<SideFile> side = new ArrayList<>();
        Set<Path> dirs = new LinkedHashSet<>();
        List<String> problems = new ArrayList<>();
        Map<Path, List<JmhResult>> bySource = new LinkedHashMap<>();
        for (Path f : jsonFiles) {
            List<JmhResult> read = JmhResult.read(f);
            bySource.put(f, read);
            all.addAll(read);
            dirs.add(f.toAbsolutePath().getParent());
        }
        List<Path> flame = new ArrayList<>();
        for (Path d : dirs) {
            side.addAll(SideFile.readAll(d.resolve(EndToEndMetrics.SIDE_FILE_DIR), problems));
            flame.add(d.resolve(FlameGraphs.SUITE_DIR));
        }
        return new Measurements(jsonFiles, distinct(all), side, flame, problems, bySource);
    }

    /** The results read from one of the JSON files these were loaded from, as read. */
    public List<JmhResult> resultsOf(Path jsonFile) {
        List<JmhResult> r = bySource.get(jsonFile);
        if (r == null) {
            throw new IllegalArgumentException(jsonFile + " is not among the files read: " + bySource.keySet());
        }
        return r;
    }

    /**
     * Only the results of {@code jsonFiles} (some of the files these were loaded from), with the same side files:
     * to evaluate subsets of one set of inputs without reading any file twice.
     */
    public Measurements only(List<Path> jsonFiles) {
        List<JmhResult> r = new ArrayList<>();
        Map<Path, List<JmhResult>> sub = new LinkedHashMap<>();
        for (Path f : jsonFiles) {
            sub.put(f, resultsOf(f));
            r.addAll(sub.get(f));
        }
        return new Measurements(jsonFiles, distinct(r), sideFiles, flameRoots, problems, sub);
    }

    /** Results given directly (tests). */
    public static Measurements of(List<JmhResult> results, List<SideFile> sideFiles) {
        return new Measurements(List.of(), distinct(results), sideFiles, List.of(), List.of(), Map.of());
    }

    /** The results, a later one replacing an earlier one of the same key, group, arm and twin. */
    private static List<JmhResult> distinct(List<JmhResult> results) {
        Map<String, JmhResult> m = new LinkedHashMap<>();
        results.forEach(r -> m.put(r.key() + "|" + r.group() + "|" + r.arm() + "|" + r.twin(), r));
        return List.copyOf(m.values());
    }

    public List<Path> sources() {
        return sources;
    }

    public List<JmhResult> results() {
        return results;
    }

    /** The result a selection names, or null; with several matches, the first (see {@link #ambiguity}). */
    public JmhResult find(Selection s) {
        List<JmhResult> m = s.matchesIn(results);
        return m.isEmpty() ? null : m.get(0);
    }

    /** A note when several results match a selection (a parameter it leaves free took several values), else null. */
    public String ambiguity(Selection s) {
        List<JmhResult> m = s.matchesIn(results);
        return m.size() <= 1 ? null : m.size() + " results match " + s.describe() + "; the first, " + m.get(0).key()
                + ", was used";
    }

    /** The side files of a result's trials (its own run and arm only), by round, else by fork. */
    public List<SideFile> sideFiles(JmhResult r) {
        return sideFiles.stream().filter(f -> f.matches(r))
                .sorted(Comparator.comparing((SideFile f) -> f.round() == null ? Integer.MAX_VALUE : f.round())
                        .thenComparingLong(SideFile::fork))
                .toList();
    }

    /** The run ids of the results (none for results of plain JMH runs). */
    public Set<String> runs() {
        Set<String> runs = new LinkedHashSet<>();
        results.forEach(r -> {
            if (r.run() != null) {
                runs.add(r.run());
            }
        });
        return runs;
    }

    /** The latest run id of the results (ids sort by their start time), or null for results of plain JMH runs. */
    public String latestRun() {
        return runs().stream().max(String::compareTo).orElse(null);
    }

    /** Side files next to the input that no result reads: other runs', tests', earlier parameter sets'. */
    public int foreignSideFiles() {
        return (int) sideFiles.stream().filter(f -> results.stream().noneMatch(f::matches)).count();
    }

    /** Every side file next to the input that a result reads. */
    public List<SideFile> ownSideFiles() {
        return sideFiles.stream().filter(f -> results.stream().anyMatch(f::matches)).toList();
    }

    /** The flame graphs taken of a result (every root next to an input file). */
    public List<Path> flameGraphs(JmhResult r) {
        List<Path> graphs = new ArrayList<>();
        for (Path root : flameRoots) {
            try {
                graphs.addAll(FlameGraphs.find(root, r.benchmark(), r.params()));
            } catch (IOException e) {
                // an unreadable directory has no graphs to link
            }
        }
        return graphs;
    }

    /** Side files that could not be read. */
    public List<String> problems() {
        return problems;
    }

    /** The directories the input files are in (where machine.json and the side files are looked for). */
    public List<Path> directories() {
        Set<Path> dirs = new LinkedHashSet<>();
        sources.forEach(f -> dirs.add(f.toAbsolutePath().getParent()));
        return List.copyOf(dirs);
    }
}
