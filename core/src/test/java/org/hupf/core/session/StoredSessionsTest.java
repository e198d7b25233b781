package org.hupf.core.session;

import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.core.store.SessionStore;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfInterface;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * A restarted manager works out its stored sessions' entities when they are first needed, not in its constructor:
 * until then nothing is translated, and afterwards it holds exactly what a manager that never stopped holds.
 */
public class StoredSessionsTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final Ip4Address GNB = Ip4Address.valueOf("192.168.1.10");
    private static final Set<UpfInterface> INTERFACES = Set.of(
            UpfInterface.builder().setPrefix(Ip4Prefix.valueOf(N3, 32)).setAccess().build(),
            UpfInterface.builder().setPrefix(Ip4Prefix.valueOf("10.250.0.0/16")).setCore().build());

    private final SessionStore store = new InMemorySessionStore();
    private final InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1024);

    private SessionManager manager() {
        SessionManager m = new SessionManager(store, new SessionTranslator(N3, 0, Map.of(), 10),
                                              new ResourcePool(1024, 1024), () -> List.of(device), N3);
        m.setInterfaces(INTERFACES);
        return m;
    }

    /** A session of one UE whose downlink goes to the gNB every session shares (one tunnel peer for all). */
    private static PfcpSession draft(int ue) {
        return draft(Ip4Address.valueOf("10.250.0." + ue), GNB, ue);
    }

    /** A session as an SMF sets one up: an uplink PDR with F-TEID CHOOSE, a downlink PDR and FAR to a gNB. */
    static PfcpSession draft(Ip4Address ue, Ip4Address gnb, int cpSeid) {
        Pdr ul = new Pdr(1, 100, Pdr.ACCESS, null, null, true, null, ue, List.of(), null, 0, null, 1L, List.of(),
                         List.of());
        Pdr dl = new Pdr(2, 100, Pdr.CORE, null, null, false, null, ue, List.of(), null, null, null, 2L, List.of(),
                         List.of());
        return new PfcpSession(0, 1000 + cpSeid, "10.0.0.1", "smf", Map.of(1, ul, 2, dl),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null),
                                      2L, new Far(2, Far.FORW, Far.ACCESS, 0x100L + cpSeid, gnb, null)),
                               Map.of(), Map.of(), Map.of());
    }

    @Test
    public void aRestartedManagerHoldsWhatTheOneBeforeHeldAndReconcilesWithoutWrites() throws Exception {
        SessionManager before = manager();
        List<PfcpSession> sessions = new ArrayList<>();
        for (int ue = 1; ue <= 3; ue++) {
            sessions.add(before.establish(draft(ue)));
        }
        int entities = before.entityCount();
        before.close();

        SessionManager after = manager();
        assertEquals(entities, after.entityCount());
        for (PfcpSession s : sessions) {
            assertEquals(before.entities(s.upSeid), after.entities(s.upSeid));
        }
        assertEquals("the device holds what the store implies", 0, after.reconcile());
        after.close();
    }

    @Test
    public void aStoredSessionsDeletionFirstKeepsWhatTheOthersShare() throws Exception {
        SessionManager before = manager();
        PfcpSession first = before.establish(draft(1));
        before.establish(draft(2));
        before.close();

        SessionManager after = manager();
        after.delete(first.upSeid);
        assertEquals("the other session's downlink stays", 1, device.count(UpfEntityType.SESSION_DOWNLINK));
        assertEquals("the gNB's tunnel peer stays for it", 1, device.count(UpfEntityType.TUNNEL_PEER));
        assertEquals(0, after.reconcile());
        assertEquals(0, after.deviceErrors());
        after.close();
    }

    @Test
    public void interfacesAreInstalledWithoutTrackingTheStoredSessions() {
        EntityRefs refs = new EntityRefs();
        int[] tracked = new int[1];
        refs.trackLater(new EntityRefs.StoredSessions() {
            @Override
            public int count() {
                return 1;
            }

            @Override
            public void forEach(EntityRefs.Tracker track) {
                tracked[0]++;
            }
        });
        refs.updates(INTERFACES, Set.of(), List.of(), INTERFACES);
        assertEquals("interfaces need no session's entities", 0, tracked[0]);
        assertFalse(refs.holds(7));
        refs.of(7);
        assertEquals("the stored sessions are tracked once, at the first use", 1, tracked[0]);
        Set<UpfEntity> none = refs.all();
        assertTrue(none.isEmpty());
    }

    @Test
    public void aRestartedManagerSaysWhenItsStoredSessionsAreTracked() throws Exception {
        SessionManager before = manager();
        assertTrue("nothing stored, nothing to track", before.storedSessionsTracked());
        before.establish(draft(1));
        before.close();

        SessionManager after = manager();
        assertFalse("interfaces installed, the stored session not tracked yet", after.storedSessionsTracked());
        after.trackStoredSessions();
        assertTrue(after.storedSessionsTracked());
        after.close();

        SessionManager changedFirst = manager();
        changedFirst.establish(draft(2));
        assertTrue("a first change tracks them", changedFirst.storedSessionsTracked());
        changedFirst.close();
    }
}
