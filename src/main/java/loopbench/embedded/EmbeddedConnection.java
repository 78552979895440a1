package loopbench.embedded;

/**
 * A TCP connection made of two {@link EmbeddedSocket}s and a {@link Wire} each way. {@link #pump()} moves
 * bytes until neither side has anything more to say; a side that closes makes the other see the close once
 * the bytes already on the wire to it have been read.
 */
public final class EmbeddedConnection {
    private final EmbeddedSocket client;
    private final EmbeddedSocket server;
    private final Wire toServer = new Wire();
    private final Wire toClient = new Wire();

    public EmbeddedConnection(EmbeddedSocket client, EmbeddedSocket server) {
        this.client = client;
        this.server = server;
    }

    /** The connecting side (e.g. the proxy's backend channel). */
    public EmbeddedSocket client() {
        return client;
    }

    /** The accepted side (e.g. the origin's channel). */
    public EmbeddedSocket server() {
        return server;
    }

    /** Bytes the client side sent. */
    public Wire toServer() {
        return toServer;
    }

    /** Bytes the server side sent. */
    public Wire toClient() {
        return toClient;
    }

    /**
     * One round: what each side flushed goes across and is read by the other; closes propagate.
     *
     * @return whether anything happened (bytes moved or a side was closed)
     */
    public boolean pumpOnce() {
        boolean moved = false;
        client.runPendingTasks();
        server.runPendingTasks();
        if (toServer.take(client) > 0) {
            moved = true;
        }
        if (toServer.deliver(server) > 0) {
            moved = true;
        }
        if (toClient.take(server) > 0) {
            moved = true;
        }
        if (toClient.deliver(client) > 0) {
            moved = true;
        }
        if (!client.isOpen() && server.isOpen() && toServer.pending() == 0) {
            server.close();
            moved = true;
        }
        if (!server.isOpen() && client.isOpen() && toClient.pending() == 0) {
            client.close();
            moved = true;
        }
        return moved;
    }

    /** Pumps until quiet. */
    public void pump() {
        while (pumpOnce()) {
            // keep going
        }
    }

    public boolean isOpen() {
        return client.isOpen() || server.isOpen();
    }

    /** Closes both sides and releases everything either still holds or has on the wire. */
    public void close() {
        client.finishAndReleaseAll();
        server.finishAndReleaseAll();
        toServer.discard();
        toClient.discard();
    }
}
