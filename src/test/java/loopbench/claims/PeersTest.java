package loopbench.claims;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import loopbench.report.EndToEndMetrics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Real gateways shown in the stand-in's place: matched by the check's load (not by the stand-in's own knobs), named
 * from their command template, divided by the direct reference measured with them, and deciding nothing.
 */
class PeersTest {
    @TempDir
    Path dir;

    /** The page load of C002-1/3 with a gateway's own settings (epoll, one I/O thread), at {@code layer}. */
    private static Selection page(String layer, String connection) {
        return Selection.of("page " + layer, ClaimCatalog.PROXY_E2E, ClaimCatalog.PAGE_DIRECT.group(), "layer", layer,
                "transport", "epoll", "ioThreads", "1", "connections", "200", "bodySize", "26650", "connection",
                connection, ClaimCatalog.TOPOLOGY, "local", ClaimCatalog.PLACEMENT, "pinned");
    }

    private Path file(String name, Selection s, String template, double... forks) throws IOException {
        Fixtures.Result r = new Fixtures().result(s, "thrpt", "ops/s").forks(forks);
        if (template != null) {
            r.jvmArg("-D" + EndToEndMetrics.EXTERNAL_PROXY_PROPERTY + "=" + template);
        }
        Path json = r.add().write(dir.resolve(name));
        Path named = json.resolveSibling(name + ".json");
        Files.move(json, named);
        return named;
    }

    private List<Path> inputs() throws IOException {
        return List.of(
                file("direct", page("direct", "close"), null, 1000, 1010, 990),
                file("nginx", page("external", "close"), "d=$(mktemp -d) && exec nginx -p $d", 500, 505, 495),
                file("zuul", page("external", "close"), "exec java -jar /x/peers/zuul.jar --listen x", 100, 101, 99),
                // Zuul under another load (keep-alive): not C002-1's, so never shown with it.
                file("zuul-keepalive", page("external", "keep-alive"), "exec java -jar /x/zuul.jar", 300, 300, 300));
    }

    @Test
    void eachGatewayUnderTheClaimsLoadIsDividedByItsDirectReferenceAndDecidesNothing() throws IOException {
        Peers peers = Peers.load(inputs());
        assertEquals(List.of("nginx", "Zuul 2", "Zuul 2"), peers.targets().stream().map(Peers.Target::name).toList());
        Claim c0021 = ClaimCatalog.byId().get("C002-1");
        Map<String, Peers.Row> rows = peers.rows(c0021).stream()
                .collect(Collectors.toMap(Peers.Row::gateway, r -> r));
        assertEquals(2, peers.rows(c0021).size(), "nginx and the Zuul of the same load; not the keep-alive one");
        assertEquals(0.5, rows.get("nginx").result().ratio(), 0.01);
        assertEquals(0.1, rows.get("Zuul 2").result().ratio(), 0.01);
        assertTrue(rows.get("Zuul 2").result().upper() < 0.11, "an interval from the forks");
        assertNull(rows.get("nginx").result().status(), "a gateway measured apart decides nothing");
        assertEquals(Check.Basis.Method.WELCH, rows.get("nginx").result().basis().method());
        // A claim that names no peers shows none, even where a gateway matches its benchmark.
        assertTrue(peers.rows(ClaimCatalog.byId().get("C000-1")).isEmpty());
        // C002-3's spread needs p99/p50, which these results lack: no row rather than an empty one.
        assertTrue(peers.rows(ClaimCatalog.byId().get("C002-3")).isEmpty());
    }

    @Test
    void theReportShowsThemBesideTheVerdictAndNamesItsPeerInputsRelativeToItself() throws IOException {
        List<Path> in = inputs();
        Path results = new Fixtures().thrpt(ClaimCatalog.PAGE_DIRECT, 10).write(dir.resolve("run"));
        Path out = dir.resolve("run/claims");
        ClaimsReport.Written w = ClaimsReport.write(List.of(results), out, List.of(ClaimCatalog.byId().get("C002-1")),
                Peers.load(in));
        String md = Files.readString(w.markdown());
        assertTrue(md.contains("The real gateways in the stand-in's place (decide nothing)"), md);
        assertTrue(md.contains("| Zuul 2 |"), md);
        JsonObject json = JsonParser.parseString(Files.readString(w.json())).getAsJsonObject();
        JsonArray inputs = json.getAsJsonArray("peerInputs");
        assertEquals(4, inputs.size());
        assertEquals(in.get(1), out.resolve(inputs.get(1).getAsString()).normalize());
        JsonArray p = json.getAsJsonArray("claims").get(0).getAsJsonObject().getAsJsonArray("peers");
        assertEquals(2, p.size());
        assertEquals("nginx", p.get(0).getAsJsonObject().get("gateway").getAsString());
        assertEquals("MISSING", json.getAsJsonArray("claims").get(0).getAsJsonObject().get("verdict").getAsString(),
                "the claim's own verdict still rests on the claims run alone (here: no L7 arm)");
    }

    @Test
    void aFileWithoutResultsIsRefused() throws IOException {
        Path empty = Files.writeString(dir.resolve("empty.json"), "[]");
        IOException e = assertThrows(IOException.class, () -> Peers.load(List.of(empty)));
        assertTrue(e.getMessage().contains("empty.json holds no JMH result"), e.getMessage());
    }
}
