package loopbench.profile;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProfileLineTest {

    @Test
    void profileLinesKeepJmhArgumentsAndJdkGuards(@TempDir Path dir) throws Exception {
        Path p = dir.resolve("p.jmh");
        Files.writeString(p, "# comment\n\nFooBenchmark -p a=1,2 -prof gc\n[jdk>=21] BarBenchmark -p mode=vt\n");
        List<ProfileLine> lines = ProfileLine.read(p);
        assertEquals(2, lines.size());
        assertEquals(List.of("FooBenchmark", "-p", "a=1,2", "-prof", "gc"), lines.get(0).args());
        assertEquals(3, lines.get(0).number());
        assertEquals(0, lines.get(0).minJdk());
        assertTrue(lines.get(0).runsOn(17));
        assertEquals(21, lines.get(1).minJdk());
        assertEquals(List.of("BarBenchmark", "-p", "mode=vt"), lines.get(1).args());
        assertFalse(lines.get(1).runsOn(17));
        assertTrue(lines.get(1).runsOn(21) && lines.get(1).runsOn(25));
    }

    @Test
    void aMissingOrEmptyProfileIsAnError(@TempDir Path dir) throws Exception {
        NoSuchFileException missing = assertThrows(NoSuchFileException.class, () -> ProfileLine.read(dir.resolve("nope.jmh")));
        assertTrue(missing.getMessage().contains("nope.jmh"), missing.getMessage());
        Path empty = Files.writeString(dir.resolve("empty.jmh"), "# nothing\n");
        assertThrows(IOException.class, () -> ProfileLine.read(empty));
    }
}
