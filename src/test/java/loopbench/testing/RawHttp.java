package loopbench.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tests' oracle: a deliberately simple, blocking HTTP/1.1 client (and request parser, for backends the tests
 * write themselves) over plain {@link Socket}s. It shares no code with the servers under test. It writes exactly the
 * bytes it is given, so it can pipeline (N requests in one write, N responses read in order), send malformed
 * requests, and talk to the L4 proxy as a plain byte stream.
 */
public final class RawHttp {
    /** Every read on a test socket gives up after this long: a hang fails the test instead of hanging CI. */
    public static final int SO_TIMEOUT_MILLIS = 30_000;
    private static final int MAX_LINE = 64 * 1024;

    private RawHttp() {
    }

    // ------------------------------------------------------------------ requests

    /** {@code GET path HTTP/1.1} with a Host header and nothing else. */
    public static byte[] get(String path) {
        return request("GET", path, null);
    }

    public static byte[] head(String path) {
        return request("HEAD", path, null);
    }

    /** {@code POST path HTTP/1.1} with Content-Length and {@code body}. */
    public static byte[] post(String path, byte[] body) {
        return request("POST", path, body);
    }

    /**
     * A request with a Host header, Content-Length when {@code body} is not null, and {@code extraHeaders}
     * ("Name: value" strings) after them.
     */
    public static byte[] request(String method, String path, byte[] body, String... extraHeaders) {
        StringBuilder sb = new StringBuilder();
        sb.append(method).append(' ').append(path).append(" HTTP/1.1\r\n");
        sb.append("Host: loopbench.test\r\n");
        if (body != null) {
            sb.append("Content-Length: ").append(body.length).append("\r\n");
        }
        for (String h : extraHeaders) {
            sb.append(h).append("\r\n");
        }
        sb.append("\r\n");
        byte[] head = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
        return body == null ? head : concat(head, body);
    }

    public static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** Distinct, position-dependent bytes for request {@code id}: misrouted or shifted bytes show up. */
    public static byte[] uniqueBody(int id, int size) {
        byte[] b = new byte[size];
        long x = 0x9E3779B97F4A7C15L * (id + 1);
        for (int i = 0; i < size; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            b[i] = (byte) x;
        }
        return b;
    }

    // ------------------------------------------------------------------ messages

    /** Header fields in order of arrival; names compared case-insensitively. */
    public record Headers(List<Map.Entry<String, String>> fields) {
        /** The first value of {@code name}, or null. */
        public String get(String name) {
            for (Map.Entry<String, String> f : fields) {
                if (f.getKey().equalsIgnoreCase(name)) {
                    return f.getValue();
                }
            }
            return null;
        }

        public List<String> all(String name) {
            List<String> values = new ArrayList<>();
            for (Map.Entry<String, String> f : fields) {
                if (f.getKey().equalsIgnoreCase(name)) {
                    values.add(f.getValue());
                }
            }
            return values;
        }

