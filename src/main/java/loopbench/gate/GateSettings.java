package loopbench.gate;

import loopbench.process.JavaRuntime;
import loopbench.profile.ProfileLine;
import loopbench.report.Comparison;
import loopbench.report.JmhResult;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything a gate run needs, checked before anything runs: a bad value is an {@link IllegalArgumentException}
 * naming it and the valid ones (the CLI's exit 2).
 *
 * @param lines       the profile's lines both sides' JVMs may run
 * @param skipped     the profile's lines left out, with why (a {@code [jdk>=N]} guard one side's JVM does not meet)
 * @param out         where every fork's raw JSON and log go ({@code forks/}), and the reports by default
 * @param ignoreLock  run without taking JMH's machine-wide lock (for a functional check on a busy machine only)
 * @param allowPartial pass a gate that judged less than its profile asks (see {@link Gate}), when that is intended
 * @param newParams   parameters one jar's benchmarks lack, each with the value that does what that jar does: a fork
 *                    run with it is compared with the other jar's forks without the parameter ({@link #keyOf})
 */
public record GateSettings(Side baseline, Side candidate, Path profile, List<ProfileLine> lines, List<String> skipped,
                           int rounds, Comparison.Thresholds thresholds, Path out, Path summary, Path json, long seed,
                           boolean ignoreLock, boolean allowPartial, Map<String, String> newParams) {
    public static final int DEFAULT_ROUNDS = 8;

    public GateSettings {
        lines = List.copyOf(lines);
        skipped = List.copyOf(skipped);
        newParams = Map.copyOf(newParams);
    }

    /**
     * What identifies a result on both sides: its {@link JmhResult#key()}, without each of {@link #newParams} it was
     * run with at that parameter's given value (with another value it has nothing to compare with).
     */
    public String keyOf(JmhResult r) {
        return r.keyWithout(newParams);
    }

    /**
     * Parses {@code --new-param NAME=VALUE} values; a value without a name or '=' is an
     * {@link IllegalArgumentException} naming it.
     */
    public static Map<String, String> newParams(List<String> values) {
        Map<String, String> parsed = new TreeMap<>();
        for (String v : values == null ? List.<String>of() : values) {
            int eq = v.indexOf('=');
            if (eq <= 0 || eq == v.length() - 1) {
                throw new IllegalArgumentException("--new-param '" + v + "' is not NAME=VALUE (a benchmark parameter "
                        + "and the value that does what the jar without it does, e.g. handler=none)");
            }
            if (parsed.put(v.substring(0, eq), v.substring(eq + 1)) != null) {
                throw new IllegalArgumentException("--new-param '" + v + "': parameter " + v.substring(0, eq)
                        + " given twice");
            }
        }
        return parsed;
    }

    /** What the command line gives, unchecked. */
    public record Raw(Path baselineJar, Path candidateJar, Path profile, int rounds, Path baselineJvm,
                      Path candidateJvm, String baselineJvmArgs, String candidateJvmArgs, String baselineUnsafe,
                      String candidateUnsafe, double thresholdPercent, double allocThresholdPercent, Path out,
                      Path summary, Path json, Long seed, boolean ignoreLock, boolean allowPartial) {
    }

    /** {@link #of(Raw, Map)} without new parameters. */
    public static GateSettings of(Raw raw) {
        return of(raw, Map.of());
    }

    /** Checks the raw values, asks each side's JVM what it is, reads the profile. */
    public static GateSettings of(Raw raw, Map<String, String> newParams) {
        if (raw.rounds() < 2) {
            throw new IllegalArgumentException("--rounds must be >= 2 (an interval needs 2 pairs of forks), was "
                    + raw.rounds());
        }
        Comparison.Thresholds thresholds = new Comparison.Thresholds(raw.thresholdPercent(),
                raw.allocThresholdPercent());
        Side baseline = side("baseline", raw.baselineJar(), raw.baselineJvm(), raw.baselineJvmArgs(),
                raw.baselineUnsafe());
        Side candidate = side("candidate", raw.candidateJar(), raw.candidateJvm(), raw.candidateJvmArgs(),
                raw.candidateUnsafe());
        List<ProfileLine> all;
        try {
            all = ProfileLine.read(raw.profile());
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("--profile " + e.getMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException("--profile " + raw.profile() + ": " + e.getMessage());
        }
        List<ProfileLine> lines = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (ProfileLine l : all) {
            if (l.isRounds() || l.twins() || l.jar() != null) {
                throw new IllegalArgumentException("--profile " + raw.profile() + " line " + l.number() + ": the gate "
                        + "runs every line in --rounds rounds, one fork per jar; [rounds=N], [twins] and [jar=NAME] "
                        + "are for the suite's rounds profiles");
            }
            if (l.runsOn(baseline.java().feature()) && l.runsOn(candidate.java().feature())) {
                lines.add(l);
            } else {
                skipped.add(String.format(Locale.ROOT, "line %d needs JDK %d+ on both sides (baseline JDK %d, "
                                + "candidate JDK %d): %s", l.number(), l.minJdk(), baseline.java().feature(),
                        candidate.java().feature(), l.text()));
            }
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("--profile " + raw.profile() + ": no line runs on both sides' JVMs: "
                    + String.join("; ", skipped));
        }
        Path out = raw.out();
        long seed = raw.seed() != null ? raw.seed() : System.nanoTime();
        return new GateSettings(baseline, candidate, raw.profile(), lines, skipped, raw.rounds(), thresholds, out,
                raw.summary() != null ? raw.summary() : out.resolve("summary.md"),
                raw.json() != null ? raw.json() : out.resolve("gate.json"), seed, raw.ignoreLock(), raw.allowPartial(),
                newParams);
    }

    private static Side side(String role, Path jar, Path jvm, String jvmArgs, String unsafe) {
        if (jar == null) {
            throw new IllegalArgumentException("--" + role + " is required: the " + role + "'s benchmarks.jar");
        }
        if (!Files.isRegularFile(jar)) {
            throw new IllegalArgumentException("--" + role + " " + jar + ": no such file (expected a benchmarks.jar, "
                    + "built by ./mvnw -Pjmh package)");
        }
        JavaRuntime java;
        try {
            java = jvm == null ? JavaRuntime.current() : JavaRuntime.probe(jvm);
        } catch (IOException e) {
            throw new IllegalArgumentException("--" + role + "-jvm " + e.getMessage());
        }
        boolean on = switch (unsafe == null ? "on" : unsafe.toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("--" + role + "-unsafe '" + unsafe + "' is not valid; "
                    + "valid: on, off");
        };
        List<String> args = jvmArgs == null || jvmArgs.isBlank() ? List.of() : List.of(jvmArgs.trim().split("\\s+"));
        return Side.of(role, jar, java, args, on);
    }
}
