package loopbench.claims;

import loopbench.report.EndToEndMetrics;
import loopbench.report.JmhResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The claims loopbench tests, with the checks that decide them (CLAIMS.md explains each in prose; this is the
 * same content as code). Every selection names the line of {@code profiles/claims.jmh} that measures it; a test
 * checks that each of these lines is in that file verbatim and pins every parameter a selection pins.
 */
public final class ClaimCatalog {
    private ClaimCatalog() {
    }

    // ---- The lines of profiles/claims.jmh ----------------------------------------------------------------------
    static final String LINE_PIPELINE = "PipelineCostBenchmark -p layer=direct,4,7 -p method=GET -p bodySize=1024 -f 3 -wi 10 -w 1 -i 5 -r 1 -prof gc";
    static final String LINE_ALLOCATOR = "AllocatorBenchmark.eventLoopThread$ -p allocator=pooled,unpooled,adaptive -p buffers=direct -p size=1024 -f 3 -wi 3 -w 1 -i 5 -r 1 -prof gc";
    static final String LINE_AGGREGATOR = "AggregatorBenchmark -p maxContentLength=2000,100000000 -p encoding=fixed -p bodySize=1500 -f 5 -wi 3 -w 1 -i 5 -r 1";
    static final String LINE_RECV = "RecvBufferPredictionBenchmark -p predictor=adaptive,fixed:2048,halving -p messageSize=5120 -p arrival=mss1448 -f 3 -wi 1 -w 1 -i 3 -r 1";
    static final String LINE_OFFLOAD = "OffloadBenchmark -p strategy=none,pipeline-executor -p connections=4 -p bodySize=1024 -p executorThreads=4 -f 3 -wi 10 -w 1 -i 5 -r 1 -prof loopbench.bench.ProcCpuProfiler";
    static final String LINE_DIRECT = "ProxyEndToEndBenchmark.requests -p layer=direct -p threadModel=reuse-server-thread -p transport=nio -p allocator=adaptive -p connections=64 -p bodySize=1024 -p maxContentLength=2000 -f 3 -wi 5 -w 2 -i 3 -r 2 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_THREADS = "ProxyEndToEndBenchmark.requests -p layer=4,7 -p threadModel=individual-group,reuse-server-group,reuse-server-thread -p transport=nio -p allocator=adaptive -p connections=64 -p bodySize=1024 -p maxContentLength=2000 -f 3 -wi 5 -w 2 -i 3 -r 2 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_ALLOCATORS = "ProxyEndToEndBenchmark.requests -p layer=7 -p threadModel=reuse-server-thread -p transport=nio -p allocator=pooled,unpooled -p connections=64 -p bodySize=1024 -p maxContentLength=2000 -f 3 -wi 5 -w 2 -i 3 -r 2 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_TRANSPORTS = "ProxyEndToEndBenchmark.requests -p layer=4 -p threadModel=reuse-server-thread -p transport=epoll,io_uring -p allocator=adaptive -p connections=64 -p bodySize=1024 -p maxContentLength=2000 -f 3 -wi 5 -w 2 -i 3 -r 2 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_PAGE = "ProxyEndToEndBenchmark.requests -p layer=direct,7 -p threadModel=reuse-server-thread -p transport=nio -p allocator=adaptive -p connections=200 -p bodySize=26650 -p maxContentLength=65536 -f 3 -wi 5 -w 2 -i 3 -r 2 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_WARMUP = "ProxyWarmupBenchmark.coldProxy -p layer=4,7 -f 3 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_HELLO = "BlockingWorkEndToEndBenchmark.requests -p workMs=0 -p strategy=block-event-loop -p connections=1000 -f 3 -wi 2 -w 2 -i 3 -r 2 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_BLOCKING = "BlockingWorkEndToEndBenchmark.requests -p workMs=10 -p strategy=block-event-loop,pipeline-executor,offload-executor,timer -p connections=1000 -f 3 -wi 1 -w 5 -i 3 -r 5 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_VIRTUAL = "[jdk>=21] BlockingWorkEndToEndBenchmark.requests -p workMs=10 -p strategy=virtual-thread -p connections=1000 -f 3 -wi 1 -w 5 -i 3 -r 5 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_ECHO = "EchoEndToEndBenchmark.messages -p server=netty -p messageSize=1024,5120,10240,51200,102400 -p recvAllocator=adaptive -p executor=none -p connections=64 -f 3 -wi 3 -w 2 -i 3 -r 2 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_ECHO_MINA = "EchoEndToEndBenchmark.messages -p server=mina -p messageSize=1024,5120,10240,51200,102400 -p recvAllocator=halving -p executor=none -p connections=64 -f 3 -wi 3 -w 2 -i 3 -r 2 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_ECHO_RECV = "EchoEndToEndBenchmark.messages -p server=netty -p messageSize=5120 -p recvAllocator=fixed:2048,halving -p executor=none -p connections=64 -f 3 -wi 3 -w 2 -i 3 -r 2 -prof loopbench.bench.EndToEndProfiler";
    static final String LINE_ECHO_EXECUTOR = "EchoEndToEndBenchmark.messages -p server=netty -p messageSize=1024 -p recvAllocator=adaptive -p executor=group -p connections=64 -f 3 -wi 3 -w 2 -i 3 -r 2 -prof loopbench.bench.EndToEndProfiler";

    // ---- The articles ----------------------------------------------------------------------------------------
    static final Article PROXY_ARTICLE = new Article("基于Netty的四层和七层代理性能方面的一些压力测试",
            "Stress-testing layer-4 and layer-7 proxies built on Netty",
            "author not named in the text (its test code: JosephZhu1983/proxytest on GitHub)", "undated (Netty 4.1)",
            "three Alibaba Cloud ECS hosts: wrk, the Netty proxy, nginx serving its default page");
    static final Article SLEEP_ARTICLE = new Article("为什么sleep会让Netty的性能大降",
            "Why a sleep makes Netty's performance collapse", "author not named in the text", "2021-03-17",
            "ab -k -c 1000 -n 1000000 against Netty's HTTP hello-world example in a Docker container with 2 CPUs and "
                    + "1 GB, figures quoted from an earlier Zhihu article");
    static final Article ZUUL_ARTICLE = new Article("Netflix Zuul与Nginx的性能对比", "Netflix Zuul vs Nginx performance",
            "Stanislav Miklik, translated by 翟永超 (Zhai Yongchao)", "2015, translation 2017-04-03",
            "ab -c 200 fetching a 26,650-byte page; client, proxy and target on three EC2 instances in different zones");
    static final Article ECHO_ARTICLE = new Article("netty与mina性能对比测评分析", "Netty vs Mina: a performance comparison",
            "mindwind", "2013-02-28",
            "echo servers, Netty 3.6.2 vs Mina 2.0.7 on JDK 1.6, Intel i5-2320 (4 cores), 1 Gb/s network, JMeter");
    static final Article EPOLL_ARTICLE = new Article("反向代理服务器测试说明", "Reverse-proxy server test notes (Alizarin)",
            "author not named in the text", "undated (Ubuntu 20.04)",
            "a C++ epoll reverse proxy answering without forwarding (-t 1), webbench -c 500 -t 5, 2-core 4 GB VM");

