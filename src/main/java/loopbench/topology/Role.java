package loopbench.topology;

import loopbench.knobs.Knob;

/**
 * The components of an end-to-end run, each a process of its own: the load generator (the client: the JMH fork, or
 * {@code loopbench load}) and the servers it loads. Spelled as the per-component figures name them
 * ({@code e2e.proxy.cpu}, ...).
 */
public enum Role implements Knob {
    CLIENT("client"),
    PROXY("proxy"),
    ORIGIN("origin"),
    ECHO("echo");

    private final String cliName;

    Role(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    @Override
    public String toString() {
        return cliName;
    }

    public static Role parse(String value) {
        return Knob.parse(Role.class, "role", value);
    }
}
