package loopbench.bench;

import com.google.gson.JsonObject;
import loopbench.topology.LinkSpec;
import loopbench.topology.NetnsTopology;
import loopbench.topology.Role;
import loopbench.topology.Topology;

import java.util.EnumSet;
import java.util.List;

/**
 * How one trial's components reach each other, as its {@code topology} and {@code link} parameters say: over this
 * machine's loopback ({@code local}), or each server in a network namespace of its own on a switch, the client
 * (this fork) in its own namespace, every link shaped as {@code link} says ({@code netns}, {@link NetnsTopology}).
 */
final class TrialNetwork implements AutoCloseable {
    private final Topology topology;
    private final LinkSpec link;
    private final List<Role> components;
    private NetnsTopology netns;

    private TrialNetwork(Topology topology, LinkSpec link, List<Role> components) {
        this.topology = topology;
        this.link = link;
        this.components = components;
    }

    /** The parameters, checked: nothing is set up yet. */
    static TrialNetwork of(String topologyParam, String linkParam, List<Role> components) {
        Topology topology = Topology.parse(topologyParam);
        LinkSpec link = LinkSpec.parse(linkParam);
        if (topology == Topology.LOCAL && !LinkSpec.NONE.equals(link.name())) {
            throw new IllegalArgumentException("link '" + link + "' needs topology netns: with topology local every"
                    + " component talks over this machine's loopback, which is not shaped; valid with local: none");
        }
        return new TrialNetwork(topology, link, components);
    }

    /** Sets up the namespaces and links (netns); says on stdout how long it took. */
    void setUp() {
        if (topology == Topology.NETNS) {
            netns = NetnsTopology.create(EnumSet.copyOf(components), link);
            System.out.println("loopbench: " + netns + " set up in " + netns.setupMillis() + " ms");
        }
    }

    /** The namespace {@code role} runs in, or null for this process's own. */
    String namespace(String role) {
        return netns == null ? null : netns.namespace(Role.parse(role));
    }

    /** The options that make a server of {@code role} listen on its host's address (none for local). */
    List<String> listenArgs(String role) {
        return netns == null ? List.of()
                : List.of("--listen", netns.address(Role.parse(role)).getHostAddress() + ":0");
    }

    /** The side file's "topology": the parameters, and for netns each host's address and the setup time. */
    JsonObject toJson() {
        JsonObject o = new JsonObject();
        o.addProperty("name", topology.cliName());
        o.addProperty("link", link.name());
        if (netns != null) {
            JsonObject addresses = new JsonObject();
            JsonObject namespaces = new JsonObject();
            for (Role r : components) {
                addresses.addProperty(r.cliName(), netns.address(r).getHostAddress());
                if (netns.namespace(r) != null) {
                    namespaces.addProperty(r.cliName(), netns.namespace(r));
                }
            }
            o.add("addresses", addresses);
            o.add("namespaces", namespaces);
            o.addProperty("setupMillis", netns.setupMillis());
        }
        return o;
    }

    /** Removes the namespaces and links (after the servers in them stopped); says how long it took. */
    @Override
    public void close() {
        if (netns != null) {
            netns.close();
            System.out.println("loopbench: " + netns + " removed in " + netns.teardownMillis() + " ms");
        }
    }
}
