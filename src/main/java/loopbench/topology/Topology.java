package loopbench.topology;

import loopbench.knobs.Knob;

/** How the components of an end-to-end run reach each other: the {@code topology} parameter. */
public enum Topology implements Knob {
    /** Over this machine's loopback, every process in this network namespace. */
    LOCAL("local"),
    /**
     * Every server in a network namespace of its own, the client in this one, each joined to a switch by a veth
     * pair of its own ({@link NetnsTopology}): a link that can be shaped.
     */
    NETNS("netns");

    private final String cliName;

    Topology(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static Topology parse(String value) {
        return Knob.parse(Topology.class, "topology", value);
    }
}
