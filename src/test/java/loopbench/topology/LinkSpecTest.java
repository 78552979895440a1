package loopbench.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The link parameter: a rate for tc tbf, a delay for netem, or none. */
class LinkSpecTest {

    @Test
    void ratesAndDelays() {
        assertFalse(LinkSpec.parse("none").shaped());
        assertEquals(1_000_000_000L, LinkSpec.parse("1gbit").bitsPerSecond());
        assertEquals("100000000bit", LinkSpec.parse("100mbit").tcRate());
        assertEquals(2_500_000_000L, LinkSpec.parse("2.5gbit").bitsPerSecond());
        assertEquals(500_000L, LinkSpec.parse("500kbit").bitsPerSecond());
        assertNull(LinkSpec.parse("1gbit").delay());
        LinkSpec both = LinkSpec.parse("1gbit+5ms");
        assertEquals(Duration.ofMillis(5), both.delay());
        assertEquals("5000us", both.tcDelay());
        assertEquals("1gbit+5ms", both.name());
        LinkSpec delayOnly = LinkSpec.parse("200us");
        assertFalse(delayOnly.shaped());
        assertEquals(Duration.ofNanos(200_000), delayOnly.delay());
    }

    @Test
    void theBucketHoldsAMillisecondAndAtLeastTwoFrames() {
        assertEquals(125_000, LinkSpec.parse("1gbit").burstBytes());
        assertEquals(12_500, LinkSpec.parse("100mbit").burstBytes());
        assertEquals(3028, LinkSpec.parse("1mbit").burstBytes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "fast", "1gbps", "1Gbit", "1gbit+2gbit", "5ms+6ms", "1kbit", "1gbit+", "-1mbit"})
    void aBadLinkNamesItselfAndTheValidForms(String bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LinkSpec.parse(bad));
        assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains(LinkSpec.FORMS), e.getMessage());
    }
}
