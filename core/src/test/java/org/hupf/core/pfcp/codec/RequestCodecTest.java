package org.hupf.core.pfcp.codec;

import org.hupf.core.pfcp.message.AssociationReleaseRequest;
import org.hupf.core.pfcp.message.AssociationSetupRequest;
import org.hupf.core.pfcp.message.AssociationUpdateRequest;
import org.hupf.core.pfcp.message.BitRate;
import org.hupf.core.pfcp.message.DeletionRequest;
import org.hupf.core.pfcp.message.EstablishmentRequest;
import org.hupf.core.pfcp.message.FSeid;
import org.hupf.core.pfcp.message.FTeid;
import org.hupf.core.pfcp.message.FailedRuleId;
import org.hupf.core.pfcp.message.FarChange;
import org.hupf.core.pfcp.message.ForwardingParameters;
import org.hupf.core.pfcp.message.GateStatus;
import org.hupf.core.pfcp.message.HeartbeatRequest;
import org.hupf.core.pfcp.message.ModificationRequest;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.OuterHeaderCreation;
import org.hupf.core.pfcp.message.Pdi;
import org.hupf.core.pfcp.message.PdrChange;
import org.hupf.core.pfcp.message.PfcpRequest;
import org.hupf.core.pfcp.message.QerChange;
import org.hupf.core.pfcp.message.RuleChange;
import org.hupf.core.pfcp.message.RuleChange.Op;
import org.hupf.core.pfcp.message.RuleRemoval;
import org.hupf.core.pfcp.message.SdfFilter;
import org.hupf.core.pfcp.message.UeIpAddress;
import org.hupf.core.pfcp.message.UrrChange;
import org.hupf.core.pfcp.message.Volume;
import org.junit.Test;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.fail;

/**
 * Typed requests both ways: scapy's bytes (tests/pfcp/vectors) decode into the typed request they carry and
 * encode back, and every kind of typed request and rule change encodes into bytes that decode into it again.
 * Malformed requests fail with the TS 29.244 cause and Offending IE the handler answers with.
 */
public class RequestCodecTest {

    private static PfcpRequest decode(byte[] b) throws DecodeException {
        return RequestCodec.decode(PfcpCodec.decode(b, b.length));
    }

    private static byte[] encode(PfcpRequest r) {
        return PfcpCodec.encode(RequestCodec.encode(r));
    }

    private static Inet4Address v4(String a) throws Exception {
        return (Inet4Address) InetAddress.getByName(a);
    }

    @Test
    public void nodeRequestsAndDeletionFromScapyEncodeBackToTheSameBytes() throws Exception {
        for (String name : List.of("heartbeat_request", "association_release_request", "session_deletion_request")) {
            byte[] bytes = PfcpCodecTest.vector(name);
            assertArrayEquals(name, bytes, encode(decode(bytes)));
        }
        assertEquals(new HeartbeatRequest(1, 3_900_000_000L), decode(PfcpCodecTest.vector("heartbeat_request")));
        assertEquals(new AssociationReleaseRequest(4, new NodeId(NodeId.IPV4, "10.0.0.1")),
                     decode(PfcpCodecTest.vector("association_release_request")));
        assertEquals(new DeletionRequest(9, 1), decode(PfcpCodecTest.vector("session_deletion_request")));
    }

    @Test
    public void requestsWithIesHupfSkipsEncodeBackWithoutThem() throws Exception {
        // The setup and update carry CP Function Features, the establishment BAR and enterprise IEs, the
        // modification BAR IEs: hupf acts on none of them, so the typed request drops them
        // and re-encodes to fewer bytes that decode to the same request.
        for (String name : List.of("association_setup_request", "association_update_request",
                                   "session_establishment_request", "session_modification_request")) {
            byte[] bytes = PfcpCodecTest.vector(name);
            PfcpRequest r = decode(bytes);
            byte[] again = encode(r);
            assertNotEquals(name, bytes.length, again.length);
            assertEquals(name, r, decode(again));
            assertArrayEquals(name, again, encode(decode(again)));
        }
        assertEquals(new AssociationSetupRequest(2, new NodeId(NodeId.IPV4, "10.0.0.1"), 3_900_000_000L),
                     decode(PfcpCodecTest.vector("association_setup_request")));
        assertEquals(new AssociationUpdateRequest(3, new NodeId(NodeId.IPV4, "10.0.0.1")),
                     decode(PfcpCodecTest.vector("association_update_request")));
    }

