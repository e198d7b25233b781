package org.hupf.core.site;

import org.hupf.api.session.Cause;
import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
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
 * Where a session is served: by its gNB, its access-side Network Instance or its F-TEID's N3 address, the same
 * site for every rule that names one, else refused with cause 73, the rule and the Offending IE.
 */
public class SitePlacementTest {

    private static final Ip4Address N3_A = Ip4Address.valueOf("192.168.10.1");
    private static final Ip4Address N3_B = Ip4Address.valueOf("192.168.20.1");
    static final Site EDGE_A = new Site("edge-a", DeviceId.deviceId("device:s1"),
                                        List.of(DeviceId.deviceId("device:b1")),
                                        List.of(Ip4Prefix.valueOf("10.1.0.0/16")), Set.of("access-a"),
                                        List.of(N3_A));
    static final Site EDGE_B = new Site("edge-b", DeviceId.deviceId("device:s2"),
                                        List.of(DeviceId.deviceId("device:b2"), DeviceId.deviceId("device:b3")),
                                        List.of(Ip4Prefix.valueOf("10.2.0.0/16"), Ip4Prefix.valueOf("10.3.0.7/32")),
                                        Set.of("access-b"), List.of(N3_B));

    private final SitePlacement placement = new SitePlacement(List.of(EDGE_A, EDGE_B));

    /** Uplink PDR 1 (F-TEID on N3 address {@code n3}, CHOOSE when null), FAR 2 towards the gNB (none: buffer). */
    private static PfcpSession session(Ip4Address n3, String uplinkInstance, String gnb) {
        Ip4Address ue = Ip4Address.valueOf("10.250.0.1");
        Pdr ul = new Pdr(1, 1, Pdr.ACCESS, n3 == null ? null : 0x100L, n3, n3 == null, null, ue, List.of(), null, 0,
                         uplinkInstance, 1L, List.of(), List.of());
        Pdr dl = new Pdr(2, 1, Pdr.CORE, null, null, false, null, ue, List.of(), null, null, "internet", 2L,
                         List.of(), List.of());
        Far toGnb = gnb == null ? new Far(2, Far.BUFF, Far.ACCESS, null, null, null)
                : new Far(2, Far.FORW, Far.ACCESS, 0x200L, Ip4Address.valueOf(gnb), null);
        return new PfcpSession(0, 1, "10.0.0.1", "smf", Map.of(1, ul, 2, dl),
                               Map.of(1L, new Far(1, Far.FORW, Far.CORE, null, null, null), 2L, toGnb),
                               Map.of(), Map.of(), Map.of());
    }

    private RuleException refused(PfcpSession s) {
        try {
            fail("placed at " + placement.place(s));
        } catch (RuleException e) {
            assertEquals(Cause.RULE_CREATION_MODIFICATION_FAILURE, e.cause());
            return e;
        }
        return null;
    }

    @Test
    public void aGnbPlacesItsSessionsAtTheSiteThatServesIt() throws Exception {
        assertEquals(EDGE_A, placement.place(session(null, null, "10.1.4.5")));
        assertEquals(EDGE_B, placement.place(session(null, null, "10.2.0.9")));
        assertEquals(EDGE_B, placement.place(session(null, null, "10.3.0.7")));
    }

    @Test
    public void aGnbNoSiteServesIsRefusedNamingItsFar() {
        RuleException e = refused(session(null, null, "10.3.0.8"));
        assertEquals(1, e.ruleType());
        assertEquals(2, e.ruleId());
        assertEquals(RuleException.OUTER_HEADER_CREATION_IE, e.offendingIe());
        assertTrue(e.getMessage(), e.getMessage().contains("gNB 10.3.0.8 is served by no site"));
        assertTrue(e.getMessage(), e.getMessage().contains("edge-b: gNBs [10.2.0.0/16, 10.3.0.7/32]"));
    }

    @Test
    public void theAccessNetworkInstancePlacesASessionWhoseGnbIsNotKnownYet() throws Exception {
        assertEquals(EDGE_B, placement.place(session(null, "access-b", null)));
        assertEquals(EDGE_A, placement.place(session(null, "access-a", "10.1.0.1")));
    }

    @Test
    public void anN3AddressTheSmfChosePlacesTheSessionButAChosenOneDoesNot() throws Exception {
        assertEquals(EDGE_B, placement.place(session(N3_B, null, null)));
        RuleException e = refused(session(null, "internet", null));
        assertEquals(0, e.ruleType());
        assertEquals(1, e.ruleId());
        assertEquals(RuleException.NETWORK_INSTANCE_IE, e.offendingIe());
        assertTrue(e.getMessage(), e.getMessage().contains("no rule names a site"));
    }

    @Test
    public void rulesNamingTwoSitesAreRefusedNamingTheSecond() {
        RuleException e = refused(session(null, "access-a", "10.2.0.1"));
        assertEquals(1, e.ruleType());
        assertEquals(2, e.ruleId());
        assertEquals(RuleException.OUTER_HEADER_CREATION_IE, e.offendingIe());
        assertTrue(e.getMessage(), e.getMessage().contains(
                "FAR 2's gNB 10.2.0.1 is site edge-b's, but PDR 1's Network Instance 'access-a' is site edge-a's"));
        e = refused(session(N3_A, "access-b", null));
        assertEquals(SitePlacement.F_TEID_IE, e.offendingIe());
    }

    @Test
    public void theOnlySiteServesWhatNamesNoSite() throws Exception {
        SitePlacement one = new SitePlacement(List.of(EDGE_A));
        assertEquals(EDGE_A, one.place(session(null, "internet", null)));
        assertEquals(EDGE_A, one.site("edge-a"));
        assertEquals(null, one.site("edge-b"));
    }
}
