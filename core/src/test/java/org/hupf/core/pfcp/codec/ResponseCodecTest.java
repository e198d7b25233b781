package org.hupf.core.pfcp.codec;

import org.hupf.core.pfcp.message.AssociationSetupResponse;
import org.hupf.core.pfcp.message.CreatedPdr;
import org.hupf.core.pfcp.message.DeletionResponse;
import org.hupf.core.pfcp.message.EstablishmentResponse;
import org.hupf.core.pfcp.message.FSeid;
import org.hupf.core.pfcp.message.FTeid;
import org.hupf.core.pfcp.message.FailedRuleId;
import org.hupf.core.pfcp.message.HeartbeatResponse;
import org.hupf.core.pfcp.message.NodeId;
import org.hupf.core.pfcp.message.PfcpResponse;
import org.hupf.core.pfcp.message.SessionReportRequest;
import org.hupf.core.pfcp.message.UsageReport;
import org.hupf.core.pfcp.message.Volume;
import org.junit.Test;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

/**
 * Typed responses both ways, against scapy's bytes (tests/pfcp/vectors): every response type hupf sends decodes
 * into the typed response it carries and encodes back into the same bytes, IE order included.
 */
public class ResponseCodecTest {

    private static final long CP_SEID = 1234605616436508552L;

    private static PfcpResponse decode(byte[] b) throws DecodeException {
        return ResponseCodec.decode(PfcpCodec.decode(b, b.length));
    }

    private static byte[] encode(PfcpResponse r) {
        return ResponseCodec.encode(r);
    }

    private static Inet4Address v4(String a) throws Exception {
        return (Inet4Address) InetAddress.getByName(a);
    }

    @Test
    public void everyResponseFromScapyEncodesBackToTheSameBytes() throws Exception {
        for (String name : List.of("heartbeat_response", "version_not_supported_response",
                                   "association_setup_response", "association_update_response",
                                   "association_release_response", "session_establishment_response",
                                   "session_establishment_response_rejected", "session_modification_response",
                                   "session_deletion_response")) {
            byte[] bytes = PfcpCodecTest.vector(name);
            assertArrayEquals(name, bytes, encode(decode(bytes)));
        }
    }

    @Test
    public void responsesDecodeIntoTheirTypedValues() throws Exception {
        assertEquals(new HeartbeatResponse(1, 3_900_000_001L), decode(PfcpCodecTest.vector("heartbeat_response")));
        assertEquals(new AssociationSetupResponse(2, new NodeId(NodeId.FQDN, "upf.hupf.test"), 1, null,
                                                  3_900_000_001L, 257),
                     decode(PfcpCodecTest.vector("association_setup_response")));
        assertEquals(new EstablishmentResponse(6, CP_SEID, new NodeId(NodeId.IPV4, "10.0.0.2"), 1, null, null,
                                               new FSeid(1, v4("10.0.0.2"), null),
                                               List.of(new CreatedPdr(1, new FTeid(268435457L, v4("192.168.0.1"),
                                                                                  false, null)))),
                     decode(PfcpCodecTest.vector("session_establishment_response")));
        assertEquals(new EstablishmentResponse(7, CP_SEID, new NodeId(NodeId.IPV4, "10.0.0.2"), 73, 23,
                                               new FailedRuleId(FailedRuleId.PDR, 1), null, List.of()),
                     decode(PfcpCodecTest.vector("session_establishment_response_rejected")));
        assertEquals(new DeletionResponse(9, CP_SEID, 1, null, null, List.of(new UsageReport(
                             1, 7, 0x0800, 3_900_000_000L, 3_900_000_060L, new Volume(3000L, 1000L, 2000L), 60L))),
                     decode(PfcpCodecTest.vector("session_deletion_response")));
    }

    @Test
    public void aUsageReportTravelsAsTheIeOfItsMessage() throws Exception {
        UsageReport r = new UsageReport(3, 0, 0x0001, 10, 20, null, 10L);
        byte[] b = ReportCodec.encode(new SessionReportRequest(5, CP_SEID, 0x02, List.of(), List.of(r)));
        Ie ie = PfcpCodec.decode(b, b.length).child(IeType.USAGE_REPORT_REPORT);
        assertEquals(List.of(IeType.URR_ID, IeType.UR_SEQN, IeType.USAGE_REPORT_TRIGGER, IeType.START_TIME,
                             IeType.END_TIME, IeType.DURATION_MEASUREMENT),
                     ie.children().stream().map(Ie::type).collect(java.util.stream.Collectors.toList()));
    }

    @Test
    public void aDatagramOutgrowingItsFirstBufferDecodesBackToItsResponse() throws Exception {
        // Many reports: the writer's buffer grows past its first capacity, every IE's length set where it ends.
        List<UsageReport> reports = new java.util.ArrayList<>();
        for (int i = 0; i < 40; i++) {
            reports.add(new UsageReport(i, i, 0x0800, 3_900_000_000L + i, 3_900_000_060L + i,
                                        new Volume(3000L * i, 1000L * i, 2000L * i), (long) i));
        }
        DeletionResponse d = new DeletionResponse(9, CP_SEID, 1, null, null, reports);
        assertEquals(d, decode(encode(d)));
    }
}
