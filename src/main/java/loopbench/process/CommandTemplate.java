package loopbench.process;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command line of a gateway the benchmarks measure instead of loopbench's own proxy, with placeholders the run
 * fills in: {@code {listenPort}} (required: a free port on 127.0.0.1 the gateway must listen on),
 * {@code {backendHost}} and {@code {backendPort}} (the origin it must forward to). Run by {@code /bin/sh -c}, so a
 * template may be a small script (write a configuration file, then start the gateway in the foreground). Only
 * {@code {name}} with a letter right after the brace is a placeholder, so the braces of an nginx or HAProxy
 * configuration written inline stay as they are.
 */
public record CommandTemplate(String template) {
    public static final String LISTEN_PORT = "listenPort";
    public static final String BACKEND_HOST = "backendHost";
    public static final String BACKEND_PORT = "backendPort";
    public static final List<String> PLACEHOLDERS = List.of(LISTEN_PORT, BACKEND_HOST, BACKEND_PORT);
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{([A-Za-z][A-Za-z0-9]*)}");

    public CommandTemplate {
        if (template == null || template.isBlank()) {
            throw new IllegalArgumentException("the command template is empty; it needs {" + LISTEN_PORT
                    + "} and may use " + placeholderList());
        }
        Set<String> used = used(template);
        List<String> unknown = new ArrayList<>(used);
        unknown.removeAll(PLACEHOLDERS);
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown placeholder {" + String.join("}, {", unknown)
                    + "} in the command template '" + template + "'; valid: " + placeholderList());
        }
        if (!used.contains(LISTEN_PORT)) {
            throw new IllegalArgumentException("the command template '" + template + "' has no {" + LISTEN_PORT
                    + "}: the run picks the port and waits until it accepts; valid placeholders: " + placeholderList());
        }
    }

    /**
     * The template in system property {@code property}; a clear error naming the property, the placeholders and an
     * example when it is not set.
     */
    public static CommandTemplate fromProperty(String property, String whatFor) {
        String value = System.getProperty(property);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(whatFor + " needs -D" + property + "='COMMAND': a command template with "
                    + placeholderList() + ", e.g. -D" + property + "='java -jar target/peers/zuul.jar --listen "
                    + "127.0.0.1:{listenPort} --backend {backendHost}:{backendPort}'");
        }
        try {
            return new CommandTemplate(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("-D" + property + ": " + e.getMessage(), e);
        }
    }

    /** The command with every placeholder filled in. */
    public String render(int listenPort, String backendHost, int backendPort) {
        Map<String, String> values = Map.of(LISTEN_PORT, Integer.toString(listenPort), BACKEND_HOST, backendHost,
                BACKEND_PORT, Integer.toString(backendPort));
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(sb, Matcher.quoteReplacement(values.get(m.group(1))));
        }
        m.appendTail(sb);
        return sb.toString();
    }

    private static Set<String> used(String template) {
        Set<String> names = new LinkedHashSet<>();
        Matcher m = PLACEHOLDER.matcher(template);
        while (m.find()) {
            names.add(m.group(1));
        }
        return names;
    }

    private static String placeholderList() {
        return "{" + String.join("}, {", PLACEHOLDERS) + "}";
    }
}
