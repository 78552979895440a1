package loopbench.claims;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import loopbench.knobs.Transport;
import loopbench.line.NettyLine;
import loopbench.report.JmhResult;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The machine behind a set of results, as the claims report opens with it. JMH's JSON records the JVM (path,
 * version, options); it does not record the CPU, the kernel, Netty's version or which transports could run. The
 * suite runner records those in {@value #FILE} next to its results; without that file the report reads them where
 * it runs, and says so.
 */
public final class Machine {
    /** Written by the suite runner next to results.json. */
    public static final String FILE = "machine.json";

    /** Facts about the machine a JVM runs on, read now. */
    public record Snapshot(String cpuModel, int cores, String kernel, String netty, String nettyLine,
                           Map<String, String> transports, String recorded) {

        public static Snapshot current() {
            Map<String, String> transports = new LinkedHashMap<>();
            for (Transport t : Transport.values()) {
                Throwable cause;
                try {
                    cause = t.unavailabilityCause();
                } catch (Throwable e) { // a native transport that cannot even load its classes
                    cause = e;
                }
                transports.put(t.cliName(), cause == null ? "available" : "unavailable: " + firstLine(cause));
            }
            NettyLine line = NettyLine.current();
            return new Snapshot(Machine.readCpuModel(), Runtime.getRuntime().availableProcessors(),
                    Machine.readKernel(),
                    line.version(), line.name() + " (io_uring: " + line.ioUringSource() + ")", transports,
                    Instant.now().toString());
        }

        public void write(Path file) throws IOException {
            Gson gson = new GsonBuilder().setPrettyPrinting().disableHtmlEscaping().create();
            Files.writeString(file, gson.toJson(this) + "\n", StandardCharsets.UTF_8);
        }

        /** The snapshot in {@code file}, or null if there is none or it cannot be read. */
        public static Snapshot read(Path file) {
            if (!Files.isReadable(file)) {
                return null;
            }
            try {
                JsonObject o = JsonParser.parseString(Files.readString(file, StandardCharsets.UTF_8)).getAsJsonObject();
                return new Gson().fromJson(o, Snapshot.class);
            } catch (IOException | RuntimeException e) {
                return null;
            }
        }
    }

    /** One line of the report's machine table. */
    public record Row(String what, String value, String source) {
    }

    private Machine() {
    }

    /**
     * The machine table for a set of results: from JMH's JSON what it records, from {@value #FILE} next to the
     * first input what the suite recorded at run time, and the rest from where the report is generated.
     */
    public static List<Row> describe(Measurements m) {
        List<Row> rows = new ArrayList<>();
        Snapshot recorded = null;
        Path recordedFile = null;
        for (Path dir : m.directories()) {
            recorded = Snapshot.read(dir.resolve(FILE));
            if (recorded != null) {
                recordedFile = dir.resolve(FILE);
                break;
            }
        }
        Snapshot here = recorded != null ? recorded : Snapshot.current();
        String source = recorded != null ? "recorded by the suite at run time (" + recordedFile.getFileName() + ", "
                + recorded.recorded() + ")" : "where this report was generated (not recorded with the results)";
        rows.add(new Row("CPU", here.cpuModel() + ", " + here.cores() + " cores available to the JVM", source));
        rows.add(new Row("Kernel", here.kernel(), source));
        rows.add(new Row("Netty", here.netty() + (here.nettyLine() == null ? "" : ", line " + here.nettyLine()),
                recorded != null ? source
                : "the Netty this report runs with (JMH's JSON does not record it)"));
        StringBuilder t = new StringBuilder();
        here.transports().forEach((k, v) -> t.append(t.length() == 0 ? "" : "; ").append(k).append(": ").append(v));
        rows.add(new Row("Transports", t.toString(), source));

        Set<String> jdks = new LinkedHashSet<>();
        Set<String> jvms = new LinkedHashSet<>();
        Set<String> jmh = new LinkedHashSet<>();
        Set<String> args = new LinkedHashSet<>();
        for (JmhResult r : m.results()) {
            JsonObject j = r.json();
            jdks.add(str(j, "vmName") + " " + str(j, "vmVersion") + " (JDK " + str(j, "jdkVersion") + ")");
            jvms.add(str(j, "jvm"));
            jmh.add(str(j, "jmhVersion"));
            args.addAll(r.jvmArgs());
        }
        String json = "the results' JSON (JMH)";
        if (!m.results().isEmpty()) {
            rows.add(new Row("JDK", String.join("; ", jdks), json));
            rows.add(new Row("JVM", String.join("; ", jvms), json));
            rows.add(new Row("Fork JVM options", "`" + String.join(" ", args) + "`", json));
            rows.add(new Row("Netty sun.misc.Unsafe", unsafe(args, jdks), json + ", from the fork options"));
            rows.add(new Row("JMH", String.join("; ", jmh), json));
        }
        return rows;
    }

    /** Whether Netty's Unsafe path was on in the forks, as far as their options tell. */
    static String unsafe(Set<String> jvmArgs, Set<String> jdks) {
        if (jvmArgs.contains("-Dloopbench.requireUnsafe=true")) {
            return "on (every fork checked it: -Dloopbench.requireUnsafe=true)";
        }
        boolean jdk23Plus = jdks.stream().anyMatch(j -> j.matches(".*\\(JDK (2[3-9]|[3-9]\\d).*"));
        if (jvmArgs.contains("-Dio.netty.noUnsafe=false")) {
            if (jdk23Plus && !jvmArgs.contains("--sun-misc-unsafe-memory-access=allow")) {
                return "requested (-Dio.netty.noUnsafe=false) but probably off: JDK 23+ without "
                        + "--sun-misc-unsafe-memory-access=allow";
            }
            return "requested (-Dio.netty.noUnsafe=false), not checked";
        }
        return "the JVM's default (on up to JDK 22, off on JDK 25), not checked";
    }

    private static String str(JsonObject o, String k) {
        return o.has(k) && !o.get(k).isJsonNull() ? o.get(k).getAsString() : "?";
    }

    private static String readCpuModel() {
        try {
            for (String l : Files.readAllLines(Paths.get("/proc/cpuinfo"))) {
                if (l.startsWith("model name")) {
                    return l.substring(l.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return System.getProperty("os.arch") + " (no /proc/cpuinfo)";
    }

    private static String readKernel() {
        try {
            return "Linux " + Files.readString(Paths.get("/proc/sys/kernel/osrelease")).trim();
        } catch (IOException e) {
            return System.getProperty("os.name") + " " + System.getProperty("os.version");
        }
    }

    private static String firstLine(Throwable t) {
        String s = String.valueOf(t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage());
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
