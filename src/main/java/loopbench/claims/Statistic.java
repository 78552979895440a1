package loopbench.claims;

import loopbench.report.JmhResult;

import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.function.ToDoubleFunction;

/**
 * A figure of a result, one value per fork: the unit of every interval in the claims report, so that the
 * intervals include fork-to-fork variation (JIT decisions, memory layout, the machine's mood), not only the
 * iteration-to-iteration noise JMH's own error bars show. With the rounds engine, each value carries its round.
 */
public interface Statistic {

    /** What the value is, for tables and axes, e.g. "proxy CPU per request". */
    String name();

    /** Its unit, e.g. "µs/request"; null to take the metric's own unit from the JSON. */
    String unit();

    /** What the statistic needs from a result, for the report when a result lacks it. */
    String requires();

    /** One value per fork (with its round, if any), or null when the result lacks what this statistic needs. */
    ForkValues forkValues(JmhResult result, Measurements measurements);

    /** The unit to show for {@code r}: {@link #unit()}, or the metric's own. */
    default String unitFor(JmhResult r) {
        return unit();
    }

    /** What every statistic states about itself; a subclass says how to read the fork values. */
    abstract class Described implements Statistic {
        private final String name;
        private final String unit;
        private final String requires;

        Described(String name, String unit, String requires) {
            this.name = name;
            this.unit = unit;
            this.requires = requires;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public String unit() {
            return unit;
        }

        @Override
        public String requires() {
            return requires;
        }
    }

    /** A metric of the result ({@link JmhResult#PRIMARY} or a secondary result's name): each fork's mean. */
    static Statistic metric(String metric, String name, String unit) {
        return new Described(name, unit,
                JmhResult.PRIMARY.equals(metric) ? "the primary score" : "the secondary result " + metric) {
            @Override
            public ForkValues forkValues(JmhResult r, Measurements m) {
                JmhResult.Metric x = r.metric(metric);
                return x == null || x.rawData().length == 0 ? null : new ForkValues(x.forkMeans(), r.rounds());
            }

            @Override
            public String unitFor(JmhResult r) {
                JmhResult.Metric x = r.metric(metric);
                return unit != null || x == null ? unit : x.unit();
            }
        };
    }

    /** The primary score (its own unit). */
    static Statistic primary(String name) {
        return metric(JmhResult.PRIMARY, name, null);
    }

    /**
     * Per measurement iteration, the sum of the {@code numerators} over the sum of the {@code denominators}, then
     * each fork's mean of those ratios: bytes per request from a benchmark's counters, measured throughput over its
     * predicted bound, p99 over p50.
     */
    static Statistic iterationRatio(String name, String unit, List<String> numerators, List<String> denominators) {
        return new Described(name, unit,
                "the results " + String.join(" + ", numerators) + " and " + String.join(" + ", denominators)) {
            @Override
            public ForkValues forkValues(JmhResult r, Measurements m) {
                double[][] num = sum(r, numerators);
                double[][] den = sum(r, denominators);
                if (num == null || den == null || num.length != den.length || num.length == 0) {
                    return null;
                }
                double[] values = new double[num.length];
                for (int f = 0; f < num.length; f++) {
                    int n = Math.min(num[f].length, den[f].length);
                    double s = 0;
                    for (int i = 0; i < n; i++) {
                        s += num[f][i] / den[f][i];
                    }
                    values[f] = n == 0 ? Double.NaN : s / n;
                }
                return new ForkValues(values, r.rounds());
            }
        };
    }

    /** {@code counter} per request (or message) from a benchmark's own event counters, each fork's mean. */
    static Statistic perUnit(String name, String unit, String counter, String perCounter) {
        return iterationRatio(name, unit, List.of(counter), List.of(perCounter));
    }

    /** Another statistic's per-fork values through {@code f}, e.g. the capacity a CPU cost per request allows. */
    static Statistic derived(String name, String unit, Statistic base, DoubleUnaryOperator f) {
        return new Described(name, unit, base.requires()) {
            @Override
            public ForkValues forkValues(JmhResult r, Measurements m) {
                ForkValues v = base.forkValues(r, m);
                return v == null ? null : v.map(f);
            }
        };
    }

    /**
     * A value read from each fork's end-to-end side file (those of the result's own run and arm, in round or fork
     * order): what JMH's JSON cannot carry, e.g. the first second of a cold proxy against its last seconds.
     */
    static Statistic fromSideFiles(String name, String unit, String what, ToDoubleFunction<SideFile> value) {
        return new Described(name, unit,
                "the trials' side files (e2e/*.json of the same run, next to the JSON) with " + what) {
            @Override
            public ForkValues forkValues(JmhResult r, Measurements m) {
                List<SideFile> files = m.sideFiles(r);
                if (files.isEmpty()) {
                    return null;
                }
                double[] v = files.stream().mapToDouble(value).toArray();
                boolean rounds = files.stream().allMatch(f -> f.round() != null);
                ForkValues values = new ForkValues(v,
                        rounds ? files.stream().mapToInt(SideFile::round).toArray() : null);
                return values.anyNaN() ? null : values;
            }
        };
    }

    /** Per-iteration sums of several metrics, {@code [fork][iteration]}; null if any is missing. */
    private static double[][] sum(JmhResult r, List<String> metrics) {
        double[][] total = null;
        for (String name : metrics) {
            JmhResult.Metric x = r.metric(name);
            if (x == null) {
                return null;
            }
            double[][] raw = x.rawData();
            if (total == null) {
                total = new double[raw.length][];
                for (int f = 0; f < raw.length; f++) {
                    total[f] = raw[f].clone();
                }
            } else {
                if (raw.length != total.length) {
                    return null;
                }
                for (int f = 0; f < raw.length; f++) {
                    for (int i = 0; i < Math.min(raw[f].length, total[f].length); i++) {
                        total[f][i] += raw[f][i];
                    }
                }
            }
        }
        return total;
    }
}
