package loopbench.proxy;

/**
 * Stands, in the stream of requests, for one whose body was larger than the aggregator's limit: answered
 * 413 in its turn, after the responses to the requests pipelined before it.
 */
final class OversizedRequest {
    static final OversizedRequest INSTANCE = new OversizedRequest();

    private OversizedRequest() {
    }
}
