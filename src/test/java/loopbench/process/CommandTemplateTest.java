package loopbench.process;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommandTemplateTest {
    @Test
    void fillsEveryPlaceholderAndLeavesConfigurationBracesAlone() {
        CommandTemplate t = new CommandTemplate("gw --listen 127.0.0.1:{listenPort} --to {backendHost}:{backendPort}"
                + " --conf 'events { worker_connections 64; }' {listenPort}");
        assertEquals("gw --listen 127.0.0.1:8080 --to 127.0.0.1:9090 --conf 'events { worker_connections 64; }' 8080",
                t.render(8080, "127.0.0.1", 9090));
    }

    @Test
    void anUnknownPlaceholderIsRefusedNamingTheValidOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CommandTemplate("gw {listenPort} {backendAddr}"));
        assertTrue(e.getMessage().contains("{backendAddr}") && e.getMessage().contains("{listenPort}, {backendHost}, "
                + "{backendPort}"), e.getMessage());
    }

    @Test
    void aTemplateWithoutTheListenPortOrEmptyIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CommandTemplate("nginx -c /etc/nginx.conf"));
        assertTrue(e.getMessage().contains("has no {listenPort}"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CommandTemplate(" "));
    }
}
