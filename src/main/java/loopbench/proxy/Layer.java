package loopbench.proxy;

import loopbench.knobs.Knob;

/** What the proxy understands of the traffic (claims C000-1, C000-2). */
public enum Layer implements Knob {
    /** Forward bytes; know nothing of HTTP. */
    L4("4"),
    /** Decode, aggregate, rewrite and re-encode every HTTP request and response. */
    L7("7");

    private final String cliName;

    Layer(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static Layer parse(String value) {
        return Knob.parse(Layer.class, "layer", value);
    }
}
