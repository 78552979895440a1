package loopbench.topology;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The placement parameter and the CPU lists in it: parsed, resolved against the CPUs a process may use. */
class PlacementTest {
    private static final Set<Role> PROXY_RUN = EnumSet.of(Role.CLIENT, Role.PROXY, Role.ORIGIN);
    private static final Set<Role> ECHO_RUN = EnumSet.of(Role.CLIENT, Role.ECHO);

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = ';', value = {"0;0", "1-3;1-3", "0+2;0,2", "0-1+3;0-1,3", "3,1,2;1-3", " 5 ;5", "0+0;0"})
    void cpuListsInBothSpellingsPrintInTheKernelsFormat(String given, String printed) {
        assertEquals(printed, CpuSet.parse(given).toString());
    }

    @Test
    void cpuSetArithmetic() {
        CpuSet four = CpuSet.parse("0-3");
        assertEquals(CpuSet.of(2, 3), four.highest(2));
        assertEquals(CpuSet.of(0), four.lowest(1));
        assertEquals(CpuSet.of(0, 1), four.minus(CpuSet.of(2, 3)));
        assertTrue(CpuSet.of(1).isSubsetOf(four));
        assertEquals(CpuSet.parse("0-1,7"), CpuSet.of(0, 1).union(CpuSet.of(7)));
        assertEquals(4, four.size());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "x", "1-", "-1", "3-1", "0++1", "1,", "0.5", "999999"})
    void aBadCpuListNamesItselfAndTheValidForms(String bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CpuSet.parse(bad));
        assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains(CpuSet.FORMS), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"pinnned", "proxy", "proxy:1", "proxy=", "proxy=x", "gateway=1", "proxy=1/proxy=0",
            "proxy=1//client=0", "PINNED"})
    void aBadPlacementNamesItselfAndTheValidForms(String bad) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Placement.parse(bad));
        assertTrue(e.getMessage().contains("'" + bad + "'") && e.getMessage().contains(Placement.FORMS),
                e.getMessage());
    }

    @Test
    void pinnedOnTwoCpusPutsTheProxyAloneOnCpu1() {
        CpuPlan plan = Placement.parse("pinned").resolve(Role.PROXY, PROXY_RUN, CpuSet.parse("0-1"));
        assertEquals(Map.of(Role.PROXY, CpuSet.of(1), Role.CLIENT, CpuSet.of(0), Role.ORIGIN, CpuSet.of(0)),
                plan.cpus());
        assertNull(plan.note());
        assertEquals("placement pinned: client=0 proxy=1 origin=0 (this process may use CPUs 0-1)", plan.describe());
    }

    @Test
    void pinnedWithoutAProxyPutsTheServerAlone() {
        CpuPlan plan = Placement.parse("pinned").resolve(Role.ECHO, ECHO_RUN, CpuSet.parse("0-1"));
        assertEquals(Map.of(Role.ECHO, CpuSet.of(1), Role.CLIENT, CpuSet.of(0)), plan.cpus());
    }

    @Test
    void pinnedTakesTheUpperHalfOfTheCpusThisProcessMayUse() {
        assertEquals(Map.of(Role.PROXY, CpuSet.parse("6-7"), Role.CLIENT, CpuSet.parse("2,4"),
                        Role.ORIGIN, CpuSet.parse("2,4")),
                Placement.parse("pinned").resolve(Role.PROXY, PROXY_RUN, CpuSet.parse("2+4+6+7")).cpus());
        // odd: the component alone gets the smaller half, the others (two processes) the larger
        assertEquals(CpuSet.of(2), Placement.parse("pinned").resolve(Role.PROXY, PROXY_RUN, CpuSet.parse("0-2"))
                .cpusOf(Role.PROXY));
    }

    @Test
    void pinnedOnOneCpuSharesItAndSaysSo() {
        CpuPlan plan = Placement.parse("pinned").resolve(Role.PROXY, PROXY_RUN, CpuSet.of(0));
        assertTrue(plan.cpus().isEmpty());
        assertTrue(plan.note().contains("only CPU 0") && plan.note().contains("shares it"), plan.note());
        assertTrue(plan.describe().contains(plan.note()));
    }

    @Test
    void sharedPinsNothing() {
        CpuPlan plan = Placement.parse("shared").resolve(Role.PROXY, PROXY_RUN, CpuSet.parse("0-1"));
        assertTrue(plan.cpus().isEmpty());
        assertTrue(!plan.pins() && plan.note() == null);
    }

    @Test
    void explicitPutsEachNamedComponentWhereSaidAndTheOthersOnEveryCpu() {
        CpuPlan plan = Placement.parse("proxy=0/client=1").resolve(Role.PROXY, PROXY_RUN, CpuSet.parse("0-1"));
        assertEquals(Map.of(Role.PROXY, CpuSet.of(0), Role.CLIENT, CpuSet.of(1), Role.ORIGIN, CpuSet.parse("0-1")),
                plan.cpus());
        assertEquals("proxy=0/client=1", plan.name());
    }

    @Test
    void aCpuThisProcessMayNotUseIsAnErrorNamingTheCpusItHas() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Placement.parse("proxy=7")
                .resolve(Role.PROXY, PROXY_RUN, CpuSet.parse("0-1")));
        assertTrue(e.getMessage().contains("CPU 7") && e.getMessage().contains("may use CPUs 0-1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Placement.parse("client=0/proxy=1+3")
                .resolve(Role.PROXY, PROXY_RUN, CpuSet.parse("0-1")));
        assertTrue(e.getMessage().contains("proxy on CPU 3") && e.getMessage().contains("0-1"), e.getMessage());
    }

    @Test
    void aComponentTheRunDoesNotHaveIsAnErrorNamingItsComponents() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Placement.parse("proxy=1")
                .resolve(Role.ECHO, ECHO_RUN, CpuSet.parse("0-1")));
        assertTrue(e.getMessage().contains("names proxy") && e.getMessage().contains("client, echo"), e.getMessage());
    }

    @Test
    void aHostRunsItsCommandInItsNamespaceOnItsCpus() {
        assertEquals(java.util.List.of("java", "-version"),
                Host.ANYWHERE.launch(java.util.List.of("java", "-version")));
        assertEquals(java.util.List.of("taskset", "-c", "0,2", "java"),
                new Host(null, CpuSet.parse("0+2")).launch(java.util.List.of("java")));
        assertEquals(java.util.List.of("ip", "netns", "exec", "ns1", "taskset", "-c", "1", "java"),
                new Host("ns1", CpuSet.of(1)).launch(java.util.List.of("java")));
    }
}
