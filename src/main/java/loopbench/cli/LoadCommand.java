package loopbench.cli;

import loopbench.load.ConsoleProgress;
import loopbench.load.Durations;
import loopbench.load.LoadExitCode;
import loopbench.load.LoadGenerator;
import loopbench.load.LoadResult;
import loopbench.load.LoadSpec;
import loopbench.load.Target;
import loopbench.report.AtomicFile;
import com.google.gson.JsonObject;
import loopbench.load.LoadMerge;
import loopbench.topology.HostsFile;
import loopbench.topology.LoadFleet;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import sun.misc.Signal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Load generator: loads an HTTP/1.1 server (http://HOST:PORT/PATH, keep-alive GET or POST) or a "
                + "TCP echo server (tcp://HOST:PORT: sends --message-size bytes, awaits them back, compares), in a "
                + "closed loop (--connections x --pipeline requests in flight) or an open loop at --rate requests/s "
                + "(latency corrected for coordinated omission, as wrk2 does). Prints a summary with req/s, "
                + "latency percentiles (corrected and uncorrected, µs), errors by kind and the generator's own CPU "
                + "per request, and says when the generator itself was saturated.",
                LoadExitCode.DESCRIPTION})
final class LoadCommand implements Callable<Integer> {

    @Parameters(paramLabel = "TARGET", description = "http://HOST:PORT/PATH or tcp://HOST:PORT")
    String target;

    @Option(names = "--connections", paramLabel = "C", defaultValue = "" + LoadSpec.DEFAULT_CONNECTIONS,
            description = "Connections, kept open. Default: ${DEFAULT-VALUE}.")
    int connections;

    @Option(names = "--pipeline", paramLabel = "D", defaultValue = "1",
            description = "Requests in flight per connection at most. Default: ${DEFAULT-VALUE}.")
    int pipeline;

    @Option(names = "--connection-close",
            description = "A new connection per request, as ab without -k: connect, send the request with "
                    + "Connection: close (tcp://: the message), read the whole response, close. The connect counts "
                    + "in the request's latency; --connections is then the number of concurrent clients. Needs "
                    + "--pipeline 1. Default: keep-alive.")
    boolean connectionClose;

