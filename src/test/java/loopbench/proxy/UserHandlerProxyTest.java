package loopbench.proxy;

import loopbench.knobs.ThreadModel;
import loopbench.server.LoopbackServer;
import loopbench.testing.RawHttp;
import loopbench.testing.RecordingBackend;
import loopbench.testing.Rig;
import loopbench.testing.StrictHttp;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --handler}: a user's handler in the real L7 proxy's pipeline. */
class UserHandlerProxyTest {
    @Test
    void theUsersHandlerSeesEveryRequestOnItsWayToTheBackend() throws Exception {
        try (RecordingBackend backend = RecordingBackend.start();
             LoopbackServer proxy = ProxyServer.start(Rig.options(), ProxyConfig.of(Layer.L7, backend.address(),
                     ThreadModel.REUSE_SERVER_THREAD), UserHandler.of(RequestIdHandler.class.getName()))) {
            try (RawHttp.Conn c = RawHttp.open(proxy.address().getPort())) {
                for (int i = 0; i < 3; i++) {
                    RawHttp.Response r = c.exchange(RawHttp.get("/r" + i));
                    assertEquals(200, r.status());
                }
            }
            List<StrictHttp.Request> seen = backend.requests();
            assertEquals(3, seen.size());
            Set<String> ids = new HashSet<>();
            for (StrictHttp.Request r : seen) {
                String id = r.header(RequestIdHandler.HEADER);
                assertTrue(id != null && id.length() == 36, "a UUID per request: " + id);
                ids.add(id);
            }
            assertEquals(3, ids.size(), "a new one each time");
        }
    }

    @Test
    void aHandlerNeedsLayerSeven() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new ProxyInitializer(
                ProxyConfig.of(Layer.L4, Rig.loopback(9), ThreadModel.REUSE_SERVER_THREAD), null,
                UserHandler.of(RequestIdHandler.class.getName())));
        assertTrue(e.getMessage().contains("needs layer 7"), e.getMessage());
    }
}
