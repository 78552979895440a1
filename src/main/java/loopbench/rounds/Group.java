package loopbench.rounds;

import loopbench.profile.ProfileLine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What the engine compares within a round: arms that run back to back, so that whatever the machine does meanwhile
 * hits all of them alike. A group comes from one profile line.
 *
 * @param label  what results call it: the line's label, else its line number
 * @param id     its part of the fork files' names ({@code [A-Za-z0-9-]}, unique in the run)
 * @param line   the profile line it comes from
 * @param rounds in how many rounds it runs (rounds 1 to N of the run)
 * @param arms   its configurations, one fork each per round
 */
public record Group(String label, String id, ProfileLine line, int rounds, List<Arm> arms) {
    public Group {
        arms = List.copyOf(arms);
        if (rounds < 1 || arms.isEmpty()) {
            throw new IllegalArgumentException("group " + label + " needs >= 1 round and >= 1 arm, has " + rounds
                    + " and " + arms.size());
        }
    }

    /**
     * The group of a {@code [rounds=N]} line: one arm per combination of its {@code -p} values (each {@code -p}
     * pinned to one value), twice over with {@code [twins]} (twin A and twin B of each). {@code extraArgs} (the
     * suite's options for every run) are appended to the line's.
     *
     * @throws IllegalArgumentException a {@code -p} that is not {@code name=value[,value...]}
     */
    public static Group ofLine(ProfileLine line, Launch launch, List<String> extraArgs) {
        List<String> args = new ArrayList<>(line.args());
        args.addAll(extraArgs);
        List<String> common = new ArrayList<>();
        Map<String, Set<String>> params = new LinkedHashMap<>();
        for (int i = 0; i < args.size(); i++) {
            if (!"-p".equals(args.get(i))) {
                common.add(args.get(i));
                continue;
            }
            String p = i + 1 < args.size() ? args.get(++i) : "";
            int eq = p.indexOf('=');
            if (eq <= 0 || eq == p.length() - 1) {
                throw new IllegalArgumentException("profile line " + line.number() + ": -p '" + p + "' is not "
                        + "name=value[,value...]: " + line.text());
            }
            params.computeIfAbsent(p.substring(0, eq), k -> new LinkedHashSet<>()).addAll(List.of(p.substring(eq + 1)
                    .split(",")));
        }
        List<Map<String, String>> combinations = new ArrayList<>();
        combinations.add(new LinkedHashMap<>());
        params.forEach((name, values) -> {
            List<Map<String, String>> next = new ArrayList<>();
            for (Map<String, String> c : combinations) {
                for (String v : values) {
                    Map<String, String> m = new LinkedHashMap<>(c);
                    m.put(name, v);
                    next.add(m);
                }
            }
            combinations.clear();
            combinations.addAll(next);
        });
        List<Arm> arms = new ArrayList<>();
        for (int c = 0; c < combinations.size(); c++) {
            Map<String, String> combination = combinations.get(c);
            List<String> armArgs = new ArrayList<>(common);
            List<String> labelParts = new ArrayList<>();
            combination.forEach((name, value) -> {
                armArgs.add("-p");
                armArgs.add(name + "=" + value);
                if (params.get(name).size() > 1 || combinations.size() == 1) {
                    labelParts.add(name + "=" + value);
                }
            });
            String label = labelParts.isEmpty() ? "default" : String.join(" ", labelParts);
            String id = String.format(Locale.ROOT, "a%02d", c + 1);
            if (line.twins()) {
                arms.add(new Arm(label + " [A]", id + "A", "A", launch, armArgs));
                arms.add(new Arm(label + " [B]", id + "B", "B", launch, armArgs));
            } else {
                arms.add(new Arm(label, id, null, launch, armArgs));
            }
        }
        String id = line.label() != null ? line.label() : String.format(Locale.ROOT, "l%02d", line.number());
        return new Group(line.name(), id, line, line.rounds(), arms);
    }
}
