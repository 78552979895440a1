package loopbench.topology;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import loopbench.cli.Main;
import loopbench.process.ServerProcess;
import loopbench.testing.TestSshd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code load --hosts}: generators on this machine and on "another" (a test sshd) share the load. */
class LoadFleetTest {
    @RegisterExtension
    static final TestSshd sshd = new TestSshd();

    @TempDir
    Path dir;

    @Test
    void twoGeneratorsShareTheLoadAndTheirHistogramsAreMerged() throws Exception {
        Properties p = sshd.hosts();
        p.setProperty("client", "local, " + sshd.uri());
        Path hosts = dir.resolve("hosts.properties");
        try (Writer w = Files.newBufferedWriter(hosts)) {
            p.store(w, null);
        }
        Path json = dir.resolve("merged.json");
        long answered;
        JsonObject m;
        try (ServerProcess origin = ServerProcess.start("origin", List.of("--io-threads", "1"),
                List.of("-Xmx128m", "-XX:TieredStopAtLevel=1"))) {
            // Bounded by a count, not only a time: on a busy machine a cold generator may get no CPU for seconds.
            int code = Main.run("load", "http://" + origin.hostPort() + "/", "--connections", "2", "--requests",
                    "300", "--duration", "60s", "--io-threads", "1", "--hosts", hosts.toString(), "--json",
                    json.toString());
            assertEquals(0, code);
            m = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
            origin.stop();
            Matcher a = Pattern.compile("origin answered (\\d+) requests").matcher(origin.stderr());
            assertTrue(a.find(), origin::stderr);
            answered = Long.parseLong(a.group(1));
        }
        assertEquals(2, m.get("generators").getAsInt());
        long sum = 0;
        for (var g : m.getAsJsonArray("perGenerator")) {
            long n = g.getAsJsonObject().get("requests").getAsLong();
            assertTrue(n >= 300, "each generator loaded the origin: " + g);
            sum += n;
        }
        assertEquals(sum, m.get("requests").getAsLong());
        assertTrue(answered >= sum, "the origin answered " + answered + ", the generators counted " + sum);
        assertEquals(0, m.getAsJsonObject("errors").get("total").getAsLong());
        assertTrue(m.getAsJsonObject("latencyMicros").getAsJsonObject("corrected").get("p99").getAsLong() > 0);
        assertEquals("local", m.getAsJsonArray("perGenerator").get(0).getAsJsonObject().get("on").getAsString());
        assertEquals(sshd.uri(), m.getAsJsonArray("perGenerator").get(1).getAsJsonObject().get("on").getAsString());
    }
}
