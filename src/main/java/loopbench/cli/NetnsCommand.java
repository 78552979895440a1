package loopbench.cli;

import loopbench.topology.LinkSpec;
import loopbench.topology.NetnsTopology;
import loopbench.topology.Role;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

@Command(name = "netns", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Sets up the hosts of an end-to-end run as network namespaces on one machine, as the "
                + "benchmarks' -p topology=netns does: each of --hosts in a namespace of its own, this namespace as "
                + "the client's host, all joined to a switch by a veth pair each, every link shaped as --link says, "
                + "addresses in 198.18.0.0/15 only, no route out. Prints one line per host (ROLE NAMESPACE ADDRESS), "
                + "then 'ready'; run the servers with 'ip netns exec NAMESPACE java -jar loopbench.jar origin "
                + "--listen ADDRESS:PORT ...'. Holds the namespaces until SIGTERM or SIGINT, then removes them "
                + "(stop the servers in them first). Needs root, or CAP_SYS_ADMIN and CAP_NET_ADMIN.",
                "Exit status: 0 removed after a signal, 1 could not set up (the reason is printed), 2 bad usage."})
final class NetnsCommand implements Callable<Integer> {

    @Option(names = "--hosts", paramLabel = "ROLES", split = ",", defaultValue = "proxy,origin",
            description = "The servers' hosts, a namespace each: proxy, origin, echo. Default: ${DEFAULT-VALUE}.")
    List<Role> hosts;

    @Option(names = "--link", paramLabel = "LINK", defaultValue = "none",
            description = "Every host's link: none, a rate (1gbit, 100mbit: tc tbf, both directions) or a rate and a "
                    + "one-way delay (1gbit+5ms: needs the kernel's netem, refused without it). Default: "
                    + "${DEFAULT-VALUE}.")
    LinkSpec link;

    @Option(names = "--remove-stale",
            description = "Only remove what runs that are gone left behind (namespaces loopbench-PID-... and links "
                    + "lbPID-N whose process has ended), print their names and exit.")
    boolean removeStale;

    @Option(names = "--exit-with-parent",
            description = "Also tear down when stdin reaches end-of-file (the parent that started this is gone).")
    boolean exitWithParent;

    @Override
    public Integer call() throws InterruptedException {
        PrintStream out = System.out;
        if (hosts.contains(Role.CLIENT)) {
            throw new Cli.BadInput("--hosts " + Role.CLIENT + ": the client's host is this namespace; valid hosts: "
                    + "proxy, origin, echo");
        }
        String why = NetnsTopology.unavailableReason();
        if (why != null) {
            System.err.println("loopbench netns: " + why);
            return 1;
        }
        if (removeStale) {
            NetnsTopology.removeStale().forEach(out::println);
            return 0;
        }
        Set<Role> roles = EnumSet.of(Role.CLIENT);
        roles.addAll(hosts);
        CountDownLatch stop = ServerRunner.stopOnSignal(exitWithParent);
        NetnsTopology t = Cli.validated(() -> NetnsTopology.create(roles, link));
        try {
            for (Role r : roles) {
                out.println(r + " " + (t.namespace(r) == null ? "-" : t.namespace(r)) + " "
                        + t.address(r).getHostAddress());
            }
            out.println("ready");
            out.flush();
            System.err.println("loopbench: " + t + " set up in " + t.setupMillis() + " ms");
            stop.await();
        } finally {
            t.close();
        }
        System.err.println("loopbench: " + t + " removed in " + t.teardownMillis() + " ms");
        return 0;
    }
}
