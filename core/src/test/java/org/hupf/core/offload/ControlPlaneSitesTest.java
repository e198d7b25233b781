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
import org.hupf.pipeconf.api.UpfEntityType;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * The session core the builder composes with sites: a session whose gNB a site serves is established, one whose
 * gNB no site serves is refused with cause 73 before anything is allocated, stored or written.
 */
public class ControlPlaneSitesTest {

    private static final Ip4Address N3 = Ip4Address.valueOf("192.168.0.1");
    private static final Site EDGE_A = new Site("edge-a", DeviceId.deviceId("device:s1"),
                                                List.of(DeviceId.deviceId("device:b1")),
                                                List.of(Ip4Prefix.valueOf("192.168.1.0/24")), Set.of("access-a"),
                                                List.of());
    private static final Site EDGE_B = new Site("edge-b", DeviceId.deviceId("device:s2"),
                                                List.of(DeviceId.deviceId("device:b2")),
                                                List.of(Ip4Prefix.valueOf("192.168.2.0/24")), Set.of("access-b"),
                                                List.of());

    private final InMemorySessionStore store = new InMemorySessionStore();
    private final InMemoryUpfDevice device = new InMemoryUpfDevice("backend-b", 1024);
    private final InMemoryUpfDevice otherSite = new InMemoryUpfDevice("backend-a", 1024);
    private final SessionManager manager = ControlPlane.builder().store(store).pool(new ResourcePool(1024, 1024))
            .devices(() -> List.of(otherSite, device))
            .siteDevices(site -> List.of(site.equals(EDGE_A.id) ? otherSite : device)).n3Addresses(List.of(N3))
            .uePools(List.of(Ip4Prefix.valueOf("10.250.0.0/16")))
            .networkInstances(Set.of("internet", "access-a", "access-b")).sites(List.of(EDGE_A, EDGE_B)).build()
            .sessionManager();

    private static PfcpSession session(int ue, String gnb) {
        Ip4Address ueAddr = Ip4Address.valueOf("10.250.0." + ue);
        Pdr ul = new Pdr(1, 1, Pdr.ACCESS, null, null, true, null, ueAddr, List.of(), null, 0, null, 1L, List.of(),
                         List.of());
        Pdr dl = new Pdr(2, 1, Pdr.CORE, null, null, false, null, ueAddr, List.of(), null, null, null, 2L,
                         List.of(), List.of());
        return new PfcpSession(0, ue, "10.0.0.1", "smf", Map.of(1, ul, 2, dl),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null),
                                      2L, new Far(2, Far.FORW, Far.ACCESS, 0x200L + ue,
                                                  Ip4Address.valueOf(gnb), null)),
                               Map.of(), Map.of(), Map.of());
    }

    @Test
    public void aServedGnbIsEstablishedAnUnservedOneRefusedWithNothingWritten() throws Exception {
        manager.establish(session(1, "192.168.2.7"));
        assertEquals(1, store.all().size());
        int peers = device.count(UpfEntityType.TUNNEL_PEER);
        int uplinks = device.count(UpfEntityType.SESSION_UPLINK);
        assertEquals(1, peers);
        try {
            manager.establish(session(2, "192.168.3.7"));
            fail("established");
        } catch (RuleException e) {
            assertEquals(Cause.RULE_CREATION_MODIFICATION_FAILURE, e.cause());
            assertEquals(2, e.ruleId());
            assertEquals(RuleException.OUTER_HEADER_CREATION_IE, e.offendingIe());
            assertTrue(e.getMessage(), e.getMessage().contains("gNB 192.168.3.7 is served by no site"));
        }
        assertEquals(1, store.all().size());
        assertEquals(peers, device.count(UpfEntityType.TUNNEL_PEER));
        assertEquals(uplinks, device.count(UpfEntityType.SESSION_UPLINK));
    }
}
