package loopbench.rounds;

import com.google.gson.JsonObject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ForkIdentityTest {

    @Test
    void aForkReadsBackTheIdentityItWasGivenAndWritesItBesideItsResults() {
        ForkIdentity id = new ForkIdentity("20261125T101500Z-3f9a", "null-proxy", "layer=4 [A]", 3);
        List<String> props = id.properties();
        assertEquals(List.of("-Dloopbench.run=20261125T101500Z-3f9a", "-Dloopbench.group=null-proxy",
                "-Dloopbench.arm=layer=4 [A]", "-Dloopbench.round=3"), props);
        String[] keys = {ForkIdentity.RUN_PROPERTY, ForkIdentity.GROUP_PROPERTY, ForkIdentity.ARM_PROPERTY,
                ForkIdentity.ROUND_PROPERTY};
        String[] old = new String[keys.length];
        try {
            for (int i = 0; i < keys.length; i++) {
                String p = props.get(i);
                old[i] = System.setProperty(keys[i], p.substring(p.indexOf('=') + 1));
            }
            assertEquals(id, ForkIdentity.current());
        } finally {
            for (int i = 0; i < keys.length; i++) {
                if (old[i] == null) {
                    System.clearProperty(keys[i]);
                } else {
                    System.setProperty(keys[i], old[i]);
                }
            }
        }
        JsonObject side = new JsonObject();
        id.addTo(side);
        assertEquals("20261125T101500Z-3f9a", side.get("run").getAsString());
        assertEquals("null-proxy", side.get("group").getAsString());
        assertEquals("layer=4 [A]", side.get("arm").getAsString());
        assertEquals(3, side.get("round").getAsInt());
    }

    @Test
    void aPlainRunHasOnlyItsRunAndOutsideARunThereIsNothing() {
        JsonObject plain = new JsonObject();
        ForkIdentity.of("r1").addTo(plain);
        assertEquals(1, plain.size());
        assertEquals(List.of("-Dloopbench.run=r1"), ForkIdentity.of("r1").properties());
        JsonObject none = new JsonObject();
        new ForkIdentity(null, null, null, 0).addTo(none);
        assertEquals(0, none.size());
    }

    @Test
    void runIdsAreATimestampAndRandomDigits() {
        String a = ForkIdentity.newRunId();
        assertTrue(a.matches("\\d{8}T\\d{6}Z-[0-9a-f]{4}"), a);
        boolean differ = false;
        for (int i = 0; i < 5 && !differ; i++) {
            differ = !a.equals(ForkIdentity.newRunId());
        }
        assertTrue(differ, "two runs in the same second get different ids");
    }
}
