package loopbench.load;

/**
 * One second of a run: the requests that completed in it (successfully), the requests that failed in it, and the
 * corrected latency of its requests. The last second of a run may be shorter ({@code durationSeconds} < 1).
 *
 * @param second          1 for the first second of the measured period
 * @param durationSeconds how long this second was (1, except the last one)
 * @param requests        successful requests completed in it
 * @param errors          requests that failed in it
 */
public record PerSecond(int second, double durationSeconds, long requests, long errors, double p50Micros,
                        double p99Micros, double maxMicros) {

    public double requestsPerSecond() {
        return durationSeconds <= 0 ? 0 : requests / durationSeconds;
    }
}
