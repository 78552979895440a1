package loopbench.load;

/**
 * Why a request failed. Every failed request counts once, under one kind, and never as throughput; a
 * connection that fails takes the requests it had in flight with it (each counted under the kind that broke
 * the connection).
 */
public enum ErrorKind {
    /** The connection could not be made: refused, unreachable, or the connect timed out. */
    CONNECT("connect", "could not connect"),
    /** The peer reset the connection (RST), or another I/O error broke it. */
    RESET("reset", "connection reset or broken"),
    /** The peer closed the connection cleanly while requests were outstanding. */
    CLOSED("closed", "closed by the peer with requests outstanding"),
    /** No complete response within the request timeout. */
    TIMEOUT("timeout", "no response within the timeout"),
    /** An HTTP response whose status was not 2xx. */
    STATUS("status", "non-2xx status"),
    /** The connection ended in the middle of a response body (or an echoed message). */
    SHORT("short", "short body"),
    /** Echo: bytes came back different from the bytes sent. */
    CORRUPT("corrupt", "echoed bytes differ from those sent"),
    /** An HTTP response that could not be parsed, or bytes nobody asked for. */
    PROTOCOL("protocol", "malformed response or unsolicited bytes");

    private final String key;
    private final String description;

    ErrorKind(String key, String description) {
        this.key = key;
        this.description = description;
    }

    /** The name in JSON and in the summary. */
    public String key() {
        return key;
    }

    public String description() {
        return description;
    }
}
