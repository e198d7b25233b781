package org.hupf.core.pfcp;

import org.hupf.api.session.Far;
import org.hupf.api.session.Pdr;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.Qer;
import org.hupf.api.session.RuleException;
import org.hupf.api.session.Urr;
import org.hupf.core.pfcp.codec.DecodeException;
import org.hupf.core.pfcp.codec.Ie;
import org.hupf.core.pfcp.codec.IeType;
import org.hupf.core.pfcp.codec.MessageType;
import org.hupf.core.pfcp.codec.PfcpCodec;
import org.hupf.core.pfcp.codec.PfcpMessage;
import org.hupf.core.pfcp.codec.RequestCodec;
import org.hupf.core.pfcp.message.EstablishmentRequest;
import org.hupf.core.pfcp.message.FarChange;
import org.hupf.core.pfcp.message.ModificationRequest;
import org.hupf.core.pfcp.message.RuleChange;
import org.junit.Test;
import org.onlab.packet.Ip4Address;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

/**
 * Rule IEs made by scapy (tests/pfcp/vectors), decoded by the request codec, applied to the session model.
 */
public class SessionEditorTest {

    private static PfcpMessage vector(String name) throws Exception {
        byte[] b = Files.readAllBytes(Paths.get("..", "tests", "pfcp", "vectors", name + ".bin"));
        return PfcpCodec.decode(b, b.length);
    }

    private static List<RuleChange> establishmentRules() throws Exception {
        return ((EstablishmentRequest) RequestCodec.decode(vector("session_establishment_request"))).rules;
    }

    private static List<RuleChange> modificationRules() throws Exception {
        return ((ModificationRequest) RequestCodec.decode(vector("session_modification_request"))).rules;
    }

    /** The rule changes of an establishment made of the vector's Node ID and F-SEID and the given rule IEs. */
    private static List<RuleChange> rules(Ie... ies) throws Exception {
        PfcpMessage vector = vector("session_establishment_request");
        List<Ie> all = new ArrayList<>(List.of(vector.require(IeType.NODE_ID), vector.require(IeType.F_SEID),
                                                         vector.require(IeType.CREATE_PDR),
                                                         vector.require(IeType.CREATE_FAR)));
        all.addAll(List.of(ies));
        List<RuleChange> rules = ((EstablishmentRequest) RequestCodec.decode(
                PfcpMessage.session(MessageType.SESSION_ESTABLISHMENT_REQUEST, 0, 1, all))).rules;
        return rules.subList(2, rules.size());
    }

    private static PfcpSession session(SessionEditor ed) {
        return new PfcpSession(1, 2, "10.0.0.1", "10.0.0.1", ed.pdrs(), ed.fars(), ed.qers(), ed.urrs(), Map.of());
    }

    private static SessionEditor established() throws Exception {
        SessionEditor ed = new SessionEditor(null);
        ed.apply(establishmentRules());
        return ed;
    }

    @Test
    public void establishmentBecomesTheModel() throws Exception {
        SessionEditor ed = established();
        Pdr ul = ed.pdrs().get(1);
        assertEquals(Pdr.ACCESS, ul.sourceInterface);
        assertTrue(ul.choose);
        assertEquals(5, (int) ul.chooseId);
        assertEquals(Ip4Address.valueOf("10.250.0.1"), ul.ueAddress);
        assertEquals(List.of("permit out ip from any to assigned"), ul.sdfFilters);
        assertEquals(9, (int) ul.qfi);
        assertEquals("internet", ul.networkInstance);
        assertEquals(0, (int) ul.outerHeaderRemoval);
        assertEquals(List.of(1L), ul.qerIds);
        Pdr dl = ed.pdrs().get(2);
        assertEquals(Pdr.CORE, dl.sourceInterface);
        assertEquals(List.of(1L, 2L), dl.qerIds);
        assertEquals("with its Forwarding Parameters' Network Instance",
                     new Far(1, Far.FORW, Far.CORE, null, null, null, "internet"), ed.fars().get(1L));
        assertEquals(new Far(2, Far.BUFF | Far.NOCP, null, null, null, 1), ed.fars().get(2L));
        assertEquals(new Qer(1, false, false, 100_000L, 200_000L, 1_000L, 2_000L, 9), ed.qers().get(1L));
        assertEquals(new Qer(2, true, false, 5_000L, 6_000L, null, null, null), ed.qers().get(2L));
        assertEquals(new Urr(1, Urr.VOLUM, Urr.PERIO | Urr.VOLTH, 60L, 10_000_000L, null, null), ed.urrs().get(1L));
    }

