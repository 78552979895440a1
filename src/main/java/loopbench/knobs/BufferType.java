package loopbench.knobs;

/** Whether the allocator hands out direct (off-heap) or heap buffers by default. */
public enum BufferType implements Knob {
    DIRECT("direct"),
    HEAP("heap");

    private final String cliName;

    BufferType(String cliName) {
        this.cliName = cliName;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static BufferType parse(String value) {
        return Knob.parse(BufferType.class, "buffer type", value);
    }
}
