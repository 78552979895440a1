package loopbench.load;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * What the load generator loads: an HTTP/1.1 server ({@code http://HOST:PORT/PATH}) or a TCP echo server
 * ({@code tcp://HOST:PORT}).
 *
 * @param protocol HTTP or ECHO
 * @param host     host name or address, as given
 * @param port     TCP port
 * @param path     the request target of every HTTP request ({@code /} when the URL has none); empty for echo
 */
public record Target(Protocol protocol, String host, int port, String path) {

    public enum Protocol { HTTP, ECHO }

    public static final String VALID = "http://HOST:PORT/PATH (HTTP/1.1 keep-alive) or tcp://HOST:PORT (echo)";

    public static Target parse(String url) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("bad target '" + url + "': " + e.getReason() + "; expected " + VALID);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        Protocol protocol;
        switch (scheme) {
            case "http":
                protocol = Protocol.HTTP;
                break;
            case "tcp":
                protocol = Protocol.ECHO;
                break;
            case "https":
                throw new IllegalArgumentException("bad target '" + url + "': https is not supported (the generator "
                        + "loads plain HTTP/1.1 or TCP echo); expected " + VALID);
            default:
                throw new IllegalArgumentException("bad target '" + url + "': unknown scheme '" + scheme
                        + "'; valid schemes: http, tcp; expected " + VALID);
        }
        if (uri.getHost() == null || uri.getPort() < 1) {
            throw new IllegalArgumentException("bad target '" + url + "': needs a host and a port; expected " + VALID);
        }
        if (uri.getPort() > 65535) {
            throw new IllegalArgumentException("bad target '" + url + "': port " + uri.getPort()
                    + " is out of range 1..65535");
        }
        String path = "";
        if (protocol == Protocol.HTTP) {
            path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            if (uri.getRawQuery() != null) {
                path += "?" + uri.getRawQuery();
            }
        } else if (uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !"/".equals(uri.getRawPath())) {
            throw new IllegalArgumentException("bad target '" + url + "': a tcp:// target has no path; expected "
                    + VALID);
        }
        String host = uri.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new Target(protocol, host, uri.getPort(), path);
    }

    public InetSocketAddress address() {
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve host '" + host + "' of target " + this);
        }
        return a;
    }

    /** The Host header of HTTP requests. */
    String hostHeader() {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    @Override
    public String toString() {
        return (protocol == Protocol.HTTP ? "http://" : "tcp://") + hostHeader() + path;
    }
}
