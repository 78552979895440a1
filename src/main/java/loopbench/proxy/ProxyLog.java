package loopbench.proxy;

import io.netty.channel.Channel;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What the proxy's answers leave out, for its operator: why a client got an error answer or was closed (the backend's
 * address, the exception, which timeout). Clients only ever see a fixed text per status; these details go to
 * java.util.logging's {@value #NAME} logger at FINE, which is off unless asked for ({@code proxy --log-level debug},
 * or a logging configuration that sets {@code loopbench.proxy.level = FINE} and a handler that lets FINE through).
 * Nothing is built for the log unless it is on.
 */
final class ProxyLog {
    static final String NAME = "loopbench.proxy";
    /** Held here: java.util.logging keeps loggers weakly, and a collected logger forgets its level. */
    private static final Logger LOGGER = Logger.getLogger(NAME);

    private ProxyLog() {
    }

    static boolean enabled() {
        return LOGGER.isLoggable(Level.FINE);
    }

    /** {@code what} happened on {@code client}'s connection (to backend {@code backend}), because of {@code cause}. */
    static void event(Channel client, Object backend, String what, Throwable cause) {
        if (enabled()) {
            LOGGER.fine("client " + client.remoteAddress() + " -> backend " + backend + ": " + what
                    + (cause == null ? "" : ": " + cause));
        }
    }
}
