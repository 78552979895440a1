package loopbench.cli;

import loopbench.line.NettyLine;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code java -jar target/loopbench.jar origin|echo|proxy ...}: the loopback rig's servers. Each prints
 * exactly one line, {@code listening on HOST:PORT netty=VERSION transport=T [epoll-mode=M,M]}, on stdout once it
 * accepts (what it runs on, read back from its socket), with {@code --exit-with-parent} one {@code memory ...} line
 * for each {@code memory} line its parent writes on its stdin (what it holds, {@code MemoryReport}), and everything
 * else on stderr; it runs until SIGTERM or SIGINT and then exits 0. A bad flag or value exits 2 naming the valid
 * values; a failure to start (port taken, transport unavailable) exits 1 saying why.
 */
@Command(name = "loopbench", mixinStandardHelpOptions = true, versionProvider = Main.VersionProvider.class,
        subcommands = {OriginCommand.class, EchoCommand.class, ProxyCommand.class, LoadCommand.class,
                NetnsCommand.class, TableCommand.class, CompareCommand.class, PairsCommand.class, GateCommand.class,
                ClaimsCommand.class, MemoryCommand.class, CostCommand.class, CommandLine.HelpCommand.class},
        description = "The loopback rig: an HTTP origin, a TCP echo server and an L4/L7 proxy, built on Netty, "
                + "with the transport, allocator, thread model and io threads as knobs, and a load generator for them.")
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (tests call this; {@link #main} exits with it). */
    public static int run(String... args) {
        CommandLine cmd = new CommandLine(new Main());
        Converters.register(cmd);
        cmd.setExecutionExceptionHandler((e, command, parseResult) -> Cli.exitCodeFor(e, command));
        cmd.setParameterExceptionHandler((e, args1) -> Cli.exitCodeFor(new Cli.BadInput(e.getMessage()),
                e.getCommandLine()));
        return cmd.execute(args);
    }

    @Override
    public void run() {
        throw new Cli.BadInput("no command given; valid commands: origin, echo, proxy, load, netns, table, compare, "
                + "gate, claims, memory, cost");
    }

    static final class VersionProvider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            NettyLine line = NettyLine.current();
            return new String[] {
                    "loopbench " + Main.class.getPackage().getImplementationVersion(),
                    line.describe(),
                    "JVM " + System.getProperty("java.vm.name") + " " + Runtime.version(),
            };
        }
    }
}
