package loopbench.claims;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A resized group judges each run against the rounds the profile asked of it when the run was made. */
class GroupTest {
    private final Group resized = Group.of("echo-1k", 6).resizedFrom(3, "20261126T115000Z");

    @Test
    void runsBeforeTheResizeWereAskedTheEarlierRounds() {
        assertEquals(3, resized.roundsAsked("20261126T100106Z-b9cb"));
        assertEquals(6, resized.roundsAsked("20261126T115000Z-0000"));
        assertEquals(6, resized.roundsAsked("20261127T090000Z-a1b2"));
    }

    @Test
    void resultsWithoutARunAndGroupsNeverResizedAreJudgedByTodaysRounds() {
        assertEquals(6, resized.roundsAsked(null));
        assertEquals(4, Group.of("page-200", 4).roundsAsked("20200101T000000Z-0000"));
    }

    @Test
    void aResizeTimeThatIsNotARunIdsTimeIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Group.of("echo-1k", 6).resizedFrom(3, "2026-11-26 11:50"));
        assertEquals("a resize time is a run id's time, yyyyMMdd'T'HHmmss'Z' (e.g. 20261126T115000Z), was "
                + "'2026-11-26 11:50'", e.getMessage());
    }
}
