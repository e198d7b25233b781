package org.hupf.api.session;

import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * A session's rule maps, allocations, rule id lists and addresses hold what a million sessions need and no more, and behave as
 * the {@code Map.copyOf} and {@code List.copyOf} they replace.
 */
public class CompactSessionMapsTest {

    private static void assertFails(Class<? extends RuntimeException> expected, Runnable change) {
        try {
            change.run();
        } catch (RuntimeException e) {
            assertEquals(expected, e.getClass());
            return;
        }
        fail("expected " + expected.getSimpleName());
    }

    private static Pdr pdr(int id, List<Long> qerIds, List<Long> urrIds) {
        return pdr(id, qerIds, urrIds, Ip4Address.valueOf("10.0.0.1"));
    }

    private static Pdr pdr(int id, List<Long> qerIds, List<Long> urrIds, Ip4Address ue) {
        return new Pdr(id, 100, Pdr.CORE, null, null, false, null, ue, List.of(), null, null, null, 1L, qerIds, urrIds);
    }

    private static Map<Integer, Pdr> pdrs(int n) {
        Map<Integer, Pdr> m = new HashMap<>();
        for (int id = 1; id <= n; id++) {
            m.put(id, pdr(id, List.of(), List.of()));
        }
        return m;
    }

    private static PfcpSession session(Map<Integer, Pdr> pdrs, Map<String, Integer> allocations) {
        return new PfcpSession(7, 9, "10.0.0.9", "smf", pdrs, Map.of(), Map.of(), Map.of(), allocations);
    }

    @Test
    public void rulesMapAsTheyWereGivenAtEverySize() {
        for (int n : new int[] {0, 1, 2, 8, 9, 40}) {
            Map<Integer, Pdr> given = pdrs(n);
            Map<Integer, Pdr> held = session(given, Map.of()).pdrs;
            assertEquals(given, held);
            assertEquals(given.hashCode(), held.hashCode());
            assertEquals(given.keySet(), held.keySet());
            assertEquals(new ArrayList<>(held.values()).size(), n);
            for (int id = 0; id <= n + 1; id++) {
                assertEquals(given.get(id), held.get(id));
                assertEquals(given.containsKey(id), held.containsKey(id));
            }
            assertFails(UnsupportedOperationException.class, () -> held.put(99, pdr(99, List.of(), List.of())));
            if (n > 0) {
                assertFails(UnsupportedOperationException.class, () -> held.entrySet().clear());
            }
        }
    }

    @Test
    public void aSessionsRuleMapKeepsNoViewItWasAskedFor() {
        // Map.copyOf's maps keep their values() view once asked: 16 bytes a map, four maps a session.
        PfcpSession s = session(pdrs(2), Map.of());
        assertNotSame(s.pdrs.values(), s.pdrs.values());
        assertNotSame(s.pdrs.keySet(), s.pdrs.keySet());
        assertSame("a held map is not copied again", s.pdrs, s.with(s.pdrs, s.fars, s.qers, s.urrs, s.allocations).pdrs);
    }

    @Test
    public void allocationsMapAsTheyWereGiven() {
        Map<String, Integer> given = Map.of("ctr:1", 1000, "ctr:2", 1001, "sm:1:u", 5000, "sm:1:d", 5001);
        Map<String, Integer> held = session(pdrs(1), given).allocations;
        assertEquals(given, held);
        assertEquals(held, given);
        assertEquals(given.hashCode(), held.hashCode());
        assertEquals(Integer.valueOf(5001), held.get("sm:1:d"));
        assertNull(held.get("ctr:3"));
        assertFalse(held.containsKey(3));
        Map<String, Integer> walked = new HashMap<>();
        held.forEach(walked::put);
        assertEquals(given, walked);
        assertSame(held, Allocations.copyOf(held));
        assertFails(UnsupportedOperationException.class, () -> held.remove("ctr:1"));
        Map<String, Integer> withNull = new HashMap<>(given);
        withNull.put("ctr:3", null);
        assertFails(NullPointerException.class, () -> session(pdrs(1), withNull));
    }

    @Test
    public void allocationsHoldTheirCellsUnboxed() {
        // A Map.copyOf held an Integer per cell above 127 and gave it back at every get.
        Map<String, Integer> held = session(pdrs(1), Map.of("ctr:1", 1000)).allocations;
        assertEquals(held.get("ctr:1"), held.get("ctr:1"));
        assertNotSame(held.get("ctr:1"), held.get("ctr:1"));
    }

    @Test
    public void manyAllocationsAreFoundByKey() {
        Map<String, Integer> given = new HashMap<>();
        for (int i = 0; i < 50; i++) {
            given.put("ctr:" + i, 1000 + i);
        }
        Map<String, Integer> held = Allocations.copyOf(given);
        for (int i = 0; i < 52; i++) {
            assertEquals(given.get("ctr:" + i), held.get("ctr:" + i));
        }
        assertTrue(held.containsKey("ctr:49"));
    }

    @Test
    public void pdrsDecodedApartShareTheirRuleIdLists() {
        Pdr a = pdr(1, new ArrayList<>(List.of(1L)), new ArrayList<>(List.of(1L, 2L)));
        Pdr b = pdr(2, new ArrayList<>(List.of(1L)), new ArrayList<>(List.of(1L, 2L)));
        assertSame(a.qerIds, b.qerIds);
        assertSame(a.urrIds, b.urrIds);
        assertEquals(List.of(1L, 2L), b.urrIds);
        assertFails(UnsupportedOperationException.class, () -> b.urrIds.add(3L));
    }

    @Test
    public void aSessionsPdrsShareTheirUeAddress() {
        Pdr uplink = new Pdr(1, 100, Pdr.ACCESS, 0x1234L, Ip4Address.valueOf("192.168.0.1"), false, null,
                             Ip4Address.valueOf("10.9.0.1"), List.of(), null, 0, null, 1L, List.of(), List.of());
        Pdr downlink = new Pdr(2, 100, Pdr.CORE, null, null, false, null, Ip4Address.valueOf("10.9.0.1"), List.of(),
                               null, null, null, 2L, List.of(), List.of());
        assertSame(uplink.ueAddress, downlink.ueAddress);
        Far toGnb = new Far(2, Far.FORW, Far.ACCESS, 0xabcL, Ip4Address.valueOf("192.168.1.10"), null);
        Far another = new Far(3, Far.FORW, Far.ACCESS, 0xabdL, Ip4Address.valueOf("192.168.1.10"), null);
        assertSame(toGnb.ohcAddress, another.ohcAddress);
        for (int i = 0; i < 10_000; i++) {
            Ip4Address a = Ip4Address.valueOf(0x0a000000 + i);
            assertEquals("addresses sharing a slot keep their own", a, pdr(i, List.of(), List.of(), a).ueAddress);
        }
    }
}
