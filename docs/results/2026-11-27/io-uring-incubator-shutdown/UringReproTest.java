package loopbench.server;

import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.proxy.Layer;
import org.junit.jupiter.api.Test;

/**
 * Closes io_uring proxies over and over (every layer and thread model, -Drepro.n rounds), each close checked by
 * ServerLifecycleTest's own test; stops at the first close that leaves a thread behind. Not in the build: copied to
 * src/test/java/loopbench/server/ to run (see README.md beside it).
 */
class UringReproTest {
    @Test
    void repeat() throws Exception {
        int n = Integer.getInteger("repro.n", 20);
        for (int i = 0; i < n; i++) {
            for (Layer l : Layer.values()) {
                for (ThreadModel m : ThreadModel.values()) {
                    System.out.println("REPRO " + i + " " + l + " " + m);
                    new ServerLifecycleTest()
                            .proxyCloseFreesPortAndThreadsAndClosesBothSides(l, m, Transport.IO_URING);
                }
            }
        }
    }
}
