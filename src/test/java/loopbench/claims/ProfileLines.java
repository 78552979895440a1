package loopbench.claims;

import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines of a rounds profile as the tests read them: the tags ({@code [label=..] [rounds=..] [jdk>=..] [jar=..]
 * [twins]}, in any order, before the JMH arguments) and the JMH options. The suite's own reader is
 * {@code loopbench.profile.ProfileLine}; this one serves the catalogue's tests.
 */
final class ProfileLines {
    private static final Pattern TAG = Pattern.compile("^\\[([^]]+)]\\s*");

    /** One line: its tags and its JMH options. */
    record Line(int number, String label, int rounds, int minJdk, String jar, boolean twins, String args,
                CommandLineOptions options) {

        /** The benchmark class's simple name (the first argument up to the first dot or regex character). */
        String className() {
            return args.split("\\s+")[0].split("[.$(]")[0];
        }

        /** The -p values of a parameter, or an empty list. */
        List<String> values(String param) {
            var v = options.getParameter(param);
            return v.hasValue() ? new ArrayList<>(v.get()) : List.of();
        }

        /** Every -p parameter with its values, in name order. */
        Map<String, List<String>> params() {
            Map<String, List<String>> m = new java.util.TreeMap<>();
            String[] a = args.split("\\s+");
            for (int i = 0; i + 1 < a.length; i++) {
                if (a[i].equals("-p")) {
                    String name = a[i + 1].substring(0, a[i + 1].indexOf('='));
                    m.put(name, values(name));
                }
            }
            return m;
        }

        /**
         * This line as JMH runs it: every @Param of its benchmark class (loopbench.bench) that the line does not set
         * added with the class's default values, so that {@link #arms} counts what JMH expands.
         */
        Line withDefaults() throws Exception {
            StringBuilder full = new StringBuilder(args);
            Map<String, List<String>> given = params();
            for (Class<?> c = Class.forName("loopbench.bench." + className()); c != null; c = c.getSuperclass()) {
                for (java.lang.reflect.Field f : c.getDeclaredFields()) {
                    org.openjdk.jmh.annotations.Param p = f.getAnnotation(org.openjdk.jmh.annotations.Param.class);
                    if (p != null && !given.containsKey(f.getName())) {
                        full.append(" -p ").append(f.getName()).append('=').append(String.join(",", p.value()));
                    }
                }
            }
            String text = full.toString();
            return new Line(number, label, rounds, minJdk, jar, twins, text,
                    new CommandLineOptions(text.split("\\s+")));
        }

        /** How many arms (combinations of the -p values) the line has. */
        int arms() {
            return params().values().stream().mapToInt(List::size).reduce(1, (a, b) -> a * b);
        }

        boolean endToEnd() {
            return className().contains("EndToEnd") || className().contains("Warmup")
                    || className().equals("ProxySideBySideBenchmark");
        }

        /**
         * The estimated seconds of one fork: start-up (1 s in process, 3 s end to end, as measured) plus warm-up and
         * measurement; a cold-start fork runs its origin warm-up and its seconds, an after-burst memory fork its burst
         * and its light load first.
         */
        double forkSeconds() {
            double start = endToEnd() ? 3 : 1;
            if (className().equals("ProxyWarmupBenchmark")) {
                return start + Double.parseDouble(values("originWarmupSeconds").get(0))
                        + Double.parseDouble(values("seconds").get(0));
            }
            if (className().equals("ProxySideBySideBenchmark")) {
                // each proxy's JVM starts in about 0.9 s; a cycle is a slice per arm, each a bit longer than its load
                int arms = values("arms").get(0).split(";").length;
                double cycle = arms * SIDE_BY_SIDE_SLICE_OVERHEAD * Double.parseDouble(values("sliceSeconds").get(0));
                return start + 0.9 * arms + (options.getWarmupIterations().get()
                        + options.getMeasurementIterations().get()) * cycle;
            }
            if (className().equals("MemoryEndToEndBenchmark") && values("phase").contains("after-burst")) {
                start += Double.parseDouble(values("burstSeconds").get(0))
                        + Double.parseDouble(values("settleSeconds").get(0));
            }
            return start + options.getWarmupIterations().get() * seconds(options.getWarmupTime().get())
                    + options.getMeasurementIterations().get() * seconds(options.getMeasurementTime().get());
        }

        /** Arms x rounds x a fork. */
        double seconds() {
            return arms() * rounds * forkSeconds();
        }

        private static double seconds(org.openjdk.jmh.runner.options.TimeValue t) {
            return t.convertTo(java.util.concurrent.TimeUnit.MILLISECONDS) / 1000.0;
        }
    }

    /**
     * A side-by-side slice's wall time over its load time: the generator's start, connects and drain
     * (docs/results/2026-11-27/side-by-side-pilot: 5 forks of 25 cycles of 9 slices in 20 min 15 s, 243 s a fork).
     */
    static final double SIDE_BY_SIDE_SLICE_OVERHEAD = 1.03;

    private ProfileLines() {
    }

    static List<Line> read(Path file) throws Exception {
        List<Line> lines = new ArrayList<>();
        List<String> raw = Files.readAllLines(file);
        for (int i = 0; i < raw.size(); i++) {
            String text = raw.get(i).trim();
            if (text.isEmpty() || text.startsWith("#")) {
                continue;
            }
            String label = null;
            String jar = null;
            int rounds = 0;
            int minJdk = 0;
            boolean twins = false;
            Matcher m = TAG.matcher(text);
            while (m.find()) {
                String tag = m.group(1);
                if (tag.startsWith("label=")) {
                    label = tag.substring(6);
                } else if (tag.startsWith("rounds=")) {
                    rounds = Integer.parseInt(tag.substring(7));
                } else if (tag.startsWith("jdk>=")) {
                    minJdk = Integer.parseInt(tag.substring(5));
                } else if (tag.startsWith("jar=")) {
                    jar = tag.substring(4);
                } else if (tag.equals("twins")) {
                    twins = true;
                } else {
                    throw new IllegalArgumentException(file + ":" + (i + 1) + ": unknown tag [" + tag + "]");
                }
                text = text.substring(m.end());
                m = TAG.matcher(text);
            }
            lines.add(new Line(i + 1, label, rounds, minJdk, jar, twins, text,
                    new CommandLineOptions(text.split("\\s+"))));
        }
        return lines;
    }

    /** The lines by label. */
    static Map<String, Line> byLabel(List<Line> lines) {
        Map<String, Line> m = new LinkedHashMap<>();
        lines.forEach(l -> m.put(l.label(), l));
        return m;
    }

    /** The estimate a profile's header must state: minutes of measurement, lines for a newer JDK apart. */
    static double minutes(List<Line> lines, boolean newerJdkLines) {
        return lines.stream().filter(l -> (l.minJdk() > 0) == newerJdkLines).mapToDouble(Line::seconds).sum() / 60;
    }
}
