package loopbench.echo;

import loopbench.knobs.Knob;

/** Where the echo handler runs (claim C003-3). */
public enum EchoExecutor implements Knob {
    /** On the channel's event loop. */
    NONE("none"),
    /** On a DefaultEventExecutorGroup the handler is bound to, as the C003 article's Netty 3 executor did. */
    GROUP("group");

    private final String cliName;

    EchoExecutor(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static EchoExecutor parse(String value) {
        return Knob.parse(EchoExecutor.class, "executor", value);
    }
}