        /** Whether some value of {@code name} contains {@code token} (comma-separated, case-insensitive). */
        public boolean hasToken(String name, String token) {
            for (String v : all(name)) {
                for (String t : v.split(",")) {
                    if (t.trim().equalsIgnoreCase(token)) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    public record Response(String version, int status, String reason, Headers headers, byte[] body) {
        public String header(String name) {
            return headers.get(name);
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        @Override
        public String toString() {
            return version + " " + status + " " + reason + " " + headers.fields() + " body=" + body.length + " bytes"
                    + (body.length <= 600 ? " '" + bodyText().trim() + "'" : "");
        }
    }

    public record Request(String method, String target, String version, Headers headers, byte[] body) {
        public String header(String name) {
            return headers.get(name);
        }
    }

    // ------------------------------------------------------------------ parsing

    /** Reads one response to a request that was not HEAD. */
    public static Response readResponse(InputStream in) throws IOException {
        return readResponse(in, false);
    }

    /**
     * Reads one response: status line, headers, then a body of Content-Length bytes, chunked, or up to EOF
     * when neither is given. 1xx responses are skipped. {@code toHead}: the request was HEAD (no body).
     */
    public static Response readResponse(InputStream in, boolean toHead) throws IOException {
        while (true) {
            String statusLine = readLine(in);
            if (statusLine == null) {
                throw new EOFException("connection closed before a response");
            }
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
                throw new IOException("not an HTTP status line: '" + statusLine + "'");
            }
            int status = Integer.parseInt(parts[1]);
            Headers headers = readHeaders(in);
            if (status >= 100 && status < 200) {
                continue;
            }
            byte[] body;
            if (toHead || status == 204 || status == 304) {
                body = new byte[0];
            } else {
                body = readBody(in, headers, true);
            }
            return new Response(parts[0], status, parts.length > 2 ? parts[2] : "", headers, body);
        }
    }

    /** Reads one request, or returns null if the connection closed cleanly before its first byte. */
    public static Request readRequest(InputStream in) throws IOException {
        String line = readLine(in);
        if (line == null) {
            return null;
        }
        String[] parts = line.split(" ");
        if (parts.length != 3) {
            throw new IOException("not an HTTP request line: '" + line + "'");
        }
        Headers headers = readHeaders(in);
        byte[] body = readBody(in, headers, false);
        return new Request(parts[0], parts[1], parts[2], headers, body);
    }

    private static Headers readHeaders(InputStream in) throws IOException {
        List<Map.Entry<String, String>> fields = new ArrayList<>();
        while (true) {
            String line = readLine(in);
            if (line == null) {
                throw new EOFException("connection closed inside a header block");
            }
            if (line.isEmpty()) {
                return new Headers(fields);
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("bad header line: '" + line + "'");
            }
            fields.add(Map.entry(line.substring(0, colon).trim(), line.substring(colon + 1).trim()));
        }
    }

    private static byte[] readBody(InputStream in, Headers headers, boolean untilEofIfUnframed) throws IOException {
        if (headers.hasToken("Transfer-Encoding", "chunked")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            while (true) {
                String sizeLine = readLine(in);
                if (sizeLine == null) {
                    throw new EOFException("connection closed inside a chunked body");
                }
                int semi = sizeLine.indexOf(';');
                int size = Integer.parseInt((semi >= 0 ? sizeLine.substring(0, semi) : sizeLine).trim(), 16);
                if (size == 0) {
                    readHeaders(in); // trailers
                    return out.toByteArray();
                }
                out.writeBytes(readExactly(in, size));
                if (!"".equals(readLine(in))) {
                    throw new IOException("chunk not followed by CRLF");
                }
            }
        }
        String length = headers.get("Content-Length");
        if (length != null) {
            return readExactly(in, Integer.parseInt(length.trim()));
        }
        return untilEofIfUnframed ? in.readAllBytes() : new byte[0];
    }

    public static byte[] readExactly(InputStream in, int n) throws IOException {
        byte[] b = new byte[n];
        int off = 0;
        while (off < n) {
            int r = in.read(b, off, n - off);
            if (r < 0) {
                throw new EOFException("connection closed after " + off + " of " + n + " bytes");
            }
            off += r;
        }
        return b;
    }

    /** A CRLF-terminated line without its CRLF (a bare LF also ends it), or null at EOF before any byte. */
    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream(64);
        while (true) {
            int c = in.read();
            if (c < 0) {
                if (line.size() == 0) {
                    return null;
                }
                throw new EOFException("connection closed inside a line: '"
                        + line.toString(StandardCharsets.ISO_8859_1) + "'");
            }
            if (c == '\n') {
                byte[] b = line.toByteArray();
                int len = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
                return new String(b, 0, len, StandardCharsets.ISO_8859_1);
            }
            if (line.size() >= MAX_LINE) {
                throw new IOException("line longer than " + MAX_LINE + " bytes");
            }
            line.write(c);
        }
    }

    // ------------------------------------------------------------------ connections

    /** A client connection to 127.0.0.1:port with a read timeout. */
    public static Conn open(int port) throws IOException {
        return new Conn(new InetSocketAddress("127.0.0.1", port));
    }

    /** A client connection to {@code address} with a read timeout. */
    public static Conn open(InetSocketAddress address) throws IOException {
        return new Conn(address);
    }

    public static final class Conn implements AutoCloseable {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;

        private Conn(InetSocketAddress address) throws IOException {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(SO_TIMEOUT_MILLIS);
            socket.connect(address, SO_TIMEOUT_MILLIS);
            in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            out = socket.getOutputStream();
        }

        public Socket socket() {
            return socket;
        }

        public InputStream in() {
            return in;
        }

        public void send(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        public Response read() throws IOException {
            return readResponse(in, false);
        }

        public Response readToHead() throws IOException {
            return readResponse(in, true);
        }

        /** Sends one request and reads its response. */
        public Response exchange(byte[] request) throws IOException {
            send(request);
            return read();
        }

        /**
         * Writes {@code bytes} from another thread, so that this thread can read responses meanwhile (a client
         * that pipelined a lot and only then read would deadlock against any server that applies backpressure).
         * {@code progress} (may be null) counts the bytes written so far.
         */
        public CompletableFuture<Void> sendInBackground(byte[] bytes, AtomicLong progress) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    int chunk = 64 * 1024;
                    for (int off = 0; off < bytes.length; off += chunk) {
                        int n = Math.min(chunk, bytes.length - off);
                        out.write(bytes, off, n);
                        if (progress != null) {
                            progress.addAndGet(n);
                        }
                    }
                    out.flush();
                    done.complete(null);
                } catch (Throwable e) {
                    done.completeExceptionally(e);
                }
            }, "test-writer");
            t.setDaemon(true);
            t.start();
            return done;
        }

        /**
         * Whether the peer closed the connection: true when a read returns EOF or the connection was reset,
         * false if {@code unexpected} bytes arrived instead; a read timeout throws.
         */
        public boolean closedByPeer() throws IOException {
            try {
                int b = in.read();
                return b < 0;
            } catch (SocketTimeoutException e) {
                throw e;
            } catch (SocketException e) {
                return true; // reset: closed too
            }
        }

        public void shutdownOutput() throws IOException {
            socket.shutdownOutput();
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing
            }
        }
    }

    /** Waits for {@code f}, failing (not hanging) after {@code seconds}. */
    public static <T> T await(CompletableFuture<T> f, int seconds) throws Exception {
        try {
            return f.get(seconds, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw e;
        }
    }
}