    @Option(names = "--rate", paramLabel = "R",
            description = "Open loop: requests per second in total, paced per connection, latency measured from each "
                    + "request's intended start. Default: none (closed loop).")
    Double rate;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "10s",
            description = "How long to measure (after the warm-up): e.g. 500ms, 10s, 2m. Default: ${DEFAULT-VALUE}.")
    String duration;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "0",
            description = "Also stop after N measured requests (whichever bound comes first). Default: no limit.")
    long requests;

    @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "0s",
            description = "Send requests for this long first without recording them. Default: ${DEFAULT-VALUE}.")
    String warmup;

    @Option(names = "--method", paramLabel = "M", defaultValue = "GET",
            description = "HTTP method: GET, POST. Default: ${DEFAULT-VALUE}.")
    String method;

    @Option(names = "--body-size", paramLabel = "BYTES", defaultValue = "0",
            description = "POST body bytes. Default: ${DEFAULT-VALUE}.")
    int bodySize;

    @Option(names = "--message-size", paramLabel = "BYTES", defaultValue = "" + LoadSpec.DEFAULT_MESSAGE_SIZE,
            description = "tcp:// targets: bytes per echo message. Default: ${DEFAULT-VALUE}.")
    int messageSize;

    @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "10s",
            description = "A request with no complete response after this long fails (timeout). "
                    + "Default: ${DEFAULT-VALUE}.")
    String timeout;

    @Mixin
    EventLoopOptions loops;

    @Mixin
    CpusOption cpus;

    @Option(names = "--json", paramLabel = "FILE",
            description = "Also write the result as JSON to FILE; '-': to stdout (the summary then goes to stderr).")
    Path json;

    @Option(names = "--hosts", paramLabel = "FILE",
            description = "Run this load on every client= machine of the hosts FILE at once (this one: local; others: "
                    + "ssh://...), each with these options, and merge their results (latency histograms added, "
                    + "requests/s summed). Default: this machine only.")
    Path hosts;

    @Option(names = "--exit-with-parent",
            description = "End the run (and report) when stdin reaches end-of-file: the parent that started it is "
                    + "gone.")
    boolean exitWithParent;

    @Spec
    CommandSpec commandSpec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if (hosts != null) {
            return onHosts();
        }
        cpus.pinThisProcess();
        LoadSpec spec = Cli.validated(() -> new LoadSpec(Target.parse(target), connections, pipeline, rate,
                Durations.parse(duration), requests, Durations.parse(warmup), method,
                bodySize, messageSize, loops.transport, loops.allocator, loops.buffers, loops.ioThreads(),
                Durations.parse(timeout), connectionClose));
        LeakDetection.apply(null, null); // a load generator measures others: off unless the system property asks
        PrintStream err = System.err;
        err.printf("loopbench load: %s, %d %s, %s for %s%s%n", spec.target(), spec.connections(),
                spec.connectionClose() ? "clients (a connection per request)" : "connections",
                spec.openLoop() ? String.format("open loop at %.0f req/s", spec.rate()) : "closed loop",
                Durations.format(spec.duration()),
                spec.warmup().isZero() ? "" : " after a " + Durations.format(spec.warmup()) + " warm-up");
        LoadGenerator generator = LoadGenerator.start(spec, new ConsoleProgress(err));
        // Ctrl-C or SIGTERM ends the run early and still reports (and writes) what was measured.
        Signal.handle(new Signal("INT"), s -> generator.endNow());
        Signal.handle(new Signal("TERM"), s -> generator.endNow());
        if (exitWithParent) {
            Thread watch = new Thread(() -> {
                try {
                    System.in.transferTo(OutputStream.nullOutputStream());
                } catch (IOException e) {
                    // a broken pipe is an end too
                }
                generator.endNow();
            }, "loopbench-parent-watch");
            watch.setDaemon(true);
            watch.start();
        }
        LoadResult result = generator.awaitResult();
        if (generator.wasInterrupted()) {
            err.println("loopbench load: interrupted; the result covers the time until then");
        }
        boolean jsonOnStdout = json != null && "-".equals(json.toString());
        (jsonOnStdout ? System.err : System.out).print(result.summary());
        if (jsonOnStdout) {
            System.out.print(result.toJsonString());
            System.out.flush();
        } else if (json != null) {
            AtomicFile.write(json, result.toJsonString());
        }
        return result.exitCode();
    }

    /** --hosts: the same options on every client machine at once, the results merged. */
    private int onHosts() throws IOException {
        LoadSpec spec = Cli.validated(() -> new LoadSpec(Target.parse(target), connections, pipeline, rate,
                Durations.parse(duration), requests, Durations.parse(warmup), method,
                bodySize, messageSize, loops.transport, loops.allocator, loops.buffers, loops.ioThreads(),
                Durations.parse(timeout), connectionClose)); // bad options fail here, not on every machine
        HostsFile file = Cli.validated(() -> HostsFile.load(hosts));
        List<String> args = new ArrayList<>();
        ParseResult parsed = commandSpec.commandLine().getParseResult();
        for (OptionSpec o : parsed.matchedOptions()) {
            if (!List.of("--hosts", "--json", "--exit-with-parent").contains(o.longestName())) {
                args.add(o.longestName());
                args.addAll(o.arity().max > 0 ? o.originalStringValues() : List.of());
            }
        }
        args.add(target);
        Duration bound = spec.duration().plus(spec.warmup()).plus(spec.timeout()).plusSeconds(120);
        JsonObject merged = LoadFleet.run(file, args, bound);
        System.out.print(LoadMerge.summary(merged));
        if (json != null && "-".equals(json.toString())) {
            System.out.print(LoadMerge.json(merged));
        } else if (json != null) {
            AtomicFile.write(json, LoadMerge.json(merged));
        }
        return merged.getAsJsonObject("errors").get("total").getAsLong() > 0 ? 1 : 0;
    }
}
