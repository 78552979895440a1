package loopbench.load;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.DecoderException;

import java.io.IOException;
import java.util.List;

/**
 * Finds where each HTTP/1.1 response ends, checks its status, and tells the {@link Connection}; the response
 * itself is never built. A load generator must cost less per request than the server it loads, so, like wrk
 * (http_parser) and Hyperfoil (its own HTTP/1.1 response parser), this reads only the framing: the status line,
 * Content-Length, Transfer-Encoding: chunked, Connection: close, and skips the body without copying it. Netty's
 * HttpClientCodec would build a header map and content objects for every response. ByteToMessageDecoder keeps the
 * bytes of a line split across reads.
 *
 * <p>Rules (RFC 9112 section 6.3): a 1xx response is interim and skipped; 204 and 304 have no body; chunked wins
 * over Content-Length; without either, the body runs to the end of the connection. Conflicting Content-Length
 * values, a malformed status line or chunk size, or a line over {@value #MAX_LINE} bytes is a protocol error.
 */
final class HttpResponseFramer extends ByteToMessageDecoder {
    static final int MAX_LINE = 16 * 1024;

    private enum State {
        STATUS_LINE, HEADERS, FIXED_BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS, BODY_TO_CLOSE, DONE
    }

    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] CLOSE = ascii("close");

    private final Connection connection;
    private State state = State.STATUS_LINE;
    private int status;
    private long contentLength;
    private boolean chunked;
    private boolean closeAfter;
    private long remaining;
    /** The line {@link #nextLine} took: its first byte and the index after its last (CRLF excluded). */
    private int lineStart;
    private int lineEnd;

    HttpResponseFramer(Connection connection) {
        this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof ByteBuf) {
            connection.readStarted(((ByteBuf) msg).readableBytes());
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        super.channelReadComplete(ctx);
        connection.readComplete();
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.isReadable()) {
            switch (state) {
                case STATUS_LINE: {
                    if (!nextLine(in)) {
                        return;
                    }
                    if (lineEnd == lineStart) {
                        continue; // tolerate an empty line before a response (RFC 9112 section 2.2)
                    }
                    status = parseStatus(in, lineStart, lineEnd);
                    contentLength = -1;
                    chunked = false;
                    closeAfter = false;
                    state = State.HEADERS;
                    break;
                }
                case HEADERS: {
                    if (!nextLine(in)) {
                        return;
                    }
                    if (lineEnd == lineStart) {
                        headersDone();
                    } else {
                        header(in, lineStart, lineEnd);
                    }
                    break;
                }
                case FIXED_BODY:
                case CHUNK_DATA: {
                    int n = (int) Math.min(remaining, in.readableBytes());
                    in.skipBytes(n);
                    remaining -= n;
                    if (remaining > 0) {
                        return;
                    }
                    if (state == State.FIXED_BODY) {
                        complete();
                    } else {
                        state = State.CHUNK_END;
                    }
                    break;
                }
                case CHUNK_SIZE: {
                    if (!nextLine(in)) {
                        return;
                    }
                    long size = parseChunkSize(in, lineStart, lineEnd);
                    if (size == 0) {
                        state = State.TRAILERS;
                    } else {
                        remaining = size;
                        state = State.CHUNK_DATA;
                    }
                    break;
                }
                case CHUNK_END: {
                    if (!nextLine(in)) {
                        return;
                    }
                    if (lineEnd != lineStart) {
                        throw new ProtocolException("chunk data longer than its size");
                    }
                    state = State.CHUNK_SIZE;
                    break;
                }
                case TRAILERS: {
                    if (!nextLine(in)) {
                        return;
                    }
                    if (lineEnd == lineStart) {
                        complete(); // the empty line after the trailer fields
                    }
                    break;
                }
                case BODY_TO_CLOSE:
                case DONE:
                    in.skipBytes(in.readableBytes());
                    return;
                default:
                    throw new AssertionError(state);
            }
        }
    }

    @Override
    protected void decodeLast(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
        if (in.isReadable()) {
            decode(ctx, in, out);
        }
        if (state == State.BODY_TO_CLOSE) {
            closeAfter = true;
            complete(); // the end of the connection is the end of this body
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        super.channelInactive(ctx); // runs decodeLast first
        boolean midResponse = state != State.STATUS_LINE && state != State.DONE;
        connection.inactive(ctx.channel(), midResponse);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        state = State.DONE;
        connection.broken(c instanceof ProtocolException ? ErrorKind.PROTOCOL
                : c instanceof IOException ? ErrorKind.RESET : ErrorKind.PROTOCOL);
    }

    private void headersDone() {
        if (status < 200) {
            state = State.STATUS_LINE; // 1xx: an interim response; the final one follows
            return;
        }
        if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (status == 204 || status == 304) {
            complete();
        } else if (contentLength >= 0) {
            remaining = contentLength;
            state = State.FIXED_BODY;
            if (remaining == 0) {
                complete();
            }
        } else {
            state = State.BODY_TO_CLOSE;
        }
    }

    private void complete() {
        boolean close = closeAfter;
        state = close ? State.DONE : State.STATUS_LINE;
        connection.responseDone(status >= 200 && status < 300 ? null : ErrorKind.STATUS, close);
    }

    private void header(ByteBuf in, int start, int end) {
        int colon = in.indexOf(start, end, (byte) ':');
        if (colon <= start) {
            throw new ProtocolException("malformed header line");
        }
        int nameEnd = colon;
        int v = colon + 1;
        while (v < end && isSpace(in.getByte(v))) {
            v++;
        }
        int vEnd = end;
        while (vEnd > v && isSpace(in.getByte(vEnd - 1))) {
            vEnd--;
        }
        if (equalsIgnoreCase(in, start, nameEnd, CONTENT_LENGTH)) {
            long length = parseDecimal(in, v, vEnd);
            if (contentLength >= 0 && contentLength != length) {
                throw new ProtocolException("conflicting Content-Length values");
            }
            contentLength = length;
        } else if (equalsIgnoreCase(in, start, nameEnd, TRANSFER_ENCODING)) {
            // chunked must be the last coding; anything else leaves the length to the end of the connection
            chunked = endsWithTokenIgnoreCase(in, v, vEnd, CHUNKED);
            if (!chunked) {
                closeAfter = true;
            }
        } else if (equalsIgnoreCase(in, start, nameEnd, CONNECTION)) {
            if (containsTokenIgnoreCase(in, v, vEnd, CLOSE)) {
                closeAfter = true;
            }
        }
    }

    /**
     * Takes the next whole line: {@link #lineStart} and {@link #lineEnd} bound it without its CRLF (or bare LF), and
     * the reader index moves past it. False if the line has not all come yet (the decoder keeps the bytes).
     */
    private boolean nextLine(ByteBuf in) {
        int lf = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) '\n');
        if (lf < 0) {
            if (in.readableBytes() > MAX_LINE) {
                throw new ProtocolException("line longer than " + MAX_LINE + " bytes");
            }
            return false;
        }
        lineStart = in.readerIndex();
        lineEnd = lf > lineStart && in.getByte(lf - 1) == '\r' ? lf - 1 : lf;
        in.readerIndex(lf + 1);
        return true;
    }

    /** HTTP/1.x SP 3DIGIT [SP reason] */
    private static int parseStatus(ByteBuf in, int start, int end) {
        if (end - start < 12 || in.getByte(start) != 'H' || in.getByte(start + 1) != 'T' || in.getByte(start + 2) != 'T'
                || in.getByte(start + 3) != 'P' || in.getByte(start + 4) != '/' || in.getByte(start + 5) != '1'
                || in.getByte(start + 6) != '.' || in.getByte(start + 8) != ' ') {
            throw new ProtocolException("malformed status line");
        }
        int s = 0;
        for (int i = start + 9; i < start + 12; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9') {
                throw new ProtocolException("malformed status code");
            }
            s = s * 10 + (b - '0');
        }
        if (end > start + 12 && in.getByte(start + 12) != ' ') {
            throw new ProtocolException("malformed status line");
        }
        return s;
    }

    private static long parseDecimal(ByteBuf in, int start, int end) {
        if (start == end || end - start > 18) {
            throw new ProtocolException("malformed Content-Length");
        }
        long n = 0;
        for (int i = start; i < end; i++) {
            byte b = in.getByte(i);
            if (b < '0' || b > '9') {
                throw new ProtocolException("malformed Content-Length");
            }
            n = n * 10 + (b - '0');
        }
        return n;
    }

    /** chunk-size [; extensions] */
    private static long parseChunkSize(ByteBuf in, int start, int end) {
        long n = 0;
        int digits = 0;
        for (int i = start; i < end; i++) {
            byte b = in.getByte(i);
            int d = Character.digit(b, 16);
            if (d < 0) {
                if (b == ';' || b == ' ' || b == '\t') {
                    break;
                }
                throw new ProtocolException("malformed chunk size");
            }
            if (++digits > 15) {
                throw new ProtocolException("chunk size too large");
            }
            n = n * 16 + d;
        }
        if (digits == 0) {
            throw new ProtocolException("malformed chunk size");
        }
        return n;
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t';
    }

    private static boolean equalsIgnoreCase(ByteBuf in, int start, int end, byte[] lower) {
        if (end - start != lower.length) {
            return false;
        }
        for (int i = 0; i < lower.length; i++) {
            if (toLower(in.getByte(start + i)) != lower[i]) {
                return false;
            }
        }
        return true;
    }

    /** The comma-separated list ends with {@code token} (e.g. "gzip, chunked"). */
    private static boolean endsWithTokenIgnoreCase(ByteBuf in, int start, int end, byte[] token) {
        int tStart = end - token.length;
        if (tStart < start || !equalsIgnoreCase(in, tStart, end, token)) {
            return false;
        }
        int i = tStart - 1;
        while (i >= start && isSpace(in.getByte(i))) {
            i--;
        }
        return i < start || in.getByte(i) == ',';
    }

    private static boolean containsTokenIgnoreCase(ByteBuf in, int start, int end, byte[] token) {
        int tokenStart = start;
        for (int i = start; i <= end; i++) {
            if (i == end || in.getByte(i) == ',') {
                int s = tokenStart;
                int e = i;
                while (s < e && isSpace(in.getByte(s))) {
                    s++;
                }
                while (e > s && isSpace(in.getByte(e - 1))) {
                    e--;
                }
                if (equalsIgnoreCase(in, s, e, token)) {
                    return true;
                }
                tokenStart = i + 1;
            }
        }
        return false;
    }

    private static byte toLower(byte b) {
        return b >= 'A' && b <= 'Z' ? (byte) (b + 32) : b;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** A response the generator cannot frame. */
    static final class ProtocolException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ProtocolException(String message) {
            super(message, null, false, false);
        }
    }
}
