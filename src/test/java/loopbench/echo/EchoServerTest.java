package loopbench.echo;

import loopbench.knobs.HalvingRecvByteBufAllocator;
import loopbench.knobs.RecvAllocator;
import loopbench.knobs.Transport;
import loopbench.server.LoopbackServer;
import loopbench.testing.Rig;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The echo server returns every byte, for every recv allocator (adaptive, fixed:2048, halving) and executor (none,
 * group), on every transport: round-trips of 1, 2, 5, 10, 50 and 100 KiB (the C003 article's message sizes), one after
 * another on one connection, and on several connections at once.
 */
class EchoServerTest {
    static final int[] SIZES = {1024, 2048, 5 * 1024, 10 * 1024, 50 * 1024, 100 * 1024};

    static Stream<Arguments> configs() {
        List<Arguments> all = new ArrayList<>();
        for (String recv : new String[] {"adaptive", "fixed:2048", "halving"}) {
            for (EchoExecutor executor : EchoExecutor.values()) {
                for (Transport transport : Transport.values()) {
                    all.add(Arguments.of(recv, executor, transport));
                }
            }
        }
        return all.stream();
    }

    @Tag("jdk25") // every transport on JDK 25 too
    @ParameterizedTest(name = "{0} executor={1} {2}")
    @MethodSource("configs")
    void roundTripsAreIntact(String recv, EchoExecutor executor, Transport transport) throws Exception {
        EchoConfig config = new EchoConfig(RecvAllocator.parse(recv), executor, 2);
        try (LoopbackServer echo = EchoServer.start(Rig.options().withTransport(transport), config)) {
            EchoRoundTrips.check(echo.port(), SIZES, 3, 8);
        }
        Rig.assertNoThreads("echo");
    }

    @Test
    void recvAllocatorSpellings() {
        assertEquals(RecvAllocator.ADAPTIVE, RecvAllocator.parse("adaptive"));
        assertEquals(RecvAllocator.HALVING, RecvAllocator.parse("halving"));
        assertEquals(RecvAllocator.fixed(2048), RecvAllocator.parse("fixed:2048"));
        assertEquals("fixed:2048", RecvAllocator.parse("fixed:2048").cliName());
        for (String bad : new String[] {"fixed:abc", "fixed:0", "fixed:", "nope", "Adaptive"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RecvAllocator.parse(bad));
            assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains(RecvAllocator.VALID),
                    e.getMessage());
        }
        assertTrue(RecvAllocator.parse("halving").create() instanceof HalvingRecvByteBufAllocator);
    }
}
