package loopbench.peers.zuul;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;

/** The peer's command line, spelled as loopbench's servers spell theirs. */
record PeerOptions(InetSocketAddress listen, String backendHost, int backendPort, String transport, int ioThreads,
                   boolean exitWithParent, boolean help) {

    static final List<String> TRANSPORTS = List.of("epoll", "nio", "io_uring");
    static final String USAGE = "Usage: java -jar zuul.jar --backend HOST:PORT [--listen HOST:PORT] "
            + "[--transport epoll|nio|io_uring] [--io-threads N] [--exit-with-parent]\n"
            + "  --listen HOST:PORT     where to listen; port 0 picks a free port. Default: 127.0.0.1:0\n"
            + "  --backend HOST:PORT    the origin every request goes to (required)\n"
            + "  --transport T          Zuul's event loops: epoll (Zuul's default), nio, io_uring. Default: epoll\n"
            + "  --io-threads N         worker event loops (beside one acceptor). Default: one per core\n"
            + "  --exit-with-parent     also stop when stdin reaches end-of-file (the parent is gone)";

    String backendHostPort() {
        return backendHost + ":" + backendPort;
    }

    static PeerOptions parse(String[] args) {
        InetSocketAddress listen = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        String backend = null;
        String transport = "epoll";
        int ioThreads = 0;
        boolean exitWithParent = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--listen":
                    listen = hostPort(a, value(args, ++i, a));
                    break;
                case "--backend":
                    backend = value(args, ++i, a);
                    hostPort(a, backend);
                    break;
                case "--transport":
                    transport = value(args, ++i, a);
                    if (!TRANSPORTS.contains(transport)) {
                        throw new IllegalArgumentException("--transport: '" + transport + "' is not one of "
                                + String.join(", ", TRANSPORTS));
                    }
                    break;
                case "--io-threads":
                    ioThreads = positive(a, value(args, ++i, a));
                    break;
                case "--exit-with-parent":
                    exitWithParent = true;
                    break;
                case "-h":
                case "--help":
                    return new PeerOptions(listen, null, 0, transport, 0, false, true);
                default:
                    throw new IllegalArgumentException("unknown option '" + a + "'; valid: --listen, --backend, "
                            + "--transport, --io-threads, --exit-with-parent, --help");
            }
        }
        if (backend == null) {
            throw new IllegalArgumentException("--backend HOST:PORT is required");
        }
        InetSocketAddress b = hostPort("--backend", backend);
        return new PeerOptions(listen, b.getHostString(), b.getPort(), transport, ioThreads, exitWithParent, false);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    private static int positive(String option, String value) {
        try {
            int n = Integer.parseInt(value);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + ": '" + value + "' is not a whole number >= 1");
    }

    private static InetSocketAddress hostPort(String option, String value) {
        int colon = value.lastIndexOf(':');
        String hint = option + ": '" + value + "' is not HOST:PORT (e.g. 127.0.0.1:8080)";
        if (colon <= 0 || colon == value.length() - 1) {
            throw new IllegalArgumentException(hint);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(hint);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(option + ": port " + port + " is out of range 0..65535");
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(value.substring(0, colon)), port);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(option + ": cannot resolve '" + value.substring(0, colon) + "'");
        }
    }
}
