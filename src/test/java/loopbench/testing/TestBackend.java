package loopbench.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A tiny blocking TCP server written for the tests (a thread per connection), to play backends that misbehave on
 * purpose: refuse, accept and close, answer garbage, never read, record what the proxy sent. Whatever a handler
 * throws is kept and can be checked with {@link #assertNoErrors()}.
 */
public final class TestBackend implements AutoCloseable {

    @FunctionalInterface
    public interface Handler {
        /** Serves one accepted connection; the socket is closed when this returns. */
        void serve(Socket socket, int connectionIndex) throws Exception;
    }

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean closed;

    private TestBackend(Handler handler) throws IOException {
        server = new ServerSocket();
        server.setReuseAddress(true);
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        acceptor = new Thread(() -> acceptLoop(handler), "test-backend-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public static TestBackend start(Handler handler) throws IOException {
        return new TestBackend(handler);
    }

    /**
     * A port on 127.0.0.1 that refuses connections: a socket is bound to it but does not listen, so connecting
     * gets a reset, and nobody else (not the proxy's own listening socket, not a connect's ephemeral port) can take
     * the port until {@link RefusingPort#close()}.
     */
    public static RefusingPort refusingPort() throws IOException {
        return new RefusingPort();
    }

    public static final class RefusingPort implements AutoCloseable {
        private final Socket holder = new Socket();

        private RefusingPort() throws IOException {
            holder.setReuseAddress(true);
            holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        }

        public int port() {
            return holder.getLocalPort();
        }

        /** Frees the port (for a server to listen on it). */
        @Override
        public void close() throws IOException {
            holder.close();
        }
    }

    private void acceptLoop(Handler handler) {
        while (!closed) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            int index = accepted.getAndIncrement();
            Thread t = new Thread(() -> {
                try {
                    s.setSoTimeout(RawHttp.SO_TIMEOUT_MILLIS);
                    handler.serve(s, index);
                } catch (Throwable e) {
                    if (!closed) {
                        errors.add(e);
                    }
                } finally {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // closing
                    }
                }
            }, "test-backend-conn-" + index);
            t.setDaemon(true);
            synchronized (sockets) {
                if (closed) {
                    closeQuietly(s);
                    return;
                }
                sockets.add(s);
                threads.add(t);
            }
            t.start();
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** Connections accepted so far. */
    public int accepted() {
        return accepted.get();
    }

    public void assertNoErrors() {
        if (!errors.isEmpty()) {
            AssertionError e = new AssertionError("test backend failed: " + errors.peek());
            errors.forEach(e::addSuppressed);
            throw e;
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(server);
        List<Thread> toJoin;
        synchronized (sockets) {
            sockets.forEach(TestBackend::closeQuietly);
            toJoin = new ArrayList<>(threads);
        }
        try {
            acceptor.join(TimeUnit.SECONDS.toMillis(10));
            for (Thread t : toJoin) {
                t.join(TimeUnit.SECONDS.toMillis(10));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception ignored) {
            // closing
        }
    }
}
