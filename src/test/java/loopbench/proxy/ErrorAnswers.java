package loopbench.proxy;

import io.netty.handler.codec.http.HttpResponseStatus;
import loopbench.testing.RawHttp.Response;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** What every error answer of the proxy must look like: its status, a fixed text, nothing about the inside. */
final class ErrorAnswers {
    private ErrorAnswers() {
    }

    /**
     * {@code r} is the fixed answer for {@code status} (e.g. {@code 502 Bad Gateway}), with no address, port, exception
     * or class name in it; {@code ports} are ports that must not show (the backend's).
     */
    static void assertFixed(Response r, int status, int... ports) {
        assertEquals(status, r.status(), r::toString);
        String body = r.bodyText();
        assertEquals(HttpResponseStatus.valueOf(status) + "\n", body, r::toString);
        assertEquals(String.valueOf(r.body().length), r.header("Content-Length"), r::toString);
        for (String secret : new String[] {"127.0.0.1", "localhost", "Exception", "exception", "java.", "io.netty"}) {
            assertFalse(body.contains(secret), () -> "error body tells '" + secret + "': " + body);
        }
        for (int port : ports) {
            assertFalse(body.contains(String.valueOf(port)), () -> "error body tells port " + port + ": " + body);
        }
    }
}
