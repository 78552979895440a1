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
    void tagsComeInAnyOrderBeforeTheJmhArguments(@TempDir Path dir) throws Exception {
        Path p = Files.writeString(dir.resolve("p.jmh"), "[label=proxy-64] [rounds=6] Proxy -p layer=4,7\n"
                + "[twins][rounds=2] [jdk>=21] [label=null-agg] Agg -p x=1\n[jar=netty-4.1] [rounds=3] Old -f 3\n");
        List<ProfileLine> lines = ProfileLine.read(p);
        ProfileLine proxy = lines.get(0);
        assertEquals("proxy-64", proxy.label());
        assertEquals(6, proxy.rounds());
        assertTrue(proxy.isRounds() && !proxy.twins() && proxy.jar() == null);
        assertEquals("Proxy -p layer=4,7", proxy.text());
        assertEquals(List.of("Proxy", "-p", "layer=4,7"), proxy.args());
        assertEquals("proxy-64", proxy.name());
        ProfileLine agg = lines.get(1);
        assertTrue(agg.twins());
        assertEquals(21, agg.minJdk());
        assertEquals(2, agg.rounds());
        assertEquals("Agg -p x=1", agg.text());
        assertEquals("netty-4.1", lines.get(2).jar());
        assertEquals("3", lines.get(2).name(), "a line without a label goes by its number");
    }

    @Test
    void aWrongTagIsAnErrorNamingTheLineAndTheValidOnes(@TempDir Path dir) throws Exception {
        assertBad(dir, "[rouns=6] Foo\n", "line 1: unknown tag '[rouns=6]'; valid tags: [jdk>=N], [label=NAME], "
                + "[rounds=N], [jar=NAME], [twins]");
        assertBad(dir, "# c\n[jdk=21] Foo\n", "line 2: unknown tag '[jdk=21]'");
        assertBad(dir, "[rounds=1] Foo\n", "[rounds=1]: '1' is not a whole number >= 2");
        assertBad(dir, "[rounds=x] Foo\n", "'x' is not a whole number >= 2");
        assertBad(dir, "[jar=netty-3] [rounds=2] Foo\n", "unknown jar 'netty-3'; valid: netty-4.1");
        assertBad(dir, "[label=Proxy_64] Foo\n", "label 'Proxy_64' is not valid: use a-z, 0-9 and -");
        assertBad(dir, "[label=a] Foo\n[label=b] Bar\n[label=a] Baz\n", "line 3: label 'a' is already line 1's");
        assertBad(dir, "[rounds=2] [rounds=3] Foo\n", "the tag [rounds=...] is given twice");
        assertBad(dir, "[rounds=2] Foo\nBar\n[rounds=2] Baz\n", "line(s) 1, 3 carry [rounds=N] and line(s) 2 do not");
        assertBad(dir, "[twins] Foo\n", "[twins] needs [rounds=N]");
        assertBad(dir, "[jar=netty-4.1] Foo\n", "[jar=netty-4.1] needs [rounds=N]");
        assertBad(dir, "[label=x\n", "a tag that does not close");
        assertBad(dir, "[label=x]\n", "tags but no JMH arguments");
    }

    private static void assertBad(Path dir, String content, String message) throws Exception {
        Path p = Files.writeString(dir.resolve("bad.jmh"), content);
        IOException e = assertThrows(IOException.class, () -> ProfileLine.read(p), content);
        assertTrue(e.getMessage().contains(message), e.getMessage());
        assertTrue(e.getMessage().startsWith(p.toString()), "names the file: " + e.getMessage());
    }

    @Test
    void aMissingOrEmptyProfileIsAnError(@TempDir Path dir) throws Exception {
        NoSuchFileException missing = assertThrows(NoSuchFileException.class,
                () -> ProfileLine.read(dir.resolve("nope.jmh")));
        assertTrue(missing.getMessage().contains("nope.jmh"), missing.getMessage());
        Path empty = Files.writeString(dir.resolve("empty.jmh"), "# nothing\n");
        assertThrows(IOException.class, () -> ProfileLine.read(empty));
    }
}
