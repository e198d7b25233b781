package org.hupf.core.session;

import org.hupf.api.TenantOverlay;
import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.device.InMemoryUpfDevice;
import org.hupf.core.translation.ResourcePool;
import org.hupf.core.translation.SessionTenant;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.store.InMemorySessionStore;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.hupf.pipeconf.dataplane.Tenant;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.util.List;
import java.util.Map;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Sessions bound to a VXLAN tenant by their access-side Network Instance: the gNB's tunnel peer routed to the
 * tenant's edge VTEP with its {@code peer_vxlan} entry for as long as the peer lives, and a gNB bound to one
 * tenant (or none) refusing the sessions of another with cause 73, the FAR and the Offending IE, state unchanged.
 */
public class TenantBindingTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final Ip4Address GNB = Ip4Address.valueOf("192.168.1.10");
    private static final Ip4Address OTHER_GNB = Ip4Address.valueOf("192.168.1.11");
    private static final TenantOverlay OVERLAY_A = new TenantOverlay(
            Ip4Address.valueOf("172.16.0.1"), Ip4Address.valueOf("172.16.0.2"),
            MacAddress.valueOf("02:00:00:00:0a:01"), MacAddress.valueOf("02:00:00:00:0a:02"));
    private static final TenantOverlay OVERLAY_B = new TenantOverlay(
            Ip4Address.valueOf("172.17.0.1"), Ip4Address.valueOf("172.17.0.2"),
            MacAddress.valueOf("02:00:00:00:0b:01"), MacAddress.valueOf("02:00:00:00:0b:02"));
    private static final Map<String, SessionTenant> TENANTS = Map.of(
            "tenant-a", new SessionTenant("tenant-a", new Tenant(5001, OVERLAY_A.vtepSrc, 1, 0, 0), OVERLAY_A),
            "tenant-b", new SessionTenant("tenant-b", new Tenant(5002, OVERLAY_B.vtepSrc, 2, 0, 0), OVERLAY_B));

    private final InMemoryUpfDevice device = new InMemoryUpfDevice("backend", 1024);
    /** The netcfg's tenants as the translator reads them at each change. */
    private volatile Map<String, SessionTenant> tenants = TENANTS;
    private final SessionManager manager = new SessionManager(
            new InMemorySessionStore(), new SessionTranslator(N3, 0, Map.of(), 10, () -> tenants),
            new ResourcePool(1024, 1024), () -> List.of(device), N3);
    private long cpSeid = 1;

    /** A UE's session: uplink PDR (its PDI's Network Instance), downlink PDR to FAR 2 towards the gNB. */
    private PfcpSession session(int ue, String uplinkInstance, Ip4Address gnb, String farInstance) {
        Ip4Address ueAddr = Ip4Address.valueOf("10.250.0." + ue);
        Pdr ul = new Pdr(1, 1, Pdr.ACCESS, 0x100L + ue, N3, false, null, ueAddr, List.of(), null, 0, uplinkInstance,
                         1L, List.of(), List.of());
        Pdr dl = new Pdr(2, 1, Pdr.CORE, null, null, false, null, ueAddr, List.of(), null, null, "internet", 2L,
                         List.of(), List.of());
        return new PfcpSession(0, cpSeid++, "10.0.0.1", "smf", Map.of(1, ul, 2, dl),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null),
                                      2L, new Far(2, Far.FORW, Far.ACCESS, 0x200L + ue, gnb, null, farInstance)),
                               Map.of(), Map.of(), Map.of());
    }

    private List<UpfEntity> overlays() {
        return device.entities(UpfEntityType.PEER_VXLAN);
    }

    private UpfGtpTunnelPeer peer() {
        List<UpfEntity> peers = device.entities(UpfEntityType.TUNNEL_PEER);
        assertEquals(1, peers.size());
        return (UpfGtpTunnelPeer) peers.get(0);
    }

    @Test
    public void aBoundSessionsPeerGoesThroughTheTenantsOverlayUntilItsLastSessionGoes() throws Exception {
        PfcpSession first = manager.establish(session(1, null, GNB, "tenant-a"));
        UpfGtpTunnelPeer peer = peer();
        assertEquals("the gNB is still the GTP-U destination", GNB, peer.dst());
        assertEquals("routing reaches the edge VTEP", OVERLAY_A.vtepDst, peer.routingDst());
        assertEquals(List.of(UpfPeerVxlan.builder().withTunnelPeerId(peer.tunPeerId()).withVni(5001)
                                     .withVteps(OVERLAY_A.vtepSrc, OVERLAY_A.vtepDst)
                                     .withInnerMacs(OVERLAY_A.innerSrcMac, OVERLAY_A.innerDstMac).build()),
                     overlays());

        // Bound by its uplink PDI alone, a second UE of the tenant shares the peer and its overlay.
        PfcpSession second = manager.establish(session(2, "tenant-a", GNB, null));
        assertEquals(peer, peer());
        assertEquals(1, overlays().size());

        manager.delete(first.upSeid);
        assertEquals("the second session still uses the overlay", 1, overlays().size());
        manager.delete(second.upSeid);
        assertEquals(0, overlays().size());
        assertEquals(0, device.count(UpfEntityType.TUNNEL_PEER));
    }

    @Test
    public void aGnbOfOneTenantRefusesAnotherTenantsSessionsAndUnboundOnesWithNothingChanged() throws Exception {
        manager.establish(session(1, null, GNB, "tenant-a"));
        List<UpfEntity> peers = device.entities(UpfEntityType.TUNNEL_PEER);
        List<UpfEntity> overlays = overlays();
        int entities = manager.entityCount();

        RuleException other = refused(session(2, null, GNB, "tenant-b"));
        assertEquals(RuleException.NETWORK_INSTANCE_IE, other.offendingIe());
        assertTrue(other.getMessage(), other.getMessage().contains("gNB 192.168.1.10 is bound to tenant tenant-a"));
        // No Network Instance (or one that names no tenant) is no tenant: the gNB's overlay would carry it.
        RuleException unbound = refused(session(3, "internet", GNB, null));
        assertEquals(RuleException.OUTER_HEADER_CREATION_IE, unbound.offendingIe());

        assertEquals(1, manager.store().all().size());
        assertEquals(entities, manager.entityCount());
        assertEquals(peers, device.entities(UpfEntityType.TUNNEL_PEER));
        assertEquals(overlays, overlays());
        // Another gNB is free to take the other tenant.
        manager.establish(session(4, null, OTHER_GNB, "tenant-b"));
        assertEquals(2, overlays().size());
    }

    @Test
    public void aGnbOfUnboundSessionsRefusesATenantsSession() throws Exception {
        manager.establish(session(1, "internet", GNB, "access"));
        assertEquals(0, overlays().size());
        RuleException e = refused(session(2, "tenant-a", GNB, null));
        assertEquals(RuleException.NETWORK_INSTANCE_IE, e.offendingIe());
        assertTrue(e.getMessage(), e.getMessage().contains("bound to no tenant by 1 session(s)"));
        assertEquals(GNB, peer().routingDst());
    }

    @Test
    public void aSessionNamingTwoTenantsIsRefusedAtTheSecondRule() {
        try {
            manager.establish(session(1, "tenant-a", GNB, "tenant-b"));
            fail("bound to two tenants");
        } catch (RuleException e) {
            assertEquals(Cause.RULE_CREATION_MODIFICATION_FAILURE, e.cause());
            assertEquals("FAR", 1, e.ruleType());
            assertEquals(2, e.ruleId());
            assertEquals(RuleException.NETWORK_INSTANCE_IE, e.offendingIe());
        }
        assertEquals(0, device.count(UpfEntityType.TUNNEL_PEER));
    }

    @Test
    public void theOnlySessionOfAGnbMovesItToAnotherTenantOnANewPeer() throws Exception {
        PfcpSession s = manager.establish(session(1, null, GNB, "tenant-a"));
        int before = peer().tunPeerId();
        PfcpSession moved = session(1, null, GNB, "tenant-b");
        manager.modify(s.with(moved.pdrs, moved.fars, moved.qers, moved.urrs, s.allocations));
        UpfGtpTunnelPeer after = peer();
        assertNotEquals(before, after.tunPeerId());
        assertEquals(OVERLAY_B.vtepDst, after.routingDst());
        assertEquals(1, overlays().size());
        assertEquals(5002, ((UpfPeerVxlan) overlays().get(0)).vni());
    }

    /**
     * A tenant's overlay edited in the netcfg: the gNB's sessions keep the overlay they were set up with, a new
     * one towards that gNB is refused rather than re-encapsulating theirs; once they are gone it takes the new one.
     */
    @Test
    public void anEditedOverlayWaitsForTheGnbsSessionsToGo() throws Exception {
        PfcpSession first = manager.establish(session(1, null, GNB, "tenant-a"));
        TenantOverlay moved = new TenantOverlay(OVERLAY_A.vtepSrc, Ip4Address.valueOf("172.16.9.2"),
                                                OVERLAY_A.innerSrcMac, OVERLAY_A.innerDstMac);
        tenants = Map.of("tenant-a", new SessionTenant("tenant-a", TENANTS.get("tenant-a").entry, moved));
        List<UpfEntity> overlays = overlays();
        try {
            manager.establish(session(2, null, GNB, "tenant-a"));
            fail("re-encapsulated the first session's traffic");
        } catch (RuleException e) {
            assertEquals(Cause.RULE_CREATION_MODIFICATION_FAILURE, e.cause());
            assertTrue(e.getMessage(), e.getMessage().contains("1 other session(s) hold"));
        }
        assertEquals(overlays, overlays());
        assertEquals(1, manager.store().all().size());
        manager.delete(first.upSeid);
        manager.establish(session(2, null, GNB, "tenant-a"));
        assertEquals(moved.vtepDst, peer().routingDst());
        assertEquals(moved.vtepDst, ((UpfPeerVxlan) overlays().get(0)).vtepDst());
    }

    private RuleException refused(PfcpSession draft) {
        try {
            manager.establish(draft);
        } catch (RuleException e) {
            assertEquals(Cause.RULE_CREATION_MODIFICATION_FAILURE, e.cause());
            assertEquals("FAR", 1, e.ruleType());
            assertEquals(2, e.ruleId());
            return e;
        }
        throw new AssertionError("established on a gNB of another binding");
    }
}
