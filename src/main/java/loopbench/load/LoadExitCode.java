package loopbench.load;

/** The {@code load} command's exit status, from its result. */
public final class LoadExitCode {
    /** No request failed. */
    public static final int OK = 0;
    /** Some requests failed (in the measured period or the warm-up): the summary says how many and why. */
    public static final int REQUESTS_FAILED = 1;
    /** For the command's --help. */
    public static final String DESCRIPTION = "Exit status: 0 no request failed, 1 some failed (the summary says how "
            + "many and why), 2 bad usage.";

    private LoadExitCode() {
    }

    public static int of(LoadResult r) {
        return r.errorsTotal() + r.warmupErrors() > 0 ? REQUESTS_FAILED : OK;
    }
}