    // ---- Statistics ------------------------------------------------------------------------------------------
    static final Statistic THROUGHPUT = Statistic.primary("throughput");
    static final Statistic TIME_PER_OP = Statistic.primary("time per operation");
    static final Statistic PROXY_CPU = Statistic.metric(EndToEndMetrics.cpu(EndToEndMetrics.PROXY),
            "proxy CPU per request", "µs/request");
    static final Statistic PROXY_SWITCHES = Statistic.metric(EndToEndMetrics.contextSwitches(EndToEndMetrics.PROXY),
            "proxy context switches per request", "switches/request");
    static final Statistic ECHO_CPU = Statistic.metric(EndToEndMetrics.cpu(EndToEndMetrics.ECHO),
            "echo server CPU per message", "µs/message");
    static final Statistic ECHO_MIB = Statistic.metric(EndToEndMetrics.ECHO_MIB_PER_SECOND, "echoed payload", "MiB/s");
    static final Statistic CPU_PER_OP = Statistic.metric("cpu.ns/op", "CPU per message (whole JVM)", "ns/message");
    static final Statistic BYTES_OUT_OVER_IN = Statistic.iterationRatio("proxy bytes out / bytes in", "",
            List.of("backendBytesOut", "clientBytesOut"), List.of("clientBytesIn", "backendBytesIn"));
    static final Statistic GUESS_CHANGES = Statistic.perUnit("receive-buffer guess changes per message",
            "changes/message", "guessChanges", "messages");
    static final Statistic OVER_BOUND = Statistic.iterationRatio("measured / predicted bound", "",
            List.of(JmhResult.PRIMARY), List.of(EndToEndMetrics.PREDICTED_BOUND));
    static final Statistic SPREAD = Statistic.iterationRatio("latency spread p99 / p50", "",
            List.of(EndToEndMetrics.LATENCY_P99), List.of(EndToEndMetrics.LATENCY_P50));
    static final Statistic P99 = Statistic.metric(EndToEndMetrics.LATENCY_P99, "p99 latency", "µs");
    static final Statistic WARMUP_ERRORS = Statistic.metric(EndToEndMetrics.WARMUP_ERRORS, "failed requests while cold", "requests");
    static final Statistic WARMUP_FIRST = Statistic.metric(EndToEndMetrics.WARMUP_FIRST_SECOND, "requests in the first second", "req/s");
    static final Statistic WARMUP_TO_90 = Statistic.metric(EndToEndMetrics.WARMUP_SECONDS_TO_90, "seconds to 90% of the final rate", "s");
    /** Seconds at the end of a cold-start run that stand for its warm rate. */
    static final int WARM_SECONDS = 5;
    static final Statistic COLD_SHARE = Statistic.fromSideFiles("first second / mean of the last " + WARM_SECONDS + " seconds",
            "", "a per-second series", ClaimCatalog::coldShare);

    static Statistic perRequest(String counter, String name) {
        return Statistic.perUnit(name, "B/request", counter, "requests");
    }

    /** The first second's requests over the mean of the last {@link #WARM_SECONDS} seconds; NaN without a series. */
    static double coldShare(SideFile f) {
        List<SideFile.Second> s = f.perSecond();
        if (s.size() < WARM_SECONDS + 1) {
            return Double.NaN;
        }
        double warm = s.subList(s.size() - WARM_SECONDS, s.size()).stream().mapToLong(SideFile.Second::requests).average().orElse(0);
        return warm > 0 ? s.get(0).requests() / warm : Double.NaN;
    }

    // ---- Configurations ----------------------------------------------------------------------------------------
    static final String PROXY_E2E = "ProxyEndToEndBenchmark.requests";
    static final String BLOCKING_E2E = "BlockingWorkEndToEndBenchmark.requests";
    static final String ECHO_E2E = "EchoEndToEndBenchmark.messages";
    static final String WARMUP_E2E = "ProxyWarmupBenchmark.coldProxy";

    static Selection proxy(String label, String line, String layer, String threadModel, String transport,
                           String allocator, int connections, int bodySize, int maxContentLength) {
        return Selection.of(label, PROXY_E2E, line, "layer", layer, "threadModel", threadModel, "transport", transport,
                "allocator", allocator, "connections", Integer.toString(connections), "bodySize",
                Integer.toString(bodySize), "maxContentLength", Integer.toString(maxContentLength));
    }

    static Selection base(String label, String line, String layer, String threadModel) {
        return proxy(label, line, layer, threadModel, "nio", "adaptive", 64, 1024, 2000);
    }

    static final String RST = "reuse-server-thread";
    static final String RSG = "reuse-server-group";
    static final String IG = "individual-group";
    static final Selection DIRECT = base("direct", LINE_DIRECT, "direct", RST);
    static final Selection L4_RST = base("L4 reuse-server-thread", LINE_THREADS, "4", RST);
    static final Selection L4_RSG = base("L4 reuse-server-group", LINE_THREADS, "4", RSG);
    static final Selection L4_IG = base("L4 individual-group", LINE_THREADS, "4", IG);
    static final Selection L7_RST = base("L7 reuse-server-thread", LINE_THREADS, "7", RST);
    static final Selection L7_RSG = base("L7 reuse-server-group", LINE_THREADS, "7", RSG);
    static final Selection L7_IG = base("L7 individual-group", LINE_THREADS, "7", IG);
    static final Selection L7_POOLED = L7_RST.with("L7 pooled", "allocator", "pooled").on(LINE_ALLOCATORS);
    static final Selection L7_UNPOOLED = L7_RST.with("L7 unpooled", "allocator", "unpooled").on(LINE_ALLOCATORS);
    static final Selection L4_EPOLL = L4_RST.with("L4 epoll", "transport", "epoll").on(LINE_TRANSPORTS);
    static final Selection L4_IO_URING = L4_RST.with("L4 io_uring", "transport", "io_uring").on(LINE_TRANSPORTS);
    static final Selection PAGE_DIRECT = proxy("direct, 26,650 B", LINE_PAGE, "direct", RST, "nio", "adaptive", 200, 26650, 65536);
    static final Selection PAGE_L7 = proxy("L7 proxy, 26,650 B", LINE_PAGE, "7", RST, "nio", "adaptive", 200, 26650, 65536);
    static final Selection COLD_L4 = Selection.of("cold L4 proxy", WARMUP_E2E, LINE_WARMUP, "layer", "4");
    static final Selection COLD_L7 = Selection.of("cold L7 proxy", WARMUP_E2E, LINE_WARMUP, "layer", "7");