    @Test
    public void scapysEstablishmentDecodesIntoItsTypedRules() throws Exception {
        EstablishmentRequest e = (EstablishmentRequest) decode(PfcpCodecTest.vector("session_establishment_request"));
        assertEquals(new NodeId(NodeId.IPV4, "10.0.0.1"), e.nodeId);
        assertEquals(new FSeid(1234605616436508552L, v4("10.0.0.1"), null), e.cpFseid);
        assertEquals(7, e.rules.size());
        assertEquals(new PdrChange(Op.CREATE, 1, 200L, new Pdi(
                0, new FTeid(0, null, true, 5), "internet", new UeIpAddress(v4("10.250.0.1"), false, false),
                List.of(new SdfFilter("permit out ip from any to assigned", 0, 9L)), 9), 0, 1L, List.of(1L),
                             List.of(1L)), e.rules.get(0));
        assertEquals(new FarChange(Op.CREATE, 1, 2, new ForwardingParameters(1, null, "internet"), null),
                     e.rules.get(2));
        assertEquals(new FarChange(Op.CREATE, 2, 12, null, 1), e.rules.get(3));
        assertEquals(new UrrChange(Op.CREATE, 1, 2, 3, 60L, new Volume(10_000_000L, null, null)), e.rules.get(4));
        assertEquals(new QerChange(Op.CREATE, 2, new GateStatus(true, false), new BitRate(5000, 6000), null, null),
                     e.rules.get(6));
        ModificationRequest m = (ModificationRequest) decode(PfcpCodecTest.vector("session_modification_request"));
        assertEquals(List.of(1L), m.queryUrrIds);
        assertEquals(new RuleRemoval(FailedRuleId.PDR, 3), m.rules.get(4));
        // The update's Network Instance follows its Outer Header Creation on the wire: IE order does not matter.
        assertEquals(new FarChange(Op.UPDATE, 2, 2, new ForwardingParameters(
                0, OuterHeaderCreation.gtpuIpv4(2882400001L, v4("192.168.1.10")), "access"), null), m.rules.get(0));
    }

    @Test
    public void everyKindOfTypedRequestEncodesAndDecodesBack() throws Exception {
        Pdi pdi = new Pdi(1, new FTeid(0x1234, v4("192.168.0.1"), false, null), "internet.mnc001.mcc001.gprs",
                          new UeIpAddress(v4("10.250.0.7"), true, false),
                          List.of(new SdfFilter("permit out udp from any to assigned 53", 0, null),
                                  new SdfFilter("permit out ip from any to assigned", 0, 4L)), 5);
        List<RuleChange> creates = List.of(
                new PdrChange(Op.CREATE, 7, 100L, pdi, 0, 3L, List.of(1L, 2L), List.of(9L)),
                new FarChange(Op.CREATE, 3, 2, new ForwardingParameters(
                        0, OuterHeaderCreation.gtpuIpv4(0xabcdef01L, v4("192.168.1.10")), "tenant-a.backhaul"), 4),
                new QerChange(Op.CREATE, 1, new GateStatus(false, true), new BitRate(1L << 39, 1),
                              new BitRate(2, 3), 9),
                new UrrChange(Op.CREATE, 9, 3, 0x0103, 60L, new Volume(1L, 2L, Long.MAX_VALUE)));
        List<RuleChange> changes = new ArrayList<>(List.of(
                new RuleRemoval(FailedRuleId.PDR, 2), new RuleRemoval(FailedRuleId.FAR, 2),
                new RuleRemoval(FailedRuleId.QER, 2), new RuleRemoval(FailedRuleId.URR, 2),
                new PdrChange(Op.UPDATE, 7, null, null, null, 4L, List.of(), List.of()),
                new PdrChange(Op.UPDATE, 8, 9L, pdi, 1, null, List.of(3L), List.of()),
                new FarChange(Op.UPDATE, 3, null, new ForwardingParameters(null, null, null), null),
                new FarChange(Op.UPDATE, 4, 12, null, null),
                new QerChange(Op.UPDATE, 1, null, null, new BitRate(0, 0), null),
                new UrrChange(Op.UPDATE, 9, null, null, null, new Volume(null, 5L, null))));
        changes.addAll(creates);
        List<PfcpRequest> all = List.of(
                new HeartbeatRequest(1, 0xffffffffL),
                new AssociationSetupRequest(2, new NodeId(NodeId.FQDN, "smf.example.org"), 7),
                new AssociationUpdateRequest(3, new NodeId(NodeId.IPV4, "10.0.0.1")),
                new AssociationReleaseRequest(0xffffff, new NodeId(NodeId.IPV6, "2001:db8:0:0:0:0:0:1")),
                new EstablishmentRequest(5, 0, new NodeId(NodeId.IPV4, "10.0.0.1"),
                                         new FSeid(-1L, v4("10.0.0.1"), null), creates),
                new ModificationRequest(6, 42, new FSeid(43, v4("10.0.0.2"), null), changes, List.of(9L, 10L)),
                new ModificationRequest(7, 42, null, List.of(), List.of()),
                new DeletionRequest(8, 42));
        for (PfcpRequest r : all) {
            byte[] bytes = encode(r);
            assertEquals(r.toString(), r, decode(bytes));
            assertArrayEquals(r.toString(), bytes, encode(decode(bytes)));
        }
    }

