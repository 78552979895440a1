package loopbench.line;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import loopbench.claims.Machine;
import loopbench.knobs.Transport;
import loopbench.knobs.TransportUnavailableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The build picked the seam of the Netty on its class path, each transport makes event loops and channels of its own
 * on this line (so what a server reports as its transport is what it runs on), and the outputs name the line.
 */
class NettyLineTest {
    private static final NettyLine LINE = NettyLine.current();

    @Test
    void theSeamIsTheLineOfTheNettyOnTheClassPath() {
        assertTrue(LINE.name().equals("4.1") || LINE.name().equals("4.2"), LINE.name());
        assertTrue(LINE.version().startsWith(LINE.name() + "."), () -> LINE.version() + " is not " + LINE.name());
        assertTrue(LINE.describe().startsWith("Netty " + LINE.version() + " (line " + LINE.name()), LINE.describe());
        assertTrue(!LINE.ioUringSource().contains("unknown") && !LINE.ioUringSource().contains("SNAPSHOT"),
                LINE.ioUringSource());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void eachTransportRunsItsOwnChannels(Transport transport) throws Exception {
        assumeTrue(transport.isAvailable(), () -> transport.cliName() + " is not available here: "
                + transport.unavailabilityCause());
        EventLoopGroup group = transport.newEventLoopGroup(1, new DefaultThreadFactory("line-test", true));
        try {
            Channel server = new ServerBootstrap().group(group).channel(transport.serverChannelClass())
                    .childHandler(new ChannelInboundHandlerAdapter()).bind("127.0.0.1", 0).sync().channel();
            assertEquals(transport, Transport.of(server));
            server.close().sync();
        } finally {
            assertTrue(group.shutdownGracefully(0, 5, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS));
        }
    }

    /** Where a transport cannot run (4.1's io_uring is the incubator's, for one), the error names the line. */
    @ParameterizedTest
    @EnumSource(Transport.class)
    void anUnavailableTransportIsRefusedNamingTheLine(Transport transport) {
        assumeTrue(!transport.isAvailable(), () -> transport.cliName() + " runs here");
        TransportUnavailableException e = assertThrows(TransportUnavailableException.class, transport::ensureAvailable);
        assertTrue(e.getMessage().contains("Netty " + LINE.version() + " (line " + LINE.name() + ")"), e.getMessage());
    }

    @Test
    void machineJsonNamesTheNettyAndItsLine(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = dir.resolve(Machine.FILE);
        Machine.Snapshot.current().write(file);
        Machine.Snapshot read = Machine.Snapshot.read(file);
        assertEquals(LINE.version(), read.netty());
        assertTrue(read.nettyLine().startsWith(LINE.name() + " (io_uring: "), read.nettyLine());
        assertTrue(Files.readString(file).contains("\"nettyLine\""));
    }
}