    static Selection blocking(String strategy, int workMs, String line) {
        return Selection.of(strategy + " " + workMs + " ms", BLOCKING_E2E, line, "workMs", Integer.toString(workMs),
                "strategy", strategy, "connections", "1000");
    }

    static final Selection HELLO = blocking("block-event-loop", 0, LINE_HELLO);
    static final Selection BLOCK_10 = blocking("block-event-loop", 10, LINE_BLOCKING);
    static final Selection PIPELINE_10 = blocking("pipeline-executor", 10, LINE_BLOCKING);
    static final Selection OFFLOAD_10 = blocking("offload-executor", 10, LINE_BLOCKING);
    static final Selection TIMER_10 = blocking("timer", 10, LINE_BLOCKING);
    static final Selection VIRTUAL_10 = blocking("virtual-thread", 10, LINE_VIRTUAL);

    static Selection echo(String label, String line, String server, int messageSize, String recvAllocator, String executor) {
        return Selection.of(label, ECHO_E2E, line, "server", server, "messageSize", Integer.toString(messageSize),
                "recvAllocator", recvAllocator, "executor", executor, "connections", "64");
    }

    static final List<Integer> ECHO_SIZES = List.of(1024, 5120, 10240, 51200, 102400);
    static final Selection NETTY_ECHO = echo("Netty", LINE_ECHO, "netty", 1024, "adaptive", "none");
    static final Selection MINA_ECHO = echo("Mina", LINE_ECHO_MINA, "mina", 1024, "halving", "none");
    static final Selection NETTY_1K = NETTY_ECHO;
    static final Selection NETTY_10K = NETTY_ECHO.with("Netty 10 KiB", "messageSize", "10240");
    static final Selection NETTY_100K = NETTY_ECHO.with("Netty 100 KiB", "messageSize", "102400");
    static final Selection NETTY_5K = NETTY_ECHO.with("Netty adaptive", "messageSize", "5120");
    static final Selection MINA_5K = MINA_ECHO.with("Mina", "messageSize", "5120");
    static final Selection NETTY_5K_FIXED = NETTY_5K.with("Netty fixed:2048", "recvAllocator", "fixed:2048").on(LINE_ECHO_RECV);
    static final Selection NETTY_5K_HALVING = NETTY_5K.with("Netty halving", "recvAllocator", "halving").on(LINE_ECHO_RECV);
    static final Selection NETTY_1K_GROUP = echo("Netty, executor group", LINE_ECHO_EXECUTOR, "netty", 1024, "adaptive", "group");

    static Selection pipeline(String layer) {
        return Selection.of(layer.equals("direct") ? "direct" : "L" + layer, "PipelineCostBenchmark.exchange",
                LINE_PIPELINE, "layer", layer, "method", "GET", "bodySize", "1024");
    }

    static final Selection PC_DIRECT = pipeline("direct");
    static final Selection PC_L4 = pipeline("4");
    static final Selection PC_L7 = pipeline("7");

    static Selection allocator(String allocator) {
        return Selection.of(allocator, "AllocatorBenchmark.eventLoopThread", LINE_ALLOCATOR, "allocator", allocator,
                "buffers", "direct", "size", "1024");
    }

    static Selection aggregator(int limit) {
        return Selection.of("limit " + String.format(java.util.Locale.ROOT, "%,d", limit), "AggregatorBenchmark.aggregate",
                LINE_AGGREGATOR, "maxContentLength", Integer.toString(limit), "encoding", "fixed", "bodySize", "1500");
    }

    static Selection predictor(String predictor) {
        return Selection.of(predictor, "RecvBufferPredictionBenchmark.readMessage", LINE_RECV, "predictor", predictor,
                "messageSize", "5120", "arrival", "mss1448");
    }

    static Selection offload(String strategy) {
        return Selection.of(strategy, "OffloadBenchmark.requests", LINE_OFFLOAD, "strategy", strategy,
                "connections", "4", "bodySize", "1024", "executorThreads", "4");
    }

    // ---- Charts shared by several claims -----------------------------------------------------------------------
    static final ChartSpec LAYERS = new ChartSpec.Bars("layers-throughput",
            "Requests/s with no proxy, through L4 and through L7 (64 connections, GET 1 KiB)", THROUGHPUT,
            List.of(new ChartSpec.Bar("direct", "requests/s", DIRECT), new ChartSpec.Bar("L4", "requests/s", L4_RST),
                    new ChartSpec.Bar("L7", "requests/s", L7_RST)));
    static final ChartSpec LAYERS_IN_PROCESS = new ChartSpec.Bars("layers-in-process",
            "In-process: time per exchange (no sockets)", TIME_PER_OP,
            List.of(new ChartSpec.Bar("direct", "time per exchange", PC_DIRECT), new ChartSpec.Bar("L4", "time per exchange", PC_L4),
                    new ChartSpec.Bar("L7", "time per exchange", PC_L7)));

    static ChartSpec threadModels(String id, String title, Statistic statistic) {
        List<ChartSpec.Bar> bars = new ArrayList<>();
        for (Selection s : List.of(L4_IG, L4_RSG, L4_RST, L7_IG, L7_RSG, L7_RST)) {
            bars.add(new ChartSpec.Bar(s.params().get("layer").equals("4") ? "L4" : "L7", s.params().get("threadModel"), s));
        }
        return new ChartSpec.Bars(id, title, statistic, bars);
    }

    static final ChartSpec STRATEGIES = new ChartSpec.BoundBars("blocking-strategies",
            "10 ms of work per request, 1000 connections: measured vs predicted bound",
            List.of(new ChartSpec.Bar("block-event-loop", "", BLOCK_10), new ChartSpec.Bar("pipeline-executor", "", PIPELINE_10),
                    new ChartSpec.Bar("offload-executor", "", OFFLOAD_10), new ChartSpec.Bar("virtual-thread", "", VIRTUAL_10),
                    new ChartSpec.Bar("timer", "", TIMER_10)));

    static final List<ChartSpec.Line> ECHO_LINES = List.of(new ChartSpec.Line("Netty", NETTY_ECHO), new ChartSpec.Line("Mina", MINA_ECHO));
    static final ChartSpec ECHO_RATE = new ChartSpec.BySize("echo-messages", "Echo: messages/s by message size (64 connections)",
            THROUGHPUT, "messageSize", ECHO_SIZES, ECHO_LINES);
    static final ChartSpec ECHO_BYTES = new ChartSpec.BySize("echo-mib", "Echo: MiB/s by message size (64 connections)",
            ECHO_MIB, "messageSize", ECHO_SIZES, ECHO_LINES);

    // ---- The claims --------------------------------------------------------------------------------------------
    private static final List<Claim> CLAIMS = build();

    /** Every claim, in ID order. */
    public static List<Claim> all() {
        return CLAIMS;
    }

    /** The claims by ID. */
    public static Map<String, Claim> byId() {
        return CLAIMS.stream().collect(Collectors.toMap(Claim::id, Function.identity(), (a, b) -> a, java.util.LinkedHashMap::new));
    }