    @Test
    public void modificationUpdatesCreatesAndRefusesUnknownRemovals() throws Exception {
        SessionEditor ed = established();
        List<RuleChange> changes = modificationRules();
        try {
            ed.apply(changes);
            fail("removed unknown rules");
        } catch (RuleException e) {
            assertEquals("remove of unknown rule id 3", e.getMessage());
        }
        ed = new SessionEditor(session(established()));
        ed.apply(changes.stream().filter(c -> c.op != RuleChange.Op.REMOVE).collect(Collectors.toList()));
        assertEquals(new Far(2, Far.FORW, Far.ACCESS, 0xabcdef01L, Ip4Address.valueOf("192.168.1.10"), 1, "access"),
                     ed.fars().get(2L));
        assertEquals(100, ed.pdrs().get(2).precedence);
        assertEquals(List.of(1L, 2L), ed.pdrs().get(2).qerIds);
        assertEquals(new Qer(1, false, false, 300_000L, 400_000L, 1_000L, 2_000L, 9), ed.qers().get(1L));
        Urr u = ed.urrs().get(1L);
        assertEquals(5_000L, (long) u.volumeThresholdUplink);
        assertEquals(6_000L, (long) u.volumeThresholdDownlink);
        // An IE in Update URR replaces the old IE as a whole: the total threshold is gone.
        assertEquals(null, u.volumeThresholdTotal);
        assertEquals(0x20L, (long) ed.pdrs().get(4).teid);
    }

    @Test
    public void aModificationCopiesOnlyTheKindsOfRuleItChangesAndLeavesItsBaseAsItWas() throws Exception {
        PfcpSession base = session(established());
        long farId = base.fars.keySet().iterator().next();
        SessionEditor ed = new SessionEditor(base);
        ed.apply(List.of(new FarChange(RuleChange.Op.UPDATE, farId, Far.DROP, null, null)));
        assertSame(base.pdrs, ed.pdrs());
        assertSame(base.qers, ed.qers());
        assertSame(base.urrs, ed.urrs());
        assertEquals(Far.DROP, ed.fars().get(farId).applyAction);
        assertEquals(base.fars.keySet(), ed.fars().keySet());
        assertTrue(base.fars.get(farId).applyAction != Far.DROP);
    }

    @Test
    public void ueAddressAllocationByTheUpfIsRefusedWithAReason() throws Exception {
        Ie pdr = Ie.grouped(IeType.CREATE_PDR, Ie.u16(IeType.PDR_ID, 7), Ie.u32(IeType.PRECEDENCE, 1),
                            Ie.grouped(IeType.PDI, Ie.u8(IeType.SOURCE_INTERFACE, Pdr.CORE),
                                       Ie.u8(IeType.UE_IP_ADDRESS, 0x10 | 0x04)));
        try {
            new SessionEditor(null).apply(rules(pdr));
            fail();
        } catch (RuleException e) {
            assertEquals(org.hupf.api.session.Cause.SERVICE_NOT_SUPPORTED, e.cause());
            assertEquals(7, e.ruleId());
        }
    }

    @Test
    public void createdTwiceOrMissingMandatoryIeIsRefused() throws Exception {
        SessionEditor ed = established();
        try {
            ed.apply(rules(vector("session_establishment_request").ie(IeType.CREATE_FAR)));
            fail();
        } catch (RuleException e) {
            assertEquals(1, e.ruleType());
        }
        try {
            rules(Ie.grouped(IeType.CREATE_QER, Ie.u32(IeType.QER_ID, 9)));
            fail();
        } catch (DecodeException e) {
            assertEquals(DecodeException.Kind.MANDATORY_IE_MISSING, e.kind());
            assertEquals(IeType.GATE_STATUS, e.ieType());
        }
    }
}
