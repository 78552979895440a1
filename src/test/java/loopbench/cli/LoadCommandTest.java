package loopbench.cli;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import loopbench.line.NettyLine;
import loopbench.testing.CliProcess;
import loopbench.testing.CountingHttpServer;
import loopbench.testing.RawHttp;
import loopbench.testing.TestBackend;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code load} command: usage errors (in process), and real runs in a child JVM (exit 0, 1; the JSON file). */
class LoadCommandTest {

    static Stream<Arguments> badUsage() {
        return Stream.of(
                Arguments.of(new String[] {"load", "ftp://127.0.0.1:80/"}, "valid schemes: http, tcp"),
                Arguments.of(new String[] {"load", "http://127.0.0.1/"}, "needs a host and a port"),
                Arguments.of(new String[] {"load", "not a url"}, "expected http://HOST:PORT/PATH"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--rate", "-5"}, "rate must be"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--rate", "0"}, "rate must be"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--duration", "10x"}, "ms, s, m or h"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--warmup", "-1s"}, "ms, s, m or h"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--method", "PUT"},
                        "valid methods: GET, POST"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--body-size", "10"}, "needs --method POST"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--connections", "0"}, "connections must be"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--pipeline", "0"}, "pipeline must be"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--connection-close", "--pipeline", "2"},
                        "one request per connection: pipeline must be 1, was 2"),
                Arguments.of(new String[] {"load", "tcp://127.0.0.1:1", "--message-size", "0"}, "message size must be"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--transport", "dpdk"},
                        "nio, epoll, io_uring"),
                Arguments.of(new String[] {"load", "http://127.0.0.1:1/", "--bogus"}, "Unknown option"),
                Arguments.of(new String[] {"load"}, "Missing required parameter"));
    }

    @ParameterizedTest
    @MethodSource("badUsage")
    void badUsageExits2NamingTheValidValues(String[] args, String expected) {
        CliArgumentsTest.Result r = CliArgumentsTest.run(args);
        assertEquals(2, r.exitCode(), r::toString);
        assertTrue(r.err().contains(expected), () -> "expected '" + expected + "' in\n" + r);
    }

    @Test
    void helpNamesEveryOption() {
        CliArgumentsTest.Result r = CliArgumentsTest.run("load", "--help");
        assertEquals(0, r.exitCode());
        for (String o : new String[] {"--connections", "--connection-close", "--pipeline", "--rate", "--duration",
                "--requests", "--warmup", "--method", "--body-size", "--message-size", "--timeout", "--transport",
                "--io-threads", "--json"}) {
            assertTrue(r.out().contains(o), () -> "--help lacks " + o + ":\n" + r.out());
        }
    }

    @Test
    void aRunPrintsItsSummaryWritesJsonAndExitsZero(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("result.json");
        try (CountingHttpServer server = CountingHttpServer.start(100);
             CliProcess cli = CliProcess.run("load", server.url(), "--connections", "4", "--requests", "300",
                     "--duration", "60s", "--io-threads", "1", "--json", json.toString())) {
            assertEquals(0, cli.exitCode(), cli::toString);
            String out = String.join("\n", cli.stdoutLines());
            assertTrue(out.contains("Requests/sec:"), out);
            assertTrue(out.contains("Errors:         none"), out);
            assertTrue(out.contains("p99.9"), out);
            JsonObject o = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
            assertEquals(300, o.get("requests").getAsLong());
            assertEquals(300, server.served());
            assertEquals("closed", o.get("mode").getAsString());
            assertEquals(NettyLine.current().version(), o.get("netty").getAsString(), "names the Netty it ran on");
            assertEquals("nio", o.get("transport").getAsString());
        }
    }

    @Test
    void aConnectionPerRequestRunOpensOneConnectionPerRequest(@TempDir Path dir) throws Exception {
        Path json = dir.resolve("result.json");
        try (TestBackend backend = TestBackend.start((s, i) -> {
            RawHttp.Request request = RawHttp.readRequest(s.getInputStream());
            if (!"close".equals(request.header("Connection"))) {
                throw new AssertionError("no Connection: close in " + request);
            }
            s.getOutputStream().write(RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
            s.getOutputStream().flush();
        });
             CliProcess cli = CliProcess.run("load", "http://127.0.0.1:" + backend.port() + "/", "--connection-close",
                     "--connections", "2", "--requests", "50", "--duration", "60s", "--json", json.toString())) {
            assertEquals(0, cli.exitCode(), cli::toString);
            String out = String.join("\n", cli.stdoutLines());
            assertTrue(out.contains("50 connections opened"), out);
            JsonObject o = JsonParser.parseString(Files.readString(json)).getAsJsonObject();
            assertTrue(o.get("connectionClose").getAsBoolean());
            assertEquals(50, o.get("requests").getAsLong());
            assertEquals(50, o.get("connectionsOpened").getAsLong());
            assertEquals(50, backend.accepted());
            backend.assertNoErrors();
        }
    }

    @Test
    void failedRequestsExit1AndSayWhy() throws Exception {
        try (TestBackend.RefusingPort refusing = TestBackend.refusingPort();
             CliProcess cli = CliProcess.run("load", "http://127.0.0.1:" + refusing.port() + "/", "--connections", "2",
                     "--duration", "3s")) { // long enough for a first connect attempt on a loaded machine
            assertEquals(1, cli.exitCode(), cli::toString);
            String out = String.join("\n", cli.stdoutLines());
            assertTrue(out.contains("connect (could not connect)"), out);
        }
    }
}
