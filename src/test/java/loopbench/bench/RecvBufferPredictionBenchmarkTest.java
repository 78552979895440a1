package loopbench.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * RecvBufferPredictionBenchmark's simulation reads every byte of every message with every predictor, and
 * what it reports about the predictors (C003-2) is what they do.
 */
class RecvBufferPredictionBenchmarkTest {
    private static final int WARM_UP = 20;
    private static final int MESSAGES = 40;

    static Stream<Arguments> everyCombination() {
        List<Arguments> all = new ArrayList<>();
        for (String arrival : new String[] {"whole", "mss1448"}) {
            for (String predictor : new String[] {"adaptive", "fixed:2048", "halving"}) {
                for (int size : new int[] {1024, 2048, 5120, 10240, 51200, 102400}) {
                    all.add(Arguments.of(predictor, size, arrival));
                }
            }
        }
        return all.stream();
    }

    /** Steady-state totals over {@link #MESSAGES} messages, after {@link #WARM_UP}. */
    private static RecvBufferPredictionBenchmark.Reads run(String predictor, int size, String arrival) {
        return run(predictor, size, arrival, MESSAGES);
    }

    /** Steady-state totals over {@code messages} messages, after {@link #WARM_UP}. */
    private static RecvBufferPredictionBenchmark.Reads run(String predictor, int size, String arrival, int messages) {
        RecvBufferPredictionBenchmark b = new RecvBufferPredictionBenchmark();
        b.predictor = predictor;
        b.messageSize = size;
        b.arrival = arrival;
        b.setUp();
        try {
            RecvBufferPredictionBenchmark.Reads stats = new RecvBufferPredictionBenchmark.Reads();
            stats.reset();
            for (int i = 0; i < WARM_UP; i++) {
                assertEquals(size, b.readMessage(stats));
            }
            stats.reset();
            for (int i = 0; i < messages; i++) {
                assertEquals(size, b.readMessage(stats));
            }
            return stats;
        } finally {
            b.tearDown();
        }
    }

    @ParameterizedTest(name = "{0} {1} {2}")
    @MethodSource("everyCombination")
    void everyByteOfEveryMessageIsRead(String predictor, int size, String arrival) {
        RecvBufferPredictionBenchmark.Reads s = run(predictor, size, arrival);
        assertEquals(MESSAGES, s.messages);
        assertEquals((long) MESSAGES * size, s.bytesRead, "bytes read");
        assertTrue(s.bytesAllocated >= s.bytesRead, "room for every byte read");
        assertEquals(s.buffers, s.reads, "one buffer per read");
        if (predictor.startsWith("fixed:")) {
            assertEquals(0, s.guessChanges, "a fixed buffer never changes size");
            assertEquals(s.buffers * 2048, s.bytesAllocated);
        }
    }

    /**
     * Whole 5k messages: every predictor settles on one buffer size; none jitters. Mina's halving rule waits
     * for a second small read in a row before it halves, and with whole messages there is none.
     */
    @Test
    void wholeMessagesOf5kMakeNoPredictorJitter() {
        for (String predictor : new String[] {"adaptive", "fixed:2048", "halving"}) {
            RecvBufferPredictionBenchmark.Reads s = run(predictor, 5120, "whole");
            assertEquals(0, s.guessChanges, predictor + " guess changes in steady state");
        }
        RecvBufferPredictionBenchmark.Reads halving = run("halving", 5120, "whole");
        assertEquals(MESSAGES, halving.reads, "halving settles on 8 KiB: one read per message");
        assertEquals(MESSAGES * 8192L, halving.bytesAllocated);
    }

    /**
     * Netty's adaptive predictor does jitter on whole messages of exactly one of its sizes: the read that
     * fills a 1 KiB buffer exactly makes it jump to 16 KiB, from which it shrinks back a size at a time.
     */
    @Test
    void wholeMessagesOfExactly1kMakeTheAdaptivePredictorJitter() {
        RecvBufferPredictionBenchmark.Reads adaptive = run("adaptive", 1024, "whole");
        assertTrue(adaptive.guessChanges > MESSAGES / 2, "adaptive changes: " + adaptive.guessChanges);
        assertTrue(adaptive.bytesAllocated > 4L * adaptive.bytesRead, "adaptive allocates: " + adaptive.bytesAllocated);
        RecvBufferPredictionBenchmark.Reads halving = run("halving", 1024, "whole");
        assertEquals(0, halving.guessChanges);
        assertEquals(MESSAGES * 2048L, halving.bytesAllocated, "halving stays at its initial 2 KiB");
    }

    /**
     * 5k messages arriving one 1,448-byte segment per read event (the simulation C003-2's decisive count comes from):
     * the halving predictor jitters - each message's short last segment, second small read in a row, halves the
     * buffer, and the next full segment doubles it back - two changes per message. Netty's adaptive predictor changes
     * its guess too, 10 times every 6 messages (its cycle): adaptive / halving = 5/6 = 0.833 exactly, the ratio that
     * decided C003-2. Over 60 messages (ten cycles) every count is exact.
     */
    @Test
    void segmentSizedReadsOf5kGiveTheExactCountsThatDecideC0032() {
        int messages = 60;
        RecvBufferPredictionBenchmark.Reads halving = run("halving", 5120, "mss1448", messages);
        assertEquals(120, halving.guessChanges, "halving: two changes per message");
        assertEquals(300, halving.reads);
        assertEquals(552_960, halving.bytesAllocated);
        RecvBufferPredictionBenchmark.Reads adaptive = run("adaptive", 5120, "mss1448", messages);
        assertEquals(100, adaptive.guessChanges, "adaptive: 10 changes every 6 messages");
        assertEquals(260, adaptive.reads);
        assertEquals(1_413_120, adaptive.bytesAllocated);
        assertEquals(5.0 / 6.0, (double) adaptive.guessChanges / halving.guessChanges, 0);
        RecvBufferPredictionBenchmark.Reads fixed = run("fixed:2048", 5120, "mss1448", messages);
        assertEquals(0, fixed.guessChanges);
        assertEquals(240, fixed.reads, "four 2 KiB reads per 5 KiB message (1,448 + 1,448 + 1,448 + 776)");
    }
}
