package loopbench.topology;

import java.util.BitSet;
import java.util.stream.IntStream;

/**
 * A set of CPUs by number, as the kernel numbers them. Two spellings are read: the kernel's list format of
 * {@code /proc/PID/status} and {@code taskset -c} ({@code 0-1,3}), and the same with {@code +} between items
 * ({@code 0+2}, {@code 1-3+5}), because JMH splits a {@code -p} value at every comma. It prints in the kernel's
 * format.
 */
public final class CpuSet {
    /** The forms a CPU list takes, for error messages. */
    public static final String FORMS = "a CPU number (0), a range (1-3), or items joined by '+' or ',' (0+2, 0-1+3)";

    private final BitSet cpus;

    private CpuSet(BitSet cpus) {
        this.cpus = cpus;
    }

    public static CpuSet of(int... cpus) {
        BitSet b = new BitSet();
        for (int c : cpus) {
            if (c < 0) {
                throw new IllegalArgumentException("a CPU number is >= 0, was " + c);
            }
            b.set(c);
        }
        return new CpuSet(b);
    }

    /**
     * {@code 0}, {@code 1-3}, {@code 0+2}, {@code 0-1,3}: items joined by {@code +} or {@code ,}, each a CPU or an
     * inclusive range. Not empty.
     */
    public static CpuSet parse(String value) {
        String v = value == null ? "" : value.trim();
        BitSet b = new BitSet();
        if (v.isEmpty()) {
            throw bad(value, "no CPU given");
        }
        for (String item : v.split("[+,]", -1)) {
            int dash = item.indexOf('-');
            int from = number(value, dash < 0 ? item : item.substring(0, dash));
            int to = dash < 0 ? from : number(value, item.substring(dash + 1));
            if (to < from) {
                throw bad(value, "range " + item + " runs backwards");
            }
            b.set(from, to + 1);
        }
        return new CpuSet(b);
    }

    private static int number(String whole, String s) {
        if (s.isEmpty() || !s.chars().allMatch(Character::isDigit) || s.length() > 5) {
            throw bad(whole, "'" + s + "' is not a CPU number");
        }
        return Integer.parseInt(s);
    }

    private static IllegalArgumentException bad(String value, String why) {
        return new IllegalArgumentException("bad CPU list '" + value + "' (" + why + "); expected " + FORMS);
    }

    public int size() {
        return cpus.cardinality();
    }

    public boolean contains(int cpu) {
        return cpus.get(cpu);
    }

    /** Whether every CPU of this set is in {@code other}. */
    public boolean isSubsetOf(CpuSet other) {
        BitSet rest = (BitSet) cpus.clone();
        rest.andNot(other.cpus);
        return rest.isEmpty();
    }

    /** The CPUs of this set that {@code other} lacks. */
    public CpuSet minus(CpuSet other) {
        BitSet rest = (BitSet) cpus.clone();
        rest.andNot(other.cpus);
        return new CpuSet(rest);
    }

    public CpuSet union(CpuSet other) {
        BitSet all = (BitSet) cpus.clone();
        all.or(other.cpus);
        return new CpuSet(all);
    }

    /** The {@code n} lowest CPUs of this set. */
    public CpuSet lowest(int n) {
        return of(stream().limit(n).toArray());
    }

    /** The {@code n} highest CPUs of this set. */
    public CpuSet highest(int n) {
        return of(stream().skip(Math.max(0, size() - n)).toArray());
    }

    public IntStream stream() {
        return cpus.stream();
    }

    /** The kernel's list format, as taskset -c takes it and /proc/PID/status prints it: {@code 0-1,3}. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        int from = cpus.nextSetBit(0);
        while (from >= 0) {
            int to = cpus.nextClearBit(from) - 1;
            sb.append(sb.length() == 0 ? "" : ",").append(from);
            if (to > from) {
                sb.append('-').append(to);
            }
            from = cpus.nextSetBit(to + 1);
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CpuSet other && cpus.equals(other.cpus);
    }

    @Override
    public int hashCode() {
        return cpus.hashCode();
    }
}
