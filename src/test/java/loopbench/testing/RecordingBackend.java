package loopbench.testing;

import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A backend that records the exact bytes it received on each connection, and answers every request it can read
 * (leniently, with {@link RawHttp#readRequest}) with {@code 200} and the request's target as the body. The tests
 * then judge what was recorded with the strict parser {@link StrictHttp}: every request the proxy forwarded must
 * have exactly one, unambiguous framing, and no request may be one a client hid inside another.
 */
public final class RecordingBackend implements AutoCloseable {
    private final TestBackend server;
    private final List<ByteArrayOutputStream> received = new ArrayList<>();

    private RecordingBackend() throws IOException {
        server = TestBackend.start((socket, index) -> {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            synchronized (received) {
                received.add(bytes);
            }
            InputStream in = new Recording(socket.getInputStream(), bytes);
            OutputStream out = socket.getOutputStream();
            while (true) {
                RawHttp.Request r;
                try {
                    r = RawHttp.readRequest(in);
                } catch (IOException unreadable) {
                    // Record whatever else arrives (briefly): the strict parser judges all of it.
                    socket.setSoTimeout(300);
                    try {
                        in.readAllBytes();
                    } catch (IOException timeoutOrReset) {
                        // done
                    }
                    return;
                }
                if (r == null) {
                    return;
                }
                byte[] body = r.target().getBytes(StandardCharsets.ISO_8859_1);
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
            }
        });
    }

    public static RecordingBackend start() throws IOException {
        return new RecordingBackend();
    }

    public InetSocketAddress address() {
        return server.address();
    }

    public int port() {
        return server.port();
    }

    /** A copy of the bytes received so far, one array per backend connection, in the order they were accepted. */
    public List<byte[]> connections() {
        synchronized (received) {
            List<byte[]> all = new ArrayList<>();
            for (ByteArrayOutputStream b : received) {
                synchronized (b) {
                    all.add(b.toByteArray());
                }
            }
            return all;
        }
    }

    /** Every request received on any connection, parsed strictly (fails the test on an ambiguous framing). */
    public List<StrictHttp.Request> requests() {
        List<StrictHttp.Request> all = new ArrayList<>();
        for (byte[] c : connections()) {
            all.addAll(StrictHttp.parseRequests(c));
        }
        return all;
    }

    @Override
    public void close() {
        server.close();
    }

    /** Copies every byte read into {@code record}. */
    private static final class Recording extends FilterInputStream {
        private final ByteArrayOutputStream record;

        Recording(InputStream in, ByteArrayOutputStream record) {
            super(in);
            this.record = record;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                synchronized (record) {
                    record.write(b);
                }
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                synchronized (record) {
                    record.write(b, off, n);
                }
            }
            return n;
        }
    }
}
