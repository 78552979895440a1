package loopbench.bench;

import com.google.gson.JsonObject;
import loopbench.process.ExternalProcess;
import loopbench.process.ServerProcess;
import loopbench.report.EndToEndMetrics;
import loopbench.testing.Rig;
import loopbench.topology.Placement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code layer=external}: a gateway from a command template, in the place of loopbench's proxy. */
class ExternalTargetEndToEndTest {
    @TempDir
    Path sideFiles;

    @BeforeEach
    void sideFilesHere() {
        System.setProperty(EndToEndMetrics.SIDE_FILE_PROPERTY, sideFiles.toString());
    }

    @AfterEach
    void clear() {
        System.clearProperty(EndToEndMetrics.SIDE_FILE_PROPERTY);
        System.clearProperty(ProxyEndToEndBenchmark.EXTERNAL_PROXY);
        assertEquals(List.of(), ServerProcess.live(), "every server process was stopped");
    }

    /** loopbench's own L7 proxy, started as a user's gateway is: a command template (the same CLI, another JVM). */
    static String proxyTemplate() {
        return "exec '" + Path.of(System.getProperty("java.home"), "bin", "java") + "' -Xmx128m"
                + " -XX:TieredStopAtLevel=1 -cp '" + System.getProperty("java.class.path") + "' loopbench.cli.Main"
                + " proxy --listen 127.0.0.1:{listenPort} --backend {backendHost}:{backendPort} --layer 7"
                + " --io-threads 1";
    }

    @Test
    void anExternalGatewayIsStartedMeasuredAndStoppedLikeTheProxy() throws Exception {
        System.setProperty(ProxyEndToEndBenchmark.EXTERNAL_PROXY, proxyTemplate());
        ProxyEndToEndBenchmark b = SmallBenchmarks.proxy("external", Placement.SHARED);
        Map<String, Double> m;
        ExternalProcess proxy;
        try {
            b.startTrial(EndToEndTrial.begin("loopbench.bench.ProxyEndToEndBenchmark.requests",
                    Map.of("layer", "external", "placement", "shared")));
            proxy = (ExternalProcess) b.trial.component(EndToEndMetrics.PROXY);
            assertNull(b.trial.server(EndToEndMetrics.PROXY), "not one of loopbench's own servers");
            assertTrue(proxy.isAlive());
            long before = proxy.io().bytesRead();
            m = SmallBenchmarks.oneIteration(b, b::requests);
            assertTrue(proxy.io().bytesRead() - before >= 200 * 100, "the load went through the external gateway");
        } finally {
            b.stopTrial();
        }
        assertEquals(0.0, m.get(EndToEndMetrics.ERRORS));
        assertTrue(m.get(EndToEndMetrics.cpu(EndToEndMetrics.PROXY)) > 0, "its CPU per request, from /proc: " + m);
        assertTrue(m.containsKey(EndToEndMetrics.contextSwitches(EndToEndMetrics.PROXY)), m::toString);
        assertTrue(m.get(EndToEndMetrics.BYTES_REQUEST_BACK) > m.get(EndToEndMetrics.BYTES_REQUEST_FRONT),
                "the requests went through an L7 proxy to the origin (X-Forwarded-For added): " + m);
        assertFalse(proxy.isAlive(), "stopped at the trial's end");
        Rig.assertPortFree(proxy.port());
        JsonObject side = SmallBenchmarks.onlySideFile(sideFiles);
        assertTrue(side.get("external.proxy").getAsString().contains("loopbench.cli.Main proxy --listen 127.0.0.1:"
                + proxy.port()), side::toString);
        assertEquals(proxyTemplate(), side.getAsJsonObject("stack").getAsJsonObject(EndToEndMetrics.PROXY)
                .get(EndToEndMetrics.EXTERNAL).getAsString(), "the template, which ties it to its JMH result");
    }

    @Test
    void externalWithoutATemplateIsAClearErrorBeforeAnythingStarts() {
        ProxyEndToEndBenchmark b = SmallBenchmarks.proxy("external", Placement.SHARED);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.startTrial(
                EndToEndTrial.begin("loopbench.bench.ProxyEndToEndBenchmark.requests", Map.of("layer", "external"))));
        assertTrue(e.getMessage().contains("-Dloopbench.external.proxy='COMMAND'")
                && e.getMessage().contains("{listenPort}"), e.getMessage());
        assertNull(b.trial.component(EndToEndMetrics.ORIGIN), "nothing was started");
    }

    @Test
    void anUnknownLayerIsRefusedNamingTheValidOnes() {
        ProxyEndToEndBenchmark b = SmallBenchmarks.proxy("l7", Placement.SHARED);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.startTrial(
                EndToEndTrial.begin("loopbench.bench.ProxyEndToEndBenchmark.requests", Map.of("layer", "l7"))));
        assertTrue(e.getMessage().contains("direct, 4, 7, external, was l7"), e.getMessage());
    }
}