    private static List<Claim> build() {
        List<Claim> c = new ArrayList<>();
        c.add(new Claim("C000-1", "An L4 proxy costs only ~3% of throughput",
                "A proxy that forwards plain bytes (L4) serves almost as many requests per second as the backend "
                        + "does when hit directly: about 3% fewer.",
                PROXY_ARTICLE, "nginx hit directly: 266k QPS; through the Netty L4 proxy about 3% less (\"only 3% QPS lost\")",
                "ProxyEndToEndBenchmark: layer=4 vs layer=direct (reuse-server-thread, nio, adaptive allocator, 64 "
                        + "connections, GET of 1 KiB). In-process PipelineCostBenchmark shows the proxy path's own cost.",
                "Throughput ratio L4 / direct. CONFIRMED if its 95% interval lies above 0.90 (at most 10% lost: the "
                        + "article's 3% with room for another machine), REFUTED if it lies below 0.90.",
                List.of(Check.ratio("requests/s, L4 / direct", THROUGHPUT, L4_RST, DIRECT, Region.above(0.90), "0.97")),
                List.of(Check.ratio("in-process, time per exchange direct / L4 (= exchanges/s L4 / direct)", TIME_PER_OP,
                        PC_DIRECT, PC_L4, null, null)),
                List.of(new Claim.Figure("direct", DIRECT, THROUGHPUT), new Claim.Figure("through L4", L4_RST, THROUGHPUT),
                        new Claim.Figure("L4 proxy CPU", L4_RST, PROXY_CPU)),
                List.of(LAYERS, LAYERS_IN_PROCESS), null));

        c.add(new Claim("C000-2", "An L7 proxy costs far more than L4",
                "Decoding, aggregating and re-encoding HTTP on both sides (L7) costs far more throughput than "
                        + "forwarding bytes (L4), even with Netty.",
                PROXY_ARTICLE, "no figure in the text (screenshots); \"L7 costs much more than L4, even with Netty\"",
                "ProxyEndToEndBenchmark: layer=7 vs layer=4 (reuse-server-thread, nio, adaptive, 64 connections, GET "
                        + "of 1 KiB); proxy CPU per request; in-process PipelineCostBenchmark L7 vs L4.",
                "Throughput ratio L7 / L4. CONFIRMED if its 95% interval lies below 0.80 (L7 loses at least a fifth of "
                        + "L4's throughput), REFUTED if it lies above 0.80.",
                List.of(Check.ratio("requests/s, L7 / L4", THROUGHPUT, L7_RST, L4_RST, Region.below(0.80), "\"much lower\"")),
                List.of(Check.ratio("proxy CPU per request, L7 / L4", PROXY_CPU, L7_RST, L4_RST, null, null),
                        Check.ratio("in-process, time per exchange L7 / L4", TIME_PER_OP, PC_L7, PC_L4, null, null)),
                List.of(new Claim.Figure("through L7", L7_RST, THROUGHPUT), new Claim.Figure("L7 proxy CPU", L7_RST, PROXY_CPU)),
                List.of(LAYERS, LAYERS_IN_PROCESS), null));

        c.add(new Claim("C000-3", "Thread models rank reuse-server-thread > reuse-server-group > individual-group",
                "Running a backend connection on the client channel's own event loop (ReuseServerThread) gives the most "
                        + "requests per second, sharing the server's worker group (ReuseServerGroup) fewer, a separate "
                        + "group for backend connections (IndividualGroup) the fewest; at L4 and at L7.",
                PROXY_ARTICLE, "a ranking (screenshots): ReuseServerThread > ReuseServerGroup > IndividualGroup, at L4 and L7",
                "ProxyEndToEndBenchmark: the three thread models at layer=4 and layer=7 (nio, adaptive, 64 connections, "
                        + "GET of 1 KiB).",
                "Four throughput ratios, each predicted above 1: reuse-server-thread / reuse-server-group and "
                        + "reuse-server-group / individual-group, at L4 and at L7. CONFIRMED if all four 95% intervals "
                        + "lie above 1; REFUTED if any lies below 1 after Holm's correction over the four.",
                List.of(Check.ratio("L4 requests/s, reuse-server-thread / reuse-server-group", THROUGHPUT, L4_RST, L4_RSG, Region.above(1), "> 1"),
                        Check.ratio("L4 requests/s, reuse-server-group / individual-group", THROUGHPUT, L4_RSG, L4_IG, Region.above(1), "> 1"),
                        Check.ratio("L7 requests/s, reuse-server-thread / reuse-server-group", THROUGHPUT, L7_RST, L7_RSG, Region.above(1), "> 1"),
                        Check.ratio("L7 requests/s, reuse-server-group / individual-group", THROUGHPUT, L7_RSG, L7_IG, Region.above(1), "> 1")),
                List.of(), List.of(),
                List.of(threadModels("thread-models-throughput", "Requests/s by proxy thread model", THROUGHPUT)), null));

        c.add(new Claim("C000-4", "reuse-server-thread uses the least CPU",
                "Of the three thread models, ReuseServerThread costs the proxy the least CPU.",
                PROXY_ARTICLE, "CPU graphs (screenshots): ReuseServerThread used the least CPU at L4 and L7",
                "ProxyEndToEndBenchmark: the proxy process's CPU time per request (from /proc) for the three thread "
                        + "models at layer=4 and layer=7.",
                "Four ratios of proxy CPU per request, each predicted above 1: reuse-server-group / reuse-server-thread "
                        + "and individual-group / reuse-server-thread, at L4 and L7. CONFIRMED if all four 95% intervals "
                        + "lie above 1; REFUTED if any lies below 1 after Holm's correction.",
                List.of(Check.ratio("L4 proxy CPU/request, reuse-server-group / reuse-server-thread", PROXY_CPU, L4_RSG, L4_RST, Region.above(1), "> 1"),
                        Check.ratio("L4 proxy CPU/request, individual-group / reuse-server-thread", PROXY_CPU, L4_IG, L4_RST, Region.above(1), "> 1"),
                        Check.ratio("L7 proxy CPU/request, reuse-server-group / reuse-server-thread", PROXY_CPU, L7_RSG, L7_RST, Region.above(1), "> 1"),
                        Check.ratio("L7 proxy CPU/request, individual-group / reuse-server-thread", PROXY_CPU, L7_IG, L7_RST, Region.above(1), "> 1")),
                List.of(), List.of(),
                List.of(threadModels("thread-models-cpu", "Proxy CPU per request by thread model", PROXY_CPU)), null));

        c.add(new Claim("C000-5", "individual-group causes ~4x the context switches",
                "A separate event-loop group for backend connections (IndividualGroup) makes about four times the "
                        + "context switches of ReuseServerThread: every request crosses threads twice.",
                PROXY_ARTICLE, "~4x (seen with pidstat; no figure kept)",
                "ProxyEndToEndBenchmark: the proxy process's context switches per request (voluntary + involuntary, all "
                        + "threads, from /proc) at layer=4 and layer=7.",
                "Ratio of proxy context switches per request, individual-group / reuse-server-thread, at L4 and L7, each "
                        + "predicted above 2 (the article's 4x was eyeballed; half of it still says \"several times\"). "
                        + "CONFIRMED if both 95% intervals lie above 2; REFUTED if either lies below 2 after Holm's correction.",
                List.of(Check.ratio("L4 context switches/request, individual-group / reuse-server-thread", PROXY_SWITCHES, L4_IG, L4_RST, Region.above(2), "~4"),
                        Check.ratio("L7 context switches/request, individual-group / reuse-server-thread", PROXY_SWITCHES, L7_IG, L7_RST, Region.above(2), "~4")),
                List.of(Check.ratio("L4 context switches/request, reuse-server-group / reuse-server-thread", PROXY_SWITCHES, L4_RSG, L4_RST, null, null),
                        Check.ratio("L7 context switches/request, reuse-server-group / reuse-server-thread", PROXY_SWITCHES, L7_RSG, L7_RST, null, null)),
                List.of(),
                List.of(threadModels("thread-models-switches", "Proxy context switches per request by thread model", PROXY_SWITCHES)), null));

        c.add(new Claim("C000-6", "PooledByteBufAllocator is ~3% faster than unpooled (L7)",
                "With the pooled allocator the L7 proxy serves about 3% more requests per second than with the "
                        + "unpooled one. Netty 4.2's default, the adaptive allocator, is measured alongside.",
                PROXY_ARTICLE, "pooled about 3% faster than unpooled at L7 (\"接近3%\")",
                "ProxyEndToEndBenchmark: layer=7, reuse-server-thread, allocator=pooled, unpooled and adaptive. "
                        + "In-process AllocatorBenchmark: one 1 KiB direct buffer on an event loop, per allocator.",
                "Throughput ratio pooled / unpooled at L7. CONFIRMED if its 95% interval lies above 1.01 (pooled at "
                        + "least 1% faster), REFUTED if it lies below 1.01.",
                List.of(Check.ratio("L7 requests/s, pooled / unpooled", THROUGHPUT, L7_POOLED, L7_UNPOOLED, Region.above(1.01), "~1.03")),
                List.of(Check.ratio("L7 requests/s, adaptive / pooled", THROUGHPUT, L7_RST, L7_POOLED, null, null),
                        Check.ratio("in-process, time per buffer unpooled / pooled", TIME_PER_OP, allocator("unpooled"), allocator("pooled"), null, null),
                        Check.ratio("in-process, time per buffer adaptive / pooled", TIME_PER_OP, allocator("adaptive"), allocator("pooled"), null, null)),
                List.of(),
                List.of(new ChartSpec.Bars("allocators-throughput", "L7 proxy requests/s by allocator", THROUGHPUT,
                                List.of(new ChartSpec.Bar("pooled", "requests/s", L7_POOLED), new ChartSpec.Bar("unpooled", "requests/s", L7_UNPOOLED),
                                        new ChartSpec.Bar("adaptive", "requests/s", L7_RST))),
                        new ChartSpec.Bars("allocators-in-process", "In-process: one 1 KiB direct buffer on an event loop", TIME_PER_OP,
                                List.of(new ChartSpec.Bar("pooled", "time per buffer", allocator("pooled")),
                                        new ChartSpec.Bar("unpooled", "time per buffer", allocator("unpooled")),
                                        new ChartSpec.Bar("adaptive", "time per buffer", allocator("adaptive"))))), null));

        c.add(new Claim("C000-7", "A large maxContentLength slightly lowers performance",
                "Raising HttpObjectAggregator's maxContentLength from 2,000 to 100,000,000 bytes makes the L7 proxy "
                        + "slightly slower, on requests that fit both.",
                PROXY_ARTICLE, "slightly lower QPS with 100,000,000 (screenshot; no figure in the text)",
                "In-process AggregatorBenchmark: the proxy's own aggregator decoding and aggregating a 1,500-byte POST, "
                        + "limit 2,000 vs 100,000,000. In process because the limit is a per-pipeline setting and a "
                        + "slight effect would drown in the few percent of end-to-end noise on 2 shared cores.",
                "Ratio of time per aggregated request, limit 100,000,000 / limit 2,000. CONFIRMED if its 95% interval "
                        + "lies above 1.01 (at least 1% slower), REFUTED if it lies below 1.01.",
                List.of(Check.ratio("time per request, limit 100,000,000 / 2,000", TIME_PER_OP, aggregator(100_000_000),
                        aggregator(2000), Region.above(1.01), "slightly > 1")),
                List.of(), List.of(),
                List.of(new ChartSpec.Bars("aggregator", "Time to decode and aggregate a 1,500-byte POST", TIME_PER_OP,
                        List.of(new ChartSpec.Bar("limit 2,000", "time per request", aggregator(2000)),
                                new ChartSpec.Bar("limit 100,000,000", "time per request", aggregator(100_000_000))))), null));

        List<ChartSpec.Bar> legs = new ArrayList<>();
        for (Selection s : List.of(PC_L4, PC_L7)) {
            String layer = s.label();
            legs.add(new ChartSpec.Bar("client to proxy", layer, s, perRequest("clientBytesIn", "bytes per request")));
            legs.add(new ChartSpec.Bar("proxy to origin", layer, s, perRequest("backendBytesOut", "bytes per request")));
            legs.add(new ChartSpec.Bar("origin to proxy", layer, s, perRequest("backendBytesIn", "bytes per request")));
            legs.add(new ChartSpec.Bar("proxy to client", layer, s, perRequest("clientBytesOut", "bytes per request")));
        }
        c.add(new Claim("C000-8", "The L7 proxy sends slightly more than it receives",
                "The L7 proxy's outgoing traffic is a little larger than its incoming traffic, because it adds request "
                        + "headers.",
                PROXY_ARTICLE, "outbound slightly above inbound on the proxy's network graph (screenshot), put down to the added header",
                "In-process PipelineCostBenchmark at layer=7 (GET, 1 KiB body): the exact bytes of each leg, counted per "
                        + "request; layer=4 alongside.",
                "Ratio of the proxy's bytes out (to the origin and to the client) over its bytes in (from the client and "
                        + "from the origin), per request, against 1. CONFIRMED if its 95% interval lies above 1, REFUTED if "
                        + "below. The counts are exact, so the interval is a point.",
                List.of(Check.againstConstant("L7 bytes out / bytes in", BYTES_OUT_OVER_IN, PC_L7, 1.0, "equal traffic",
                        Region.above(1), "slightly > 1")),
                List.of(Check.againstConstant("L4 bytes out / bytes in", BYTES_OUT_OVER_IN, PC_L4, 1.0, "equal traffic", null, null)),
                List.of(new Claim.Figure("L7 proxy to origin", PC_L7, perRequest("backendBytesOut", "request bytes, proxy to origin")),
                        new Claim.Figure("client to L7 proxy", PC_L7, perRequest("clientBytesIn", "request bytes, client to proxy"))),
                List.of(new ChartSpec.Bars("proxy-bytes", "Bytes per request on each leg of the proxy (GET, 1 KiB body)",
                        perRequest("clientBytesIn", "bytes per request"), legs)), null));

        c.add(new Claim("C001-1", "A Netty hello world serves ~84k req/s on 2 cores",
                "Netty's HTTP hello-world example serves about 84,000 requests per second to 1000 concurrent keep-alive "
                        + "connections on 2 CPUs.",
                SLEEP_ARTICLE, "84,042 req/s (ab -k -c 1000, Docker with 2 CPUs and 1 GB)",
                "BlockingWorkEndToEndBenchmark: workMs=0 (no work; the strategy does not matter), 1000 keep-alive "
                        + "connections. The load generator runs on the same 2 cores.",
                "Ratio of measured throughput to the article's 84,042 req/s. CONFIRMED if its 95% interval lies above "
                        + "0.5 (the same order of magnitude: hardware and a load generator sharing the cores account for "
                        + "up to a factor of two), REFUTED if it lies below 0.5.",
                List.of(Check.againstConstant("hello world requests/s / article's", THROUGHPUT, HELLO, 84042.11,
                        "the article's 84,042 req/s", Region.above(0.5), "1 (84,042 req/s)")),
                List.of(), List.of(new Claim.Figure("hello world", HELLO, THROUGHPUT), new Claim.Figure("hello world p99", HELLO, P99)),
                List.of(new ChartSpec.Bars("hello-world", "Hello world, 1000 keep-alive connections", THROUGHPUT,
                        List.of(new ChartSpec.Bar("measured here", "requests/s", HELLO)),
                        List.of(new ChartSpec.Reference("article (2 CPUs)", "requests/s", 84042.11)))), null));

        c.add(new Claim("C001-2", "Sleeping 10 ms on the event loop divides throughput by ~50",
                "A 10 ms Thread.sleep in the handler drops throughput to about 1.5k req/s, because the handler runs on "
                        + "the event loop and the sleep blocks it: throughput is bounded by event-loop threads / sleep time.",
                SLEEP_ARTICLE, "84,042 -> 1,563 req/s (53.8x); consistent with 16 event loops / 10 ms = 1,600 req/s "
                        + "if that JVM saw 8 CPUs (not stated)",
                "BlockingWorkEndToEndBenchmark: strategy=block-event-loop with workMs=10 vs workMs=0, 1000 connections; "
                        + "the benchmark's predicted bound (event-loop threads / work time) as e2e.bound.",
                "Three checks: throughput with no work / with 10 ms blocking above 10 (the collapse); measured / "
                        + "predicted bound above 0.8 (the bound is reached) and below 1.1 (not beaten: the mechanism "
                        + "is the bound). CONFIRMED if all three intervals lie inside; REFUTED if any lies outside "
                        + "(Holm-corrected).",
                List.of(Check.ratio("requests/s, no work / 10 ms blocking", THROUGHPUT, HELLO, BLOCK_10, Region.above(10), "53.8"),
                        Check.againstConstant("10 ms blocking, measured / bound (reached)", OVER_BOUND, BLOCK_10, 1.0,
                                "the bound", Region.above(0.8), "~0.98 (1,563 / 1,600)"),
                        Check.againstConstant("10 ms blocking, measured / bound (not beaten)", OVER_BOUND, BLOCK_10, 1.0,
                                "the bound", Region.below(1.1), "~0.98")),
                List.of(), List.of(new Claim.Figure("10 ms blocking", BLOCK_10, THROUGHPUT),
                        new Claim.Figure("its predicted bound", BLOCK_10, Statistic.metric(EndToEndMetrics.PREDICTED_BOUND, "predicted bound", "req/s"))),
                List.of(STRATEGIES), null));

        c.add(new Claim("C001-3", "Not blocking the event loop restores throughput",
                "Moving the blocking call to another executor (DefaultEventExecutorGroup and its successors), or waiting "
                        + "without blocking (a timer, like Swoole's coroutine sleep), restores throughput, bounded then "
                        + "by concurrency / latency (for an executor, its threads / work time).",
                SLEEP_ARTICLE, "Swoole's hooked (non-blocking) sleep: about 6x Netty's blocking figure (\"6倍\"); the "
                        + "fix named: don't block the EventLoop",
                "BlockingWorkEndToEndBenchmark with workMs=10, 1000 connections: timer and the executor strategies vs "
                        + "block-event-loop; virtual-thread on JDK 21+ (shown). In-process OffloadBenchmark shows what the "
                        + "hand-off costs without any waiting.",
                "Three checks: timer / block-event-loop throughput above 5 (the article's 6x with room); offload-executor "
                        + "and pipeline-executor each reach at least 0.8 of their predicted bound (executor threads / work "
                        + "time). CONFIRMED if all three intervals lie inside; REFUTED if any lies outside (Holm-corrected).",
                List.of(Check.ratio("requests/s at 10 ms, timer / block-event-loop", THROUGHPUT, TIMER_10, BLOCK_10, Region.above(5), "~6 (Swoole)"),
                        Check.againstConstant("offload-executor, measured / bound", OVER_BOUND, OFFLOAD_10, 1.0, "the bound", Region.above(0.8), "-"),
                        Check.againstConstant("pipeline-executor, measured / bound", OVER_BOUND, PIPELINE_10, 1.0, "the bound", Region.above(0.8), "-")),
                List.of(Check.ratio("requests/s at 10 ms, offload-executor / block-event-loop", THROUGHPUT, OFFLOAD_10, BLOCK_10, null, null),
                        Check.ratio("requests/s, timer at 10 ms / no work", THROUGHPUT, TIMER_10, HELLO, null, null),
                        Check.ratio("requests/s at 10 ms, virtual-thread / block-event-loop (JDK 21+)", THROUGHPUT, VIRTUAL_10, BLOCK_10, null, null),
                        Check.ratio("in-process, messages/ms pipeline-executor / on the loop", THROUGHPUT, offload("pipeline-executor"), offload("none"), null, null)),
                List.of(new Claim.Figure("timer, 10 ms", TIMER_10, THROUGHPUT), new Claim.Figure("offload-executor, 10 ms", OFFLOAD_10, THROUGHPUT)),
                List.of(STRATEGIES), null));

        c.add(new Claim("C002-1", "A reverse proxy in the path costs throughput",
                "Putting a reverse proxy between client and server lowers the requests per second against direct access.",
                ZUUL_ARTICLE, "direct 2,928 req/s; through nginx 954 (0.33); through Zuul, warm, 998-1,010",
                "ProxyEndToEndBenchmark with the article's 26,650-byte page and 200 connections: layer=7 vs layer=direct. "
                        + "The JVM proxy here is loopbench's L7 proxy (no Zuul, no nginx in the suite).",
                "Throughput ratio L7 / direct. CONFIRMED if its 95% interval lies below 0.9 (at least 10% lost), "
                        + "REFUTED if it lies above 0.9.",
                List.of(Check.ratio("requests/s, L7 proxy / direct (26,650 B, 200 connections)", THROUGHPUT, PAGE_L7, PAGE_DIRECT,
                        Region.below(0.9), "0.33 (nginx), 0.34 (Zuul warm)")),
                List.of(), List.of(new Claim.Figure("direct", PAGE_DIRECT, THROUGHPUT), new Claim.Figure("through L7", PAGE_L7, THROUGHPUT)),
                List.of(new ChartSpec.Bars("page-throughput", "Requests/s for a 26,650-byte page, 200 connections", THROUGHPUT,
                        List.of(new ChartSpec.Bar("direct", "requests/s", PAGE_DIRECT), new ChartSpec.Bar("L7 proxy", "requests/s", PAGE_L7)))), null));

        c.add(new Claim("C002-2", "A cold JVM proxy is slow (and may fail) until the JIT warms it",
                "A JVM proxy serves far fewer requests per second while cold, can fail some, and reaches its full "
                        + "throughput only after JIT warm-up.",
                ZUUL_ARTICLE, "Zuul's first run 367 req/s with 2 failed requests, then 998 and 1,010 req/s (first / warm = 0.37)",
                "ProxyWarmupBenchmark: a new proxy process per fork, loaded from its first second for 30 s; the per-second "
                        + "series from the side files. layer=7 decides, layer=4 is shown.",
                "Ratio of the first second's requests to the mean of the last " + WARM_SECONDS + " seconds, per fork, "
                        + "against 1. CONFIRMED if its 95% interval lies below 0.8 (the cold second at least 20% "
                        + "slower), REFUTED if it lies above 0.8. Failed requests are reported, not judged: \"can fail\" "
                        + "is not refuted by a run without failures.",
                List.of(Check.againstConstant("cold L7 proxy, first second / warm rate", COLD_SHARE, COLD_L7, 1.0,
                        "the warm rate", Region.below(0.8), "0.37 (367 / ~1,004)")),
                List.of(Check.againstConstant("cold L4 proxy, first second / warm rate", COLD_SHARE, COLD_L4, 1.0, "the warm rate", null, null)),
                List.of(new Claim.Figure("L7: requests in the first second", COLD_L7, WARMUP_FIRST),
                        new Claim.Figure("L7: failed requests while cold", COLD_L7, WARMUP_ERRORS),
                        new Claim.Figure("L7: seconds to 90%", COLD_L7, WARMUP_TO_90),
                        new Claim.Figure("L4: failed requests while cold", COLD_L4, WARMUP_ERRORS)),
                List.of(new ChartSpec.WarmupCurve("warmup", "A cold proxy's first 30 s under load",
                        List.of(new ChartSpec.Line("L7", COLD_L7), new ChartSpec.Line("L4", COLD_L4)))), null));

        c.add(new Claim("C002-3", "The JVM proxy's latency is less predictable",
                "nginx's latency has a smaller spread than the JVM proxy's (Zuul).",
                ZUUL_ARTICLE, "p50 / p99: direct 66 / 92 ms, nginx 209 / 238 ms, Zuul warm 218 / 450 ms, Zuul cold 467 / 1,864 ms",
                "ProxyEndToEndBenchmark, 26,650-byte page, 200 connections: the latency spread (p99 / p50, corrected for "
                        + "coordinated omission) through the L7 proxy vs direct. The suite has no native proxy, so the "
                        + "half tested here is \"a JVM proxy widens the spread\"; nginx's half is measured by hand with "
                        + "profiles/reference-proxies/compare.sh.",
                "Ratio of spreads, L7 / direct. CONFIRMED if its 95% interval lies above 1.2 (the proxy widens the "
                        + "spread by at least 20%: Zuul warm 2.06 vs direct 1.39 is 1.48), REFUTED if it lies below 1.2.",
                List.of(Check.ratio("latency spread p99/p50, L7 proxy / direct", SPREAD, PAGE_L7, PAGE_DIRECT, Region.above(1.2),
                        "1.48 (Zuul warm); nginx 0.82")),
                List.of(Check.ratio("p99 latency, L7 proxy / direct", P99, PAGE_L7, PAGE_DIRECT, null, null)),
                List.of(new Claim.Figure("direct p99", PAGE_DIRECT, P99), new Claim.Figure("through L7 p99", PAGE_L7, P99)),
                List.of(new ChartSpec.PercentilePlot("latency-percentiles", "Latency by percentile: direct vs through the L7 proxy",
                        List.of(new ChartSpec.Line("direct", PAGE_DIRECT), new ChartSpec.Line("L7 proxy", PAGE_L7)))), null));

        c.add(new Claim("C003-1", "Echo TPS falls as 1/size once the link saturates",
                "Above about 5 KiB per message the 1 GbE link is saturated, so messages per second fall in inverse "
                        + "proportion to the message size.",
                ECHO_ARTICLE, "Netty: 1k 44,653 TPS (50 MB/s), 5k 17,971 (98 MB/s), 10k 8,806, 50k 1,909, 100k 964 (100 MB/s)",
                "EchoEndToEndBenchmark over the article's sizes, Netty and Mina: messages/s and MiB/s by size (shown).",
                "None: not testable here (see the reason).",
                List.of(),
                List.of(Check.ratio("Netty messages/s, 10 KiB / 100 KiB (1/size predicts 10)", THROUGHPUT, NETTY_10K, NETTY_100K, null, "9.1")),
                List.of(new Claim.Figure("Netty 1 KiB", NETTY_1K, THROUGHPUT), new Claim.Figure("Netty 100 KiB", NETTY_100K, ECHO_MIB)),
                List.of(ECHO_RATE, ECHO_BYTES),
                "there is no 1 GbE link on loopback: its \"link\" is a memory copy of several GB/s, so the echo is bound by "
                        + "CPU, not by the wire, and the point where messages/s start falling as 1/size is not where the "
                        + "article saw it. Testable with client and server on two hosts joined by 1 GbE, or on a link "
                        + "shaped to 1 Gbit/s (e.g. a veth pair with tc's tbf qdisc, which needs root)."));

        c.add(new Claim("C003-2", "Mina's double/halve buffer predictor jitters and loses throughput",
                "Receive-buffer size prediction matters: Mina's double/halve strategy changes its buffer size back and "
                        + "forth on 5 KiB messages and loses throughput; Netty's adaptive predictor (grow fast, shrink "
                        + "slowly) does not. A fixed-size buffer does not jitter but does not adapt.",
                ECHO_ARTICLE, "at 5k: Mina 10,155 TPS (55 MB/s) vs Netty 17,971 (98 MB/s), 1.77x; other sizes within a few %",
                "In-process RecvBufferPredictionBenchmark: guess changes per 5 KiB message arriving one 1,448-byte "
                        + "segment per read event, adaptive vs halving (Mina's rule). EchoEndToEndBenchmark at 5 KiB: Netty "
                        + "with its adaptive predictor vs Netty with the halving predictor (the predictor alone), Mina "
                        + "and fixed:2048 shown.",
                "Two checks: guess changes per message adaptive / halving below 0.5 (adaptive jitters at most half as "
                        + "much); echo messages/s adaptive / halving above 1.1 (the jitter costs at least 10%; the "
                        + "article's 1.77x with room). CONFIRMED if both intervals lie inside; REFUTED if either lies "
                        + "outside (Holm-corrected).",
                List.of(Check.ratio("guess changes per message, adaptive / halving", GUESS_CHANGES, predictor("adaptive"),
                                predictor("halving"), Region.below(0.5), "~0 (no jitter)"),
                        Check.ratio("echo messages/s at 5 KiB, adaptive / halving", THROUGHPUT, NETTY_5K, NETTY_5K_HALVING,
                                Region.above(1.1), "1.77 (Netty / Mina)")),
                List.of(Check.ratio("echo messages/s at 5 KiB, Netty / Mina", THROUGHPUT, NETTY_5K, MINA_5K, null, "1.77"),
                        Check.ratio("echo messages/s at 5 KiB, fixed:2048 / adaptive", THROUGHPUT, NETTY_5K_FIXED, NETTY_5K, null, null)),
                List.of(new Claim.Figure("halving: guess changes", predictor("halving"), GUESS_CHANGES),
                        new Claim.Figure("adaptive: guess changes", predictor("adaptive"), GUESS_CHANGES)),
                List.of(new ChartSpec.Bars("recv-5k-throughput", "Echo messages/s at 5 KiB by receive-buffer predictor", THROUGHPUT,
                                List.of(new ChartSpec.Bar("Netty adaptive", "messages/s", NETTY_5K),
                                        new ChartSpec.Bar("Netty fixed:2048", "messages/s", NETTY_5K_FIXED),
                                        new ChartSpec.Bar("Netty halving", "messages/s", NETTY_5K_HALVING),
                                        new ChartSpec.Bar("Mina", "messages/s", MINA_5K))),
                        new ChartSpec.Bars("recv-guess-changes", "Receive-buffer guess changes per 5 KiB message (one segment per read)",
                                GUESS_CHANGES, List.of(new ChartSpec.Bar("adaptive", "changes/message", predictor("adaptive")),
                                new ChartSpec.Bar("fixed:2048", "changes/message", predictor("fixed:2048")),
                                new ChartSpec.Bar("halving", "changes/message", predictor("halving"))))), null));

        c.add(new Claim("C003-3", "An executor per message sharply raises CPU for the same TPS",
                "Handing every message to a separate executor (Netty 3's OrderedMemoryAwareThreadPoolExecutor) "
                        + "raises CPU use sharply at the same messages per second.",
                ECHO_ARTICLE, "1k messages: 155% CPU with the executor, 75% without (2.07x), same TPS",
                "EchoEndToEndBenchmark at 1 KiB: the echo server's CPU per message with executor=group "
                        + "(DefaultEventExecutorGroup, Netty 4's successor) vs executor=none. In-process OffloadBenchmark: "
                        + "whole-JVM CPU per message, pipeline-executor vs on the loop.",
                "Ratio of echo server CPU per message, executor group / none. CONFIRMED if its 95% interval lies above "
                        + "1.5 (the article's 2.07x with room), REFUTED if it lies below 1.5.",
                List.of(Check.ratio("echo CPU per message at 1 KiB, executor group / none", ECHO_CPU, NETTY_1K_GROUP, NETTY_1K,
                        Region.above(1.5), "2.07 (155% / 75%)")),
                List.of(Check.ratio("echo messages/s at 1 KiB, executor group / none", THROUGHPUT, NETTY_1K_GROUP, NETTY_1K, null, "~1"),
                        Check.ratio("in-process, CPU per message pipeline-executor / on the loop", CPU_PER_OP,
                                offload("pipeline-executor"), offload("none"), null, null)),
                List.of(),
                List.of(new ChartSpec.Bars("echo-executor-cpu", "Echo server CPU per 1 KiB message", ECHO_CPU,
                                List.of(new ChartSpec.Bar("on the event loop", "CPU per message", NETTY_1K),
                                        new ChartSpec.Bar("executor group", "CPU per message", NETTY_1K_GROUP))),
                        new ChartSpec.Bars("offload-cpu", "In-process: CPU per message (whole JVM)", CPU_PER_OP,
                                List.of(new ChartSpec.Bar("on the event loop", "CPU per message", offload("none")),
                                        new ChartSpec.Bar("pipeline-executor", "CPU per message", offload("pipeline-executor"))))), null));

        c.add(new Claim("C004-1", "Edge-triggered epoll is fastest",
                "Edge-triggered epoll on both the listening and the connected sockets serves the most requests per "
                        + "second. Netty 4.2 has no level-triggered mode any more (EPOLL_MODE is a no-op), so here the "
                        + "question is asked of its transports: NIO (the JDK's selector, level-triggered epoll), epoll "
                        + "(edge-triggered) and io_uring (completions).",
                EPOLL_ARTICLE, "ET+ET 17,152 QPS vs LT+LT 14,540, LT+ET 14,011, ET+LT 14,853 (ET+ET / LT+LT = 1.18)",
                "ProxyEndToEndBenchmark: the L4 proxy (reuse-server-thread, adaptive, 64 connections) on transport=nio, "
                        + "epoll and io_uring.",
                "Throughput ratio epoll / nio. CONFIRMED if its 95% interval lies above 1.05 (the article's 18% with "
                        + "room), REFUTED if it lies below 1.05.",
                List.of(Check.ratio("L4 requests/s, epoll / nio", THROUGHPUT, L4_EPOLL, L4_RST, Region.above(1.05), "1.18 (ET+ET / LT+LT)")),
                List.of(Check.ratio("L4 requests/s, io_uring / nio", THROUGHPUT, L4_IO_URING, L4_RST, null, null),
                        Check.ratio("L4 proxy CPU per request, nio / epoll", PROXY_CPU, L4_RST, L4_EPOLL, null, null)),
                List.of(),
                List.of(new ChartSpec.Bars("transports", "L4 proxy requests/s by transport", THROUGHPUT,
                        List.of(new ChartSpec.Bar("nio", "requests/s", L4_RST), new ChartSpec.Bar("epoll", "requests/s", L4_EPOLL),
                                new ChartSpec.Bar("io_uring", "requests/s", L4_IO_URING)))), null));
        return List.copyOf(c);
    }
}