    private static Ie createPdr(Ie... pdiExtra) {
        List<Ie> pdi = new ArrayList<>(List.of(Ie.u8(IeType.SOURCE_INTERFACE, 0)));
        pdi.addAll(List.of(pdiExtra));
        return Ie.grouped(IeType.CREATE_PDR, Ie.u16(IeType.PDR_ID, 1), Ie.u32(IeType.PRECEDENCE, 1),
                          Ie.grouped(IeType.PDI, pdi));
    }

    private static final Ie CREATE_FAR = Ie.grouped(IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 1),
                                                    Ie.u8(IeType.APPLY_ACTION, 2));

    private static void assertFault(DecodeException.Kind kind, int offendingIe, int messageType, Ie... ies) {
        boolean session = MessageType.isSessionMessage(messageType);
        List<Ie> all = new ArrayList<>();
        if (messageType == MessageType.SESSION_ESTABLISHMENT_REQUEST) {
            all.add(IeFields.NODE_ID.encode(new NodeId(NodeId.IPV4, "10.0.0.1")));
            all.add(Ie.leaf(IeType.F_SEID, new byte[]{2, 0, 0, 0, 0, 0, 0, 0, 1, 10, 0, 0, 1}));
        }
        all.addAll(List.of(ies));
        byte[] b = PfcpCodec.encode(session ? PfcpMessage.session(messageType, 0, 1, all)
                                            : PfcpMessage.node(messageType, 1, all));
        try {
            decode(b);
            fail("decoded " + all);
        } catch (DecodeException e) {
            assertEquals(e.getMessage(), kind, e.kind());
            assertEquals(e.getMessage(), offendingIe, e.ieType());
        }
    }

    @Test
    public void malformedRequestsFailWithTheirCauseAndOffendingIe() {
        int est = MessageType.SESSION_ESTABLISHMENT_REQUEST;
        int mod = MessageType.SESSION_MODIFICATION_REQUEST;
        DecodeException.Kind missing = DecodeException.Kind.MANDATORY_IE_MISSING;
        DecodeException.Kind incorrect = DecodeException.Kind.MANDATORY_IE_INCORRECT;
        assertFault(missing, IeType.RECOVERY_TIME_STAMP, MessageType.HEARTBEAT_REQUEST);
        assertFault(incorrect, IeType.RECOVERY_TIME_STAMP, MessageType.HEARTBEAT_REQUEST,
                    Ie.u16(IeType.RECOVERY_TIME_STAMP, 1));
        assertFault(missing, IeType.NODE_ID, MessageType.ASSOCIATION_RELEASE_REQUEST);
        assertFault(incorrect, IeType.NODE_ID, MessageType.ASSOCIATION_SETUP_REQUEST,
                    Ie.leaf(IeType.NODE_ID, new byte[]{5, 1, 2, 3, 4}), Ie.u32(IeType.RECOVERY_TIME_STAMP, 1));
        assertFault(missing, IeType.CREATE_PDR, est, CREATE_FAR);
        assertFault(missing, IeType.CREATE_FAR, est, createPdr());
        assertFault(missing, IeType.PDR_ID, est, CREATE_FAR, Ie.grouped(IeType.CREATE_PDR,
                                                                        Ie.u32(IeType.PRECEDENCE, 1)));
        assertFault(missing, IeType.SOURCE_INTERFACE, est, CREATE_FAR, Ie.grouped(
                IeType.CREATE_PDR, Ie.u16(IeType.PDR_ID, 1), Ie.u32(IeType.PRECEDENCE, 1), Ie.grouped(IeType.PDI)));
        assertFault(incorrect, IeType.F_TEID, est, CREATE_FAR, createPdr(Ie.u8(IeType.F_TEID, 0x08)));
        assertFault(incorrect, IeType.UE_IP_ADDRESS, est, CREATE_FAR, createPdr(Ie.u8(IeType.UE_IP_ADDRESS, 0x04)));
        assertFault(incorrect, IeType.SDF_FILTER, est, CREATE_FAR,
                    createPdr(Ie.leaf(IeType.SDF_FILTER, new byte[]{1, 0, 0, 9, 'x'})));
        assertFault(missing, IeType.APPLY_ACTION, est, createPdr(),
                    Ie.grouped(IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 1)));
        assertFault(missing, IeType.DESTINATION_INTERFACE, est, createPdr(), Ie.grouped(
                IeType.CREATE_FAR, Ie.u32(IeType.FAR_ID, 1), Ie.u8(IeType.APPLY_ACTION, 2),
                Ie.grouped(IeType.FORWARDING_PARAMETERS)));
        assertFault(incorrect, IeType.OUTER_HEADER_CREATION, mod, Ie.grouped(
                IeType.UPDATE_FAR, Ie.u32(IeType.FAR_ID, 1), Ie.grouped(
                        IeType.UPDATE_FORWARDING_PARAMETERS, IeFields.OUTER_HEADER_CREATION.encode(
                                new OuterHeaderCreation(OuterHeaderCreation.UDP_IPV4, 0, null, 2152)))));
        assertFault(missing, IeType.GATE_STATUS, mod, Ie.grouped(IeType.CREATE_QER, Ie.u32(IeType.QER_ID, 1)));
        assertFault(incorrect, IeType.MBR, mod, Ie.grouped(IeType.UPDATE_QER, Ie.u32(IeType.QER_ID, 1),
                                                           Ie.u32(IeType.MBR, 1)));
        assertFault(missing, IeType.REPORTING_TRIGGERS, mod, Ie.grouped(
                IeType.CREATE_URR, Ie.u32(IeType.URR_ID, 1), Ie.u8(IeType.MEASUREMENT_METHOD, 2)));
        assertFault(incorrect, IeType.REPORTING_TRIGGERS, mod, Ie.grouped(
                IeType.CREATE_URR, Ie.u32(IeType.URR_ID, 1), Ie.u8(IeType.MEASUREMENT_METHOD, 2),
                Ie.u8(IeType.REPORTING_TRIGGERS, 1)));
        assertFault(missing, IeType.FAR_ID, mod, Ie.grouped(IeType.REMOVE_FAR));
        assertFault(incorrect, IeType.PDR_ID, mod, Ie.grouped(IeType.REMOVE_PDR, Ie.u8(IeType.PDR_ID, 1)));
        assertFault(missing, IeType.URR_ID, mod, Ie.grouped(IeType.QUERY_URR));
        assertFault(incorrect, IeType.F_SEID, mod, Ie.leaf(IeType.F_SEID, new byte[]{0, 0, 0, 0, 0, 0, 0, 0, 1}));
    }
}
