package org.hupf.core.offload;

import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.session.SessionManager;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.site.Site;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Per-site writing: a session's entities go to its site's devices only, each site's shared entities are counted
 * at that site, reconciliation diffs each device against its own site's sessions, and usage stays exact when a
 * counter cell passes from one site's session to another's.
 */
public class ControlPlaneSiteWritingTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final Site EDGE_A = site("edge-a", 1);
    private static final Site EDGE_B = site("edge-b", 2);

    private final InMemorySessionStore store = new InMemorySessionStore();
    private final InMemoryUpfDevice deviceA = new InMemoryUpfDevice("edge-a", 1024);
    private final InMemoryUpfDevice deviceB = new InMemoryUpfDevice("edge-b", 1024);
    private final ResourcePool pool = new ResourcePool(1024, 1024);
    private final SessionManager manager = manager();

    private static Site site(String id, int n) {
        return new Site(id, DeviceId.deviceId("device:s" + n), List.of(DeviceId.deviceId("device:b" + n)),
                        List.of(Ip4Prefix.valueOf("192.168." + n + ".0/24")), Set.of("access-" + n), List.of());
    }

    private SessionManager manager() {
        return ControlPlane.builder().store(store).pool(pool).devices(() -> List.of(deviceA, deviceB))
                .siteDevices(site -> List.of(site.equals(EDGE_A.id) ? deviceA : deviceB)).n3Addresses(List.of(N3))
                .uePools(List.of(Ip4Prefix.valueOf("10.250.0.0/16")))
                .networkInstances(Set.of("internet", "access-1", "access-2")).sites(List.of(EDGE_A, EDGE_B)).build()
                .sessionManager();
    }

    private static PfcpSession session(int ue, String gnb) {
        return session(0, ue, gnb);
    }

    private static PfcpSession session(long upSeid, int ue, String gnb) {
        Ip4Address ueAddr = Ip4Address.valueOf("10.250.0." + ue);
        Pdr ul = new Pdr(1, 1, Pdr.ACCESS, null, null, true, null, ueAddr, List.of(), null, 0, null, 1L, List.of(),
                         List.of());
        Pdr dl = new Pdr(2, 1, Pdr.CORE, null, null, false, null, ueAddr, List.of(), null, null, null, 2L,
                         List.of(), List.of());
        return new PfcpSession(upSeid, ue, "10.0.0.1", "smf", Map.of(1, ul, 2, dl),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null),
                                      2L, new Far(2, Far.FORW, Far.ACCESS, 0x200L + ue,
                                                  Ip4Address.valueOf(gnb), null)),
                               Map.of(), Map.of(), Map.of());
    }

    /** What a device holds, its interfaces left out (every site's devices have them). */
    private static List<UpfEntity> sessionEntries(InMemoryUpfDevice d) {
        List<UpfEntity> out = new ArrayList<>();
        for (UpfEntityType t : UpfEntityType.values()) {
            if (t != UpfEntityType.INTERFACE && t != UpfEntityType.COUNTER) {
                out.addAll(d.entities(t));
            }
        }
        return out;
    }

    /** A site's chosen F-TEIDs and its gNBs' downlink tunnels carry its own N3 address, which its gNBs reach. */
    @Test
    public void aSessionTakesItsSitesN3AddressBothWays() throws Exception {
        Ip4Address n3B = Ip4Address.valueOf("192.168.0.2");
        Site a = new Site(EDGE_A.id, EDGE_A.switchId, EDGE_A.backends, EDGE_A.gnbs, EDGE_A.n3NetworkInstances,
                          List.of(N3));
        Site b = new Site(EDGE_B.id, EDGE_B.switchId, EDGE_B.backends, EDGE_B.gnbs, EDGE_B.n3NetworkInstances,
                          List.of(n3B));
        SessionManager m = ControlPlane.builder().store(store).pool(pool).devices(() -> List.of(deviceA, deviceB))
                .siteDevices(site -> List.of(site.equals(a.id) ? deviceA : deviceB)).n3Addresses(List.of(N3, n3B))
                .uePools(List.of(Ip4Prefix.valueOf("10.250.0.0/16"))).networkInstances(Set.of("internet"))
                .sites(List.of(a, b)).build().sessionManager();
        for (InMemoryUpfDevice d : List.of(deviceA, deviceB)) {
            Ip4Address n3 = d == deviceA ? N3 : n3B;
            PfcpSession s = m.establish(session(d == deviceA ? 1 : 2, d == deviceA ? "192.168.1.7" : "192.168.2.7"));
            assertEquals(n3, s.pdrs.get(1).tunnelAddress);
            assertEquals(List.of(n3), d.entities(UpfEntityType.TUNNEL_PEER).stream()
                    .map(p -> ((UpfGtpTunnelPeer) p).src()).collect(Collectors.toList()));
        }
    }

    @Test
    public void eachSessionIsOnItsOwnSitesDeviceOnly() throws Exception {
        assertEquals(2, deviceA.count(UpfEntityType.INTERFACE));
        assertEquals(2, deviceB.count(UpfEntityType.INTERFACE));
        PfcpSession a = manager.establish(session(1, "192.168.1.7"));
        assertEquals(manager.entities(a.upSeid).size(), sessionEntries(deviceA).size());
        assertTrue(sessionEntries(deviceA).containsAll(manager.entities(a.upSeid)));
        assertEquals(List.of(), sessionEntries(deviceB));

        PfcpSession b = manager.establish(session(2, "192.168.2.7"));
        assertTrue(sessionEntries(deviceB).containsAll(manager.entities(b.upSeid)));
        assertEquals(manager.entities(b.upSeid).size(), sessionEntries(deviceB).size());
        for (UpfEntity e : manager.entities(a.upSeid)) {
            assertFalse(e + " of edge-a's session on edge-b's device", deviceB.holds(e));
        }

        manager.delete(a.upSeid);
        assertEquals(List.of(), sessionEntries(deviceA));
        assertEquals(manager.entities(b.upSeid).size(), sessionEntries(deviceB).size());
    }

    @Test
    public void aModificationNamingAnotherSiteIsRefusedAndChangesNothing() throws Exception {
        PfcpSession a = manager.establish(session(1, "192.168.1.7"));
        List<UpfEntity> before = sessionEntries(deviceA);
        PfcpSession moved = session(a.upSeid, 1, "192.168.2.9");
        try {
            manager.modify(moved.with(moved.pdrs, moved.fars, moved.qers, moved.urrs, a.allocations));
            fail("moved to edge-b");
        } catch (RuleException e) {
            assertEquals(Cause.RULE_CREATION_MODIFICATION_FAILURE, e.cause());
            assertTrue(e.getMessage(), e.getMessage().contains("is served at site edge-a: its new rules name site edge-b"));
        }
        assertEquals(before, sessionEntries(deviceA));
        assertEquals(List.of(), sessionEntries(deviceB));
        assertEquals(a, store.get(a.upSeid));
    }

    @Test
    public void reconciliationRepairsEachDeviceAgainstItsOwnSite() throws Exception {
        PfcpSession a = manager.establish(session(1, "192.168.1.7"));
        PfcpSession b = manager.establish(session(2, "192.168.2.7"));
        UpfEntity strayOfA = manager.entities(a.upSeid).iterator().next();
        deviceB.apply(strayOfA);
        UpfEntity lostOfB = manager.entities(b.upSeid).iterator().next();
        deviceB.delete(lostOfB);
        assertEquals(2, manager.reconcile());
        assertFalse(deviceB.holds(strayOfA));
        assertTrue(deviceB.holds(lostOfB));
        assertTrue(deviceA.holds(strayOfA));
        assertEquals(0, manager.reconcile());
    }

    @Test
    public void aDeviceHoldingAllItShouldAndAStrayLosesTheStrayOnly() throws Exception {
        PfcpSession a = manager.establish(session(1, "192.168.1.7"));
        manager.establish(session(2, "192.168.2.7"));
        UpfEntity strayOfA = manager.entities(a.upSeid).iterator().next();
        deviceB.apply(strayOfA);
        assertEquals(1, manager.reconcile());
        assertFalse(deviceB.holds(strayOfA));
        assertTrue(deviceA.holds(strayOfA));
        assertEquals(0, manager.reconcile());
    }

    @Test
    public void usageStaysExactWhenACellPassesToAnotherSitesSession() throws Exception {
        PfcpSession b = manager.establish(session(2, "192.168.2.7"));
        int cell = b.allocations.get("ctr:1");
        deviceB.setCounter(UpfCounter.builder().withCellId(cell).setIngress(5, 500).setEgress(5, 500).build());
        assertEquals(500, manager.readCounter(cell).ingressBytes());
        manager.delete(b.upSeid);
        PfcpSession a = manager.establish(session(1, "192.168.1.7"));
        assertEquals(cell, a.allocations.get("ctr:1").intValue());
        assertEquals(0, manager.readCounter(cell).ingressBytes());
        deviceA.setCounter(UpfCounter.builder().withCellId(cell).setIngress(3, 300).setEgress(3, 300).build());
        assertEquals(300, manager.readCounter(cell).ingressBytes());
    }

    @Test
    public void aCpFunctionsSessionsLeaveEverySiteAndARestartFindsEachSiteInLine() throws Exception {
        manager.establish(session(1, "192.168.1.7"));
        manager.establish(session(2, "192.168.2.7"));
        SessionManager restarted = manager();
        restarted.trackStoredSessions();
        assertEquals(0, restarted.reconcile());
        assertEquals(2, restarted.deleteByNodeAsync("smf").join().intValue());
        assertEquals(List.of(), sessionEntries(deviceA));
        assertEquals(List.of(), sessionEntries(deviceB));
        manager.close();
        restarted.close();
    }
}
