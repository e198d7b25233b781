package org.hupf.core.site;

import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.junit.Test;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.DeviceId;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

/**
 * A change of the sites is refused when it would serve a stored session at no site, at another site, or without
 * its F-TEID's N3 address, naming how many sessions of which site; any other change passes.
 */
public class SiteChangeTest {

    private static final Ip4Address N3_A = Ip4Address.valueOf("192.168.10.1");
    private static final Ip4Address N3_B = Ip4Address.valueOf("192.168.20.1");
    private static final Site EDGE_A = site("edge-a", "10.1.0.0/16", N3_A);
    private static final Site EDGE_B = site("edge-b", "10.2.0.0/16", N3_B);

    private static Site site(String id, String gnbs, Ip4Address n3) {
        return new Site(id, DeviceId.deviceId("device:s-" + id), List.of(DeviceId.deviceId("device:b-" + id)),
                        List.of(Ip4Prefix.valueOf(gnbs)), Set.of(), List.of(n3));
    }

    /** A session towards {@code gnb} whose uplink F-TEID hupf chose on {@code n3}. */
    private static PfcpSession session(long seid, String gnb, Ip4Address n3) {
        Ip4Address ue = Ip4Address.valueOf("10.250.0." + seid);
        Pdr ul = new Pdr(1, 1, Pdr.ACCESS, 0x100L + seid, n3, true, null, ue, List.of(), null, 0, null, 1L, List.of(),
                         List.of());
        Far toGnb = new Far(2, Far.FORW, Far.ACCESS, 0x200L, Ip4Address.valueOf(gnb), null);
        return new PfcpSession(seid, seid, "10.0.0.1", "smf", Map.of(1, ul),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null), 2L, toGnb),
                               Map.of(), Map.of(), Map.of());
    }

    private static final List<PfcpSession> STORED = List.of(
            session(1, "10.1.0.5", N3_A), session(2, "10.1.0.6", N3_A), session(3, "10.2.0.5", N3_B));

    @Test
    public void removingASiteThatHoldsSessionsIsRefusedWithTheirCount() {
        assertEquals("sites: the change strands stored sessions (a session stays at the site it was established"
                             + " at): 1 session at site edge-b would be served by no site. Delete them (their SMF"
                             + " releases them) or keep their site, then apply the change",
                     SiteChange.refusal(List.of(EDGE_A, EDGE_B), List.of(EDGE_A), () -> STORED));
        assertNull("no stored session there", SiteChange.refusal(List.of(EDGE_A, EDGE_B), List.of(EDGE_A),
                                                                 () -> STORED.subList(0, 2)));
    }

    @Test
    public void movingAGnbToAnotherSiteIsRefusedForItsSessions() {
        Site widerB = site("edge-b", "10.0.0.0/8", N3_B);
        Site narrowerA = site("edge-a", "10.1.0.5/32", N3_A);
        String refusal = SiteChange.refusal(List.of(EDGE_A, EDGE_B), List.of(narrowerA, widerB), () -> STORED);
        assertEquals("1 session at site edge-a would move to site edge-b",
                     refusal.substring(refusal.indexOf("1 session"), refusal.indexOf('.')));
    }

    @Test
    public void readdressingASiteIsRefusedForTheSessionsWhoseFteidsCarryTheOldAddress() {
        Site readdressed = new Site("edge-a", EDGE_A.switchId, EDGE_A.backends, EDGE_A.gnbs, Set.of(),
                                    List.of(Ip4Address.valueOf("192.168.10.9")));
        String refusal = SiteChange.refusal(List.of(EDGE_A, EDGE_B), List.of(readdressed, EDGE_B), () -> STORED);
        assertEquals("2 sessions at site edge-a would keep F-TEIDs on 192.168.10.1, no longer an N3 address of site"
                             + " edge-a (now [192.168.10.9])",
                     refusal.substring(refusal.indexOf("2 sessions"), refusal.indexOf(". Delete")));
        Site addressAdded = new Site("edge-a", EDGE_A.switchId, EDGE_A.backends, EDGE_A.gnbs, Set.of(),
                                     List.of(Ip4Address.valueOf("192.168.10.9"), N3_A));
        assertNull(SiteChange.refusal(List.of(EDGE_A, EDGE_B), List.of(addressAdded, EDGE_B), () -> STORED));
    }

    @Test
    public void changesThatKeepEverySessionWhereItIsServedPass() {
        Site moreGnbs = new Site("edge-a", EDGE_A.switchId, EDGE_A.backends,
                                 List.of(Ip4Prefix.valueOf("10.1.0.0/16"), Ip4Prefix.valueOf("10.9.0.0/16")),
                                 Set.of("access-a"), EDGE_A.n3Addresses);
        assertNull(SiteChange.refusal(List.of(EDGE_A, EDGE_B), List.of(moreGnbs, EDGE_B), () -> STORED));
        assertNull("a third site", SiteChange.refusal(List.of(EDGE_A, EDGE_B),
                List.of(EDGE_A, EDGE_B, site("edge-c", "10.3.0.0/16", Ip4Address.valueOf("192.168.30.1"))),
                () -> STORED));
        assertNull("back to one implicit site",
                   SiteChange.refusal(List.of(EDGE_A, EDGE_B), List.of(), () -> STORED));
        assertNull("the same sites: the store is not read", SiteChange.refusal(List.of(EDGE_A, EDGE_B),
                List.of(EDGE_A, EDGE_B), () -> {
                    throw new AssertionError("the store was read");
                }));
    }

    @Test
    public void namingSitesWhereThereWasOneImplicitSiteChecksEverySession() {
        String refusal = SiteChange.refusal(List.of(), List.of(EDGE_A), () -> STORED);
        assertEquals("1 session at site default would be served by no site",
                     refusal.substring(refusal.indexOf("1 session"), refusal.indexOf(". Delete")));
        assertNull(SiteChange.refusal(List.of(), List.of(EDGE_A, EDGE_B), () -> STORED));
    }
}
