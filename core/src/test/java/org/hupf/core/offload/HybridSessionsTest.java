package org.hupf.core.offload;

import org.hupf.api.OffloadPolicy;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Qer;
import org.hupf.core.session.DeletedSession;
import org.hupf.core.session.SessionManager;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.junit.Before;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

/**
 * The app's session manager and translator programming the hybrid device, as inside ONOS and in the
 * lab runner: PFCP sessions land on the backend, a heavy hitter's on the switch too, usage adds up over
 * both, and a modified or deleted session changes both targets.
 */
public class HybridSessionsTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.0.2.1");
    private static final Ip4Address GNB = Ip4Address.valueOf("192.0.2.2");

    private final AtomicLong clock = new AtomicLong(1_000_000);
    private FakeUpfDevice backend;
    private FakeUpfDevice hw;
    private OffloadManager offload;
    private SessionManager sessions;

    @Before
    public void setUp() throws Exception {
        backend = new FakeUpfDevice(100_000, 65_536, 4_096);
        hw = new FakeUpfDevice(8, 64, 16);
        offload = new OffloadManager(backend, hw, OffloadPolicy.builder().confirmReports(false).build(), clock::get);
        HybridUpfDevice hybrid = new HybridUpfDevice(backend, hw, offload, false);
        sessions = new SessionManager(new InMemorySessionStore(), new SessionTranslator(N3, 1, Map.of(), 10),
                                      new ResourcePool(65_536, 4_096), () -> List.of(hybrid), N3);
        sessions.setInterfaces(Set.of(
                UpfInterface.builder().setAccess().setSliceId(1).setPrefix(Ip4Prefix.valueOf(N3, 32)).build(),
                UpfInterface.builder().setCore().setSliceId(1).setPrefix(Ip4Prefix.valueOf("10.250.0.0/16")).build()));
    }

    private static Ip4Address ue(int i) {
        return Ip4Address.valueOf("10.250.0." + i);
    }

    private static PfcpSession draft(int i, long gnbTeid) {
        Pdr ul = new Pdr(1, 100, Pdr.ACCESS, 0x1000L + i, N3, false, null, ue(i), List.of(), null, 0, null, 1L,
                         List.of(1L), List.of());
        Pdr dl = new Pdr(2, 100, Pdr.CORE, null, null, false, null, ue(i), List.of(), null, null, null, 2L,
                         List.of(1L), List.of());
        return new PfcpSession(0, i, "127.0.0.1", "127.0.0.1", Map.of(1, ul, 2, dl),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null),
                                      2L, new Far(2, Far.FORW, Far.ACCESS, gnbTeid, GNB, null)),
                               Map.of(1L, new Qer(1, false, false, 100_000L, 100_000L, null, null, 9)), Map.of(),
                               Map.of());
    }

    private static UpfSessionUplink uplinkKey(int i) {
        return UpfSessionUplink.builder().setTunDstAddr(N3).setTeid(0x1000L + i).build();
    }

    private int uplinkCounter(long upSeid) {
        for (UpfEntity e : sessions.entities(upSeid)) {
            if (e instanceof UpfTerminationUplink) {
                return ((UpfTerminationUplink) e).counterId();
            }
        }
        throw new AssertionError("no uplink termination");
    }

    @Test
    public void pfcpSessionsLiveOnTheBackendAndHeavyHittersAlsoOnTheSwitch() throws Exception {
        PfcpSession one = sessions.establish(draft(1, 0x2001));
        sessions.establish(draft(2, 0x2002));
        assertTrue(backend.holds(uplinkKey(1)) && backend.holds(uplinkKey(2)));
        assertEquals("the switch has the interfaces, no session", 0, hw.count(UpfEntityType.SESSION_UPLINK));
        assertEquals(2, hw.count(UpfEntityType.INTERFACE));

        backend.countUplink(uplinkKey(1), ue(1), 300);
        offload.onHeavyHitter(ue(1));
        assertTrue(hw.holds(uplinkKey(1)));
        assertFalse(hw.holds(uplinkKey(2)));
        hw.countUplink(uplinkKey(1), ue(1), 700);
        assertEquals("the usage the PFCP agent reports covers both paths", 1000,
                     sessions.readCounter(uplinkCounter(one.upSeid)).ingressBytes());
    }

    @Test
    public void aModifiedOffloadedSessionChangesOnBothTargets() throws Exception {
        PfcpSession one = sessions.establish(draft(1, 0x2001));
        offload.onHeavyHitter(ue(1));
        PfcpSession moved = draft(1, 0x2999);
        sessions.modify(new PfcpSession(one.upSeid, one.cpSeid, one.cpAddress, one.nodeId, moved.pdrs, moved.fars,
                                        moved.qers, moved.urrs, one.allocations));
        for (FakeUpfDevice d : List.of(backend, hw)) {
            List<? extends UpfEntity> terms = List.copyOf(d.readAll(UpfEntityType.TERMINATION_DOWNLINK));
            assertEquals(1, terms.size());
            assertEquals(0x2999, ((UpfTerminationDownlink) terms.get(0)).teid());
        }
        assertTrue(offload.isOffloaded(ue(1)));
    }

    @Test
    public void aDeletedSessionIsGoneFromBothTargets() throws Exception {
        PfcpSession one = sessions.establish(draft(1, 0x2001));
        sessions.establish(draft(2, 0x2002));
        offload.onHeavyHitter(ue(1));
        offload.onHeavyHitter(ue(2));
        sessions.delete(one.upSeid);
        for (FakeUpfDevice d : List.of(backend, hw)) {
            assertFalse(d.holds(uplinkKey(1)));
            assertEquals(1, d.count(UpfEntityType.SESSION_DOWNLINK));
            assertEquals(1, d.count(UpfEntityType.TERMINATION_UPLINK));
        }
        assertFalse(offload.isTracked(ue(1)));
        assertTrue(offload.isOffloaded(ue(2)));
    }

    @Test
    public void aDeletionsFinalUsageComesWithItsRemovalAndCoversBothPaths() throws Exception {
        PfcpSession one = sessions.establish(draft(1, 0x2001));
        PfcpSession two = sessions.establish(draft(2, 0x2002));
        backend.countUplink(uplinkKey(1), ue(1), 300);
        offload.onHeavyHitter(ue(1));
        hw.countUplink(uplinkKey(1), ue(1), 700);
        backend.countUplink(uplinkKey(2), ue(2), 55);
        int cellReads = backend.cellSetReads.get();
        int singleReads = backend.singleReads.get();

        DeletedSession first = sessions.deleteWithUsage(one.upSeid).join();
        DeletedSession second = sessions.deleteWithUsage(two.upSeid).join();

        assertEquals("switch and backend bytes, counted until the removal", 1000,
                     first.finalCounts().get(one.allocations.get("ctr:1")).ingressBytes());
        assertEquals(55, second.finalCounts().get(two.allocations.get("ctr:1")).ingressBytes());
        assertEquals("every counter cell of the session", Set.of(one.allocations.get("ctr:1"),
                     one.allocations.get("ctr:2")), first.finalCounts().keySet());
        assertEquals("one read per removing write, the one that also tells the offload manager", 2,
                     backend.cellSetReads.get() - cellReads);
        assertEquals("no read of a cell alone", singleReads, backend.singleReads.get());
    }

    @Test
    public void aDeviceThatDoesNotReturnFinalCountsIsReadAfterTheRemoval() throws Exception {
        FakeUpfDevice plain = new FakeUpfDevice(100_000, 65_536, 4_096);
        SessionManager direct = new SessionManager(new InMemorySessionStore(),
                                                   new SessionTranslator(N3, 1, Map.of(), 10),
                                                   new ResourcePool(65_536, 4_096), () -> List.of(plain), N3);
        PfcpSession one = direct.establish(draft(1, 0x2001));
        plain.countUplink(uplinkKey(1), ue(1), 400);
        DeletedSession d = direct.deleteWithUsage(one.upSeid).join();
        assertFalse(plain.holds(uplinkKey(1)));
        assertEquals(400, d.finalCounts().get(one.allocations.get("ctr:1")).ingressBytes());
        assertEquals("one read of the session's cells", 1, plain.cellSetReads.get());
        direct.close();
    }
}
