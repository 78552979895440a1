package loopbench.proxy;

import loopbench.testing.RawHttp;
import loopbench.testing.RawHttp.Request;
import loopbench.testing.TestBackend;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A keep-alive HTTP backend for the timeout and error tests that misbehaves on request: the request's path says how.
 * Every other path gets {@code 200} with the path as its body, so the same backend also shows that the proxy keeps
 * serving other clients while one waits.
 * <ul>
 *   <li>{@code /silent}: reads the request, never answers;</li>
 *   <li>{@code /half-head}: sends half a status line, then nothing;</li>
 *   <li>{@code /half-body}: a head announcing {@value #BODY} bytes, {@value #HALF} of them, then nothing;</li>
 *   <li>{@code /reset-mid-body}: the same head and half, then a reset (RST);</li>
 *   <li>{@code /trickle}: {@value #BODY} bytes in {@value #PIECES} pieces, {@value #PIECE_GAP_MILLIS} ms apart;</li>
 *   <li>{@code /until-close}: {@value #BODY} bytes without a length, ended by the backend's half-close (it shuts
 *       its output down and goes on reading until the proxy closes).</li>
 * </ul>
 * A stalled connection waits until the proxy closes it.
 */
final class StallingBackend implements AutoCloseable {
    static final int BODY = 2000;
    static final int HALF = 1000;
    static final int PIECES = 8;
    /**
     * A sixth of the tests' timeouts ({@link L7TimeoutTest#SHORT_MILLIS}), and all the pieces together longer than
     * one: at a quarter, a test machine under load stretched one gap past the limit (a 504 where 200 was due).
     */
    static final int PIECE_GAP_MILLIS = 100;

    private final TestBackend server;

    private StallingBackend() throws IOException {
        server = TestBackend.start((socket, index) -> {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            Request r;
            while ((r = readQuietly(in)) != null) {
                String path = r.target();
                switch (path) {
                    case "/silent":
                        waitForClose(in);
                        return;
                    case "/half-head":
                        out.write(RawHttp.ascii("HTTP/1.1 20"));
                        out.flush();
                        waitForClose(in);
                        return;
                    case "/half-body":
                    case "/reset-mid-body":
                        out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: " + BODY + "\r\n\r\n"));
                        out.write(RawHttp.uniqueBody(1, BODY), 0, HALF);
                        out.flush();
                        if (path.equals("/reset-mid-body")) {
                            socket.setSoLinger(true, 0); // close() sends a RST
                            return;
                        }
                        waitForClose(in);
                        return;
                    case "/trickle":
                        out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: " + BODY + "\r\n\r\n"));
                        out.flush();
                        byte[] body = RawHttp.uniqueBody(2, BODY);
                        int piece = BODY / PIECES;
                        for (int i = 0; i < PIECES; i++) {
                            Thread.sleep(PIECE_GAP_MILLIS);
                            out.write(body, i * piece, piece);
                            out.flush();
                        }
                        break;
                    case "/until-close":
                        out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n"));
                        out.write(RawHttp.uniqueBody(3, BODY));
                        out.flush();
                        socket.shutdownOutput(); // the end of the body; the backend still reads
                        waitForClose(in);
                        return;
                    default:
                        byte[] text = path.getBytes(StandardCharsets.ISO_8859_1);
                        out.write(RawHttp.ascii("HTTP/1.1 200 OK\r\nContent-Length: " + text.length + "\r\n\r\n"));
                        out.write(text);
                        out.flush();
                }
            }
        });
    }

    static StallingBackend start() throws IOException {
        return new StallingBackend();
    }

    InetSocketAddress address() {
        return server.address();
    }

    int port() {
        return server.port();
    }

    /** Connections accepted so far. */
    int accepted() {
        return server.accepted();
    }

    /** A request, or null at the end of the stream or when the proxy dropped the connection mid-request. */
    private static Request readQuietly(InputStream in) {
        try {
            return RawHttp.readRequest(in);
        } catch (IOException dropped) {
            return null;
        }
    }

    /** Blocks until the proxy closes the connection (or the test socket's read timeout ends the wait). */
    private static void waitForClose(InputStream in) {
        try {
            while (in.read() >= 0) {
                // whatever else the proxy sends is not answered
            }
        } catch (IOException closed) {
            // reset or timeout: done
        }
    }

    @Override
    public void close() {
        server.close();
    }
}
