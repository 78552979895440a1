package loopbench.knobs;

/** A native transport was asked for on a machine (kernel, libc, seccomp policy) that cannot run it. */
public final class TransportUnavailableException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public TransportUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
