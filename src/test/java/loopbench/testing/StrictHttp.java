package loopbench.testing;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A deliberately unforgiving HTTP/1.1 request parser for what a proxy sent its backend (RFC 9112): every line ends
 * in CRLF, no obs-fold, no whitespace before a colon, a field name is a token, a request is framed by exactly one of
 * a single Content-Length or {@code Transfer-Encoding: chunked} (nothing else), and chunk sizes are plain hex. A
 * message that any lenient parser could frame differently fails the test. Shares no code with the proxy.
 */
public final class StrictHttp {
    private StrictHttp() {
    }

    /** A request as framed strictly; {@code complete} is false for a last request cut off by the connection's end. */
    public record Request(String method, String target, List<String[]> headers, byte[] body, boolean complete) {
        public String header(String name) {
            for (String[] h : headers) {
                if (h[0].equalsIgnoreCase(name)) {
                    return h[1];
                }
            }
            return null;
        }
    }

    /**
     * Parses every request in {@code bytes} (one connection's worth); a last request the connection's end cut off
     * is returned with {@code complete == false}. Fails the test on anything ambiguous.
     */
    public static List<Request> parseRequests(byte[] bytes) {
        List<Request> requests = new ArrayList<>();
        Cursor c = new Cursor(bytes);
        while (c.pos < bytes.length) {
            int start = c.pos;
            Request r = parseOne(c);
            if (r == null) {
                // Cut off: keep what is known of it, if the request line itself arrived.
                String partial = new String(bytes, start, bytes.length - start, StandardCharsets.ISO_8859_1);
                int sp1 = partial.indexOf(' ');
                int sp2 = sp1 < 0 ? -1 : partial.indexOf(' ', sp1 + 1);
                requests.add(new Request(sp1 < 0 ? partial : partial.substring(0, sp1),
                        sp2 < 0 ? "" : partial.substring(sp1 + 1, sp2), List.of(), new byte[0], false));
                break;
            }
            requests.add(r);
        }
        return requests;
    }

    private static final class Cursor {
        final byte[] b;
        int pos;

        Cursor(byte[] b) {
            this.b = b;
        }

        /** The next CRLF-terminated line, or null if the bytes end first; a bare CR or LF fails. */
        String line() {
            for (int i = pos; i < b.length; i++) {
                if (b[i] == '\n') {
                    fail("bare LF at byte " + i + ": " + context(i));
                }
                if (b[i] == '\r') {
                    if (i + 1 >= b.length) {
                        return null;
                    }
                    if (b[i + 1] != '\n') {
                        fail("bare CR at byte " + i + ": " + context(i));
                    }
                    String line = new String(b, pos, i - pos, StandardCharsets.ISO_8859_1);
                    pos = i + 2;
                    return line;
                }
            }
            return null;
        }

        String context(int i) {
            int from = Math.max(0, i - 60);
            int to = Math.min(b.length, i + 20);
            return "'" + new String(b, from, to - from, StandardCharsets.ISO_8859_1)
                    .replace("\r", "\\r").replace("\n", "\\n") + "'";
        }
    }

    private static Request parseOne(Cursor c) {
        String requestLine = c.line();
        if (requestLine == null) {
            return null;
        }
        String[] parts = requestLine.split(" ", -1);
        if (parts.length != 3 || !parts[0].matches("[A-Z]+") || parts[1].isEmpty() || !parts[2].equals("HTTP/1.1")) {
            fail("not a strict HTTP/1.1 request line: '" + requestLine + "'");
        }
        List<String[]> headers = new ArrayList<>();
        while (true) {
            String line = c.line();
            if (line == null) {
                return null;
            }
            if (line.isEmpty()) {
                break;
            }
            if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                fail("obs-fold (a line starting with whitespace) in the request to the backend: '" + line + "'");
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                fail("header line without a name and colon: '" + line + "'");
            }
            String name = line.substring(0, colon);
            if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                fail("header name is not a token (whitespace before the colon?): '" + line + "'");
            }
            headers.add(new String[] {name, line.substring(colon + 1).trim()});
        }
        List<String> lengths = new ArrayList<>();
        List<String> codings = new ArrayList<>();
        for (String[] h : headers) {
            if (h[0].equalsIgnoreCase("content-length")) {
                lengths.add(h[1]);
            } else if (h[0].equalsIgnoreCase("transfer-encoding")) {
                codings.add(h[1]);
            }
        }
        if (!lengths.isEmpty() && !codings.isEmpty()) {
            fail("both Content-Length " + lengths + " and Transfer-Encoding " + codings + " sent to the backend");
        }
        if (lengths.size() > 1) {
            fail("more than one Content-Length sent to the backend: " + lengths);
        }
        byte[] body;
        if (!codings.isEmpty()) {
            if (codings.size() != 1 || !codings.get(0).toLowerCase(Locale.ROOT).equals("chunked")) {
                fail("Transfer-Encoding other than exactly 'chunked' sent to the backend: " + codings);
            }
            body = chunkedBody(c);
        } else if (!lengths.isEmpty()) {
            if (!lengths.get(0).matches("[0-9]{1,9}")) {
                fail("Content-Length is not a plain number: '" + lengths.get(0) + "'");
            }
            int n = Integer.parseInt(lengths.get(0));
            if (c.pos + n > c.b.length) {
                return null;
            }
            body = java.util.Arrays.copyOfRange(c.b, c.pos, c.pos + n);
            c.pos += n;
        } else {
            body = new byte[0];
        }
        if (body == null) {
            return null;
        }
        return new Request(parts[0], parts[1], headers, body, true);
    }

    private static byte[] chunkedBody(Cursor c) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        while (true) {
            String sizeLine = c.line();
            if (sizeLine == null) {
                return null;
            }
            if (!sizeLine.matches("[0-9A-Fa-f]{1,7}")) {
                fail("chunk size line is not plain hex: '" + sizeLine + "'");
            }
            int size = Integer.parseInt(sizeLine, 16);
            if (size == 0) {
                while (true) { // trailers, then the empty line
                    String t = c.line();
                    if (t == null) {
                        return null;
                    }
                    if (t.isEmpty()) {
                        return out.toByteArray();
                    }
                }
            }
            if (c.pos + size + 2 > c.b.length) {
                return null;
            }
            out.write(c.b, c.pos, size);
            c.pos += size;
            if (c.b[c.pos] != '\r' || c.b[c.pos + 1] != '\n') {
                fail("chunk data not followed by CRLF: " + c.context(c.pos));
            }
            c.pos += 2;
        }
    }
}
