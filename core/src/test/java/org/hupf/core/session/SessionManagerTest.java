package org.hupf.core.session;

import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * F-TEID CHOOSE answers and what a refused modification leaves behind.
 */
public class SessionManagerTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final Ip4Address UE = Ip4Address.valueOf("10.250.0.1");
    private static final Ip4Address OTHER_UE = Ip4Address.valueOf("10.250.0.2");

    private final InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1024);
    private final SessionManager manager = new SessionManager(
            new InMemorySessionStore(), new SessionTranslator(N3, 0, Map.of(), 10), new ResourcePool(1024, 1024),
            () -> List.of(device), N3);

    private static Pdr uplink(int id, Integer chooseId, String sdf) {
        return new Pdr(id, id, Pdr.ACCESS, null, null, true, chooseId, UE, sdf == null ? List.of() : List.of(sdf),
                       null, 0, null, 1L, List.of(), List.of());
    }

    /** An uplink PDR for a UE, with the F-TEID the client gives or (teid null) CHOOSE. */
    private static Pdr uplinkOf(int id, Ip4Address ue, Long teid) {
        return new Pdr(id, id, Pdr.ACCESS, teid, teid == null ? null : N3, teid == null, null, ue, List.of(), null, 0,
                       null, 1L, List.of(), List.of());
    }

    private static PfcpSession draft(Pdr... pdrs) {
        Map<Integer, Pdr> m = new HashMap<>();
        for (Pdr p : pdrs) {
            m.put(p.pdrId, p);
        }
        return new PfcpSession(0, 1, "10.0.0.1", "smf", m,
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null)), Map.of(), Map.of(),
                               Map.of());
    }

    @Test
    public void sameChooseIdSharesOneTeidAndModificationsKeepIt() throws Exception {
        PfcpSession s = manager.establish(draft(uplink(1, 200, null),
                                                uplink(2, 200, "permit out udp from 8.8.8.8 to assigned"),
                                                uplink(3, null, "permit out tcp from 1.1.1.1 to assigned")));
        long shared = s.pdrs.get(1).teid;
        assertEquals(shared, (long) s.pdrs.get(2).teid);
        assertNotEquals(shared, (long) s.pdrs.get(3).teid);
        assertEquals(N3, s.pdrs.get(1).tunnelAddress);
        assertEquals(2, device.entities(UpfEntityType.SESSION_UPLINK).size());

        Map<Integer, Pdr> pdrs = new HashMap<>(s.pdrs);
        pdrs.put(2, uplink(2, 200, "permit out udp from 8.8.4.4 to assigned"));
        PfcpSession m = manager.modify(s.with(pdrs, s.fars, s.qers, s.urrs, s.allocations));
        assertEquals(shared, (long) m.pdrs.get(2).teid);
        assertEquals(shared, (long) m.pdrs.get(1).teid);
    }

    @Test
    public void refusedModificationLeavesSessionDevicesAndResourcesAsTheyWere() throws Exception {
        PfcpSession s = manager.establish(draft(uplink(1, null, null)));
        int entities = manager.entityCount();
        Map<Integer, Pdr> pdrs = new HashMap<>(s.pdrs);
        pdrs.put(9, uplink(9, null, "permit in ip from any to assigned"));
        try {
            manager.modify(s.with(pdrs, s.fars, s.qers, s.urrs, s.allocations));
            fail("modified with an unsupported filter");
        } catch (RuleException e) {
            assertEquals(0, e.ruleType());
            assertEquals(9, e.ruleId());
        }
        assertEquals(s, manager.store().get(s.upSeid));
        assertEquals(entities, manager.entityCount());
        PfcpSession next = manager.establish(draft(uplinkOf(1, OTHER_UE, null)));
        assertNotEquals(s.pdrs.get(1).teid, next.pdrs.get(1).teid);
        manager.delete(next.upSeid);
        manager.delete(s.upSeid);
        assertEquals(0, manager.entityCount());
        assertEquals(0, device.entities(UpfEntityType.SESSION_UPLINK).size());
    }

    /**
     * A counter cell keeps what it counted until it is written: a session given a cell another session held
     * starts from zero, and a modification keeps the counts of the cells the session already held.
     */
    @Test
    public void aCounterCellNewToASessionStartsFromZero() throws Exception {
        PfcpSession first = manager.establish(draft(uplink(1, null, null)));
        int cell = first.allocations.get("ctr:1");
        device.setCounter(UpfCounter.builder().withCellId(cell).setIngress(7, 7000).setEgress(7, 7000).build());
        manager.delete(first.upSeid);
        assertEquals("the final usage stays readable after the deletion", 7000, manager.readCounter(cell).ingressBytes());

        PfcpSession next = manager.establish(draft(uplinkOf(1, OTHER_UE, null)));
        assertEquals("the cell is reused", cell, (int) next.allocations.get("ctr:1"));
        assertEquals(0, manager.sessionCounters(next.upSeid).get(1).ingressBytes());

        device.setCounter(UpfCounter.builder().withCellId(cell).setIngress(2, 200).setEgress(2, 200).build());
        Map<Integer, Pdr> pdrs = new HashMap<>(next.pdrs);
        pdrs.put(2, new Pdr(2, 2, Pdr.ACCESS, next.pdrs.get(1).teid, N3, false, null, OTHER_UE,
                            List.of("permit out udp from 8.8.8.8 to assigned"), null, 0, null, 1L, List.of(), List.of()));
        PfcpSession modified = manager.modify(next.with(pdrs, next.fars, next.qers, next.urrs, next.allocations));
        assertEquals("a cell the session held keeps its counts", 200,
                     manager.sessionCounters(modified.upSeid).get(1).ingressBytes());
        assertEquals(0, manager.sessionCounters(modified.upSeid).get(2).ingressBytes());
    }

    private void assertIntact(PfcpSession victim, int uplinks) {
        assertEquals(victim, manager.store().get(victim.upSeid));
        assertEquals(1, manager.store().all().size());
        assertEquals(uplinks, device.entities(UpfEntityType.SESSION_UPLINK).size());
        assertTrue(device.entities(UpfEntityType.SESSION_UPLINK).stream().allMatch(
                e -> manager.entities(victim.upSeid).contains(e)));
    }

    private void assertRefused(PfcpSession draft, int cause, int pdrId) {
        try {
            manager.establish(draft);
            fail("established " + draft);
        } catch (RuleException e) {
            assertEquals(e.getMessage(), cause, e.cause());
            assertEquals(0, e.ruleType());
            assertEquals(pdrId, e.ruleId());
        }
    }

    /** Another session (OTHER_UE) may not take a victim's TEID or UE address by a modification either. */
    private void assertModificationRefused(Pdr taking, int cause) throws RuleException {
        PfcpSession other = manager.establish(draft(uplinkOf(1, OTHER_UE, null)));
        Map<Integer, Pdr> pdrs = new HashMap<>(other.pdrs);
        pdrs.put(taking.pdrId, taking);
        try {
            manager.modify(other.with(pdrs, other.fars, other.qers, other.urrs, other.allocations));
            fail("modified onto another session's " + taking);
        } catch (RuleException e) {
            assertEquals(cause, e.cause());
            assertEquals(taking.pdrId, e.ruleId());
        }
        assertEquals(other, manager.store().get(other.upSeid));
        manager.delete(other.upSeid);
    }

    @Test
    public void anFteidChosenForOneSessionCannotBeGivenToAnother() throws Exception {
        PfcpSession victim = manager.establish(draft(uplinkOf(1, UE, null)));
        long teid = victim.pdrs.get(1).teid;
        assertRefused(draft(uplinkOf(7, OTHER_UE, teid)), Cause.INVALID_FTEID_ALLOCATION_OPTION, 7);
        assertIntact(victim, 1);
        assertModificationRefused(uplinkOf(1, OTHER_UE, teid), Cause.INVALID_FTEID_ALLOCATION_OPTION);
        assertIntact(victim, 1);
        // Freed by its session's deletion, the TEID may be given again.
        manager.delete(victim.upSeid);
        assertEquals(teid, (long) manager.establish(draft(uplinkOf(1, OTHER_UE, teid))).pdrs.get(1).teid);
    }

    @Test
    public void chosenTeidsSkipTheOnesClientsGave() throws Exception {
        PfcpSession given = manager.establish(draft(uplinkOf(1, UE, 1L), uplinkOf(2, UE, null)));
        assertNotEquals(1L, (long) given.pdrs.get(2).teid);
        PfcpSession chosen = manager.establish(draft(uplinkOf(1, OTHER_UE, null)));
        assertNotEquals(1L, (long) chosen.pdrs.get(1).teid);
        assertNotEquals(given.pdrs.get(2).teid, chosen.pdrs.get(1).teid);
    }

    @Test
    public void teidZeroIsRefused() {
        assertRefused(draft(uplinkOf(3, UE, 0L)), Cause.MANDATORY_IE_INCORRECT, 3);
        assertEquals(0, manager.store().all().size());
        assertEquals(0, manager.entityCount());
    }

    @Test
    public void aUeAddressBelongsToOneSession() throws Exception {
        PfcpSession victim = manager.establish(draft(uplinkOf(1, UE, null)));
        assertRefused(draft(uplinkOf(4, UE, null)), Cause.RULE_CREATION_MODIFICATION_FAILURE, 4);
        assertIntact(victim, 1);
        assertModificationRefused(uplinkOf(5, UE, null), Cause.RULE_CREATION_MODIFICATION_FAILURE);
        assertIntact(victim, 1);
        manager.delete(victim.upSeid);
        manager.establish(draft(uplinkOf(1, UE, null)));
    }
}
