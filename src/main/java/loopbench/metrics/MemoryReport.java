package loopbench.metrics;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufAllocatorMetric;
import io.netty.buffer.ByteBufAllocatorMetricProvider;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.internal.PlatformDependent;
import loopbench.line.NettyLine;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What a server process holds in memory, read inside it at one moment, as one line of text: its allocator's own
 * figures (the {@link ByteBufAllocatorMetric} of the allocator its channels use), Netty's direct-memory counter,
 * the JDK's direct buffers, its resident set size (/proc, through {@link ProcStat}) and its heap just after the last
 * garbage collection. The figures, in bytes; a figure the allocator's API does not give is absent, not zero:
 * <ul>
 *   <li>{@value #ALLOCATOR_DIRECT_RESERVED}: direct memory the allocator holds ({@code usedDirectMemory()}): the
 *       pooled allocator's chunks (in use or not), the adaptive allocator's chunks, the unpooled allocator's live
 *       buffers;</li>
 *   <li>{@value #ALLOCATOR_DIRECT_IN_USE}: of that, what live buffers occupy: the pooled allocator's
 *       {@code pinnedDirectMemory()}, the unpooled allocator's live buffers; the adaptive allocator's API has no such
 *       figure;</li>
 *   <li>{@value #ALLOCATOR_HEAP_RESERVED}: the same as reserved, for heap buffers;</li>
 *   <li>{@value #NETTY_DIRECT}: {@code PlatformDependent.usedDirectMemory()}, every direct buffer Netty allocated
 *       without a JDK cleaner, whoever asked for it (absent when Netty does not count);</li>
 *   <li>{@value #JDK_DIRECT}: the JDK's direct buffer pool ({@code ByteBuffer.allocateDirect}, Netty's fall-back
 *       without Unsafe);</li>
 *   <li>{@value #RSS}: the process's resident set size;</li>
 *   <li>{@value #HEAP_AFTER_GC}: the heap's occupancy right after the most recent collection (absent before the
 *       first), from the collector's own record: no collection is forced to read it.</li>
 * </ul>
 *
 * <p>A server prints it on stdout when its parent asks ({@value #REQUEST} on its stdin): read only then, on a thread
 * that serves no connection, so the measured path never pays for it.
 * {@code memory netty=4.2.18.Final allocator=pooled allocator.direct.reserved=4194304 ... rss=123456789}
 */
public record MemoryReport(String netty, String allocator, Map<String, Long> figures) {
    /** What a parent writes on a server's stdin to ask. */
    public static final String REQUEST = "memory";
    private static final String PREFIX = REQUEST + " ";

    public static final String ALLOCATOR_DIRECT_RESERVED = "allocator.direct.reserved";
    public static final String ALLOCATOR_DIRECT_IN_USE = "allocator.direct.inUse";
    public static final String ALLOCATOR_HEAP_RESERVED = "allocator.heap.reserved";
    public static final String NETTY_DIRECT = "netty.direct";
    public static final String JDK_DIRECT = "jdk.direct";
    public static final String RSS = "rss";
    public static final String HEAP_AFTER_GC = "heap.afterGc";
    /** Every figure, in the order of a line. */
    public static final List<String> FIGURES = List.of(ALLOCATOR_DIRECT_RESERVED, ALLOCATOR_DIRECT_IN_USE,
            ALLOCATOR_HEAP_RESERVED, NETTY_DIRECT, JDK_DIRECT, RSS, HEAP_AFTER_GC);
    /** What a process without a Netty allocator (the Apache Mina echo server) names as its allocator. */
    public static final String NO_ALLOCATOR = "none";

    public MemoryReport {
        figures = Collections.unmodifiableMap(new LinkedHashMap<>(figures));
    }

    /** This process now, its channels allocating from {@code allocator} (null: none) named {@code name}. */
    public static MemoryReport of(ByteBufAllocator allocator, String name) {
        Map<String, Long> f = new LinkedHashMap<>();
        if (allocator instanceof ByteBufAllocatorMetricProvider) {
            ByteBufAllocatorMetric metric = ((ByteBufAllocatorMetricProvider) allocator).metric();
            f.put(ALLOCATOR_DIRECT_RESERVED, metric.usedDirectMemory());
            if (allocator instanceof PooledByteBufAllocator) {
                f.put(ALLOCATOR_DIRECT_IN_USE, ((PooledByteBufAllocator) allocator).pinnedDirectMemory());
            } else if (allocator instanceof UnpooledByteBufAllocator) {
                f.put(ALLOCATOR_DIRECT_IN_USE, metric.usedDirectMemory());
            }
            f.put(ALLOCATOR_HEAP_RESERVED, metric.usedHeapMemory());
        }
        long counted = PlatformDependent.usedDirectMemory();
        if (counted >= 0) {
            f.put(NETTY_DIRECT, counted);
        }
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                f.put(JDK_DIRECT, pool.getMemoryUsed());
            }
        }
        f.put(RSS, ProcStat.residentBytes(ProcessHandle.current().pid()));
        long heap = heapAfterLastGc();
        if (heap >= 0) {
            f.put(HEAP_AFTER_GC, heap);
        }
        return new MemoryReport(NettyLine.current().version(), allocator == null ? NO_ALLOCATOR : name, f);
    }

    /** The heap pools' occupancy after the most recent collection of any collector, or -1 before the first. */
    static long heapAfterLastGc() {
        Set<String> heapPools = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).map(MemoryPoolMXBean::getName).collect(Collectors.toSet());
        com.sun.management.GcInfo last = null;
        for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (gc instanceof com.sun.management.GarbageCollectorMXBean) {
                com.sun.management.GcInfo info = ((com.sun.management.GarbageCollectorMXBean) gc).getLastGcInfo();
                if (info != null && (last == null || info.getEndTime() > last.getEndTime())) {
                    last = info;
                }
            }
        }
        if (last == null) {
            return -1;
        }
        long used = 0;
        for (Map.Entry<String, MemoryUsage> e : last.getMemoryUsageAfterGc().entrySet()) {
            if (heapPools.contains(e.getKey())) {
                used += e.getValue().getUsed();
            }
        }
        return used;
    }

    /** The line a server prints: {@code memory netty=V allocator=A name=bytes...}. */
    public String line() {
        StringBuilder sb = new StringBuilder(PREFIX).append("netty=").append(netty).append(" allocator=")
                .append(allocator);
        figures.forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
        return sb.toString();
    }

    public static boolean isReport(String line) {
        return line.startsWith(PREFIX);
    }

    /** Parses a line of {@link #line()}; anything else is an {@link IllegalArgumentException} naming it. */
    public static MemoryReport parse(String line) {
        if (!isReport(line)) {
            throw new IllegalArgumentException("not a " + REQUEST + " line: " + line);
        }
        String netty = null;
        String allocator = null;
        Map<String, Long> figures = new LinkedHashMap<>();
        for (String field : line.substring(PREFIX.length()).trim().split("\\s+")) {
            int eq = field.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("bad field '" + field + "' in: " + line);
            }
            String key = field.substring(0, eq);
            String value = field.substring(eq + 1);
            switch (key) {
                case "netty" -> netty = value;
                case "allocator" -> allocator = value;
                default -> {
                    if (!FIGURES.contains(key)) {
                        throw new IllegalArgumentException("unknown figure '" + key + "' in: " + line + "; valid: "
                                + String.join(", ", FIGURES));
                    }
                    try {
                        figures.put(key, Long.parseLong(value));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("'" + field + "' is not a number of bytes in: " + line);
                    }
                }
            }
        }
        if (netty == null || allocator == null) {
            throw new IllegalArgumentException("a " + REQUEST + " line names netty= and allocator=: " + line);
        }
        return new MemoryReport(netty, allocator, figures);
    }
}
