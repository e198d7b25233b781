package org.hupf.app.core;

import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.app.device.InMemoryUpfDevice;
import org.hupf.app.session.ResourcePool;
import org.hupf.app.session.SessionTranslator;
import org.hupf.app.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.fail;

/**
 * F-TEID CHOOSE answers and what a refused modification leaves behind.
 */
public class SessionManagerTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final Ip4Address UE = Ip4Address.valueOf("10.250.0.1");

    private final InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1024);
    private final SessionManager manager = new SessionManager(
            new InMemorySessionStore(), new SessionTranslator(N3, 0, Map.of(), 10), new ResourcePool(1024, 1024),
            () -> List.of(device), N3);

    private static Pdr uplink(int id, Integer chooseId, String sdf) {
        return new Pdr(id, id, Pdr.ACCESS, null, null, true, chooseId, UE, sdf == null ? List.of() : List.of(sdf),
                       null, 0, null, 1L, List.of(), List.of());
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
        PfcpSession next = manager.establish(draft(uplink(1, null, null)));
        assertNotEquals(s.pdrs.get(1).teid, next.pdrs.get(1).teid);
        manager.delete(next.upSeid);
        manager.delete(s.upSeid);
        assertEquals(0, manager.entityCount());
        assertEquals(0, device.entities(UpfEntityType.SESSION_UPLINK).size());
    }
}
