package org.hupf.core.pfcp.codec;

import org.hupf.core.pfcp.message.SessionReportRequest;
import org.hupf.core.pfcp.message.UsageReport;
import org.hupf.core.pfcp.message.Volume;
import org.junit.Test;

import java.util.List;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

/**
 * hupf's own Session Report Request against scapy's bytes (tests/pfcp/vectors): each report the agent sends
 * encodes into the vector byte for byte, and the vector decodes into the typed request.
 */
public class ReportCodecTest {

    private static final long CP_SEID = 0x1122334455667788L;
    private static final long TS = 3_900_000_000L;

    private static byte[] encode(SessionReportRequest r) {
        return ReportCodec.encode(r);
    }

    private static SessionReportRequest decode(byte[] b) throws DecodeException {
        return ReportCodec.decode(PfcpCodec.decode(b, b.length));
    }

    @Test
    public void aUsageReportIsScapysBytes() throws Exception {
        SessionReportRequest r = SessionReportRequest.usage(11, CP_SEID, new UsageReport(
                1, 7, 0x0003, TS, TS + 60, new Volume(3000L, 1000L, 2000L), 60L));
        byte[] vector = PfcpCodecTest.vector("session_report_request_usage");
        assertArrayEquals(vector, encode(r));
        assertEquals(r, decode(vector));
    }

    @Test
    public void aDownlinkDataReportIsScapysBytes() throws Exception {
        SessionReportRequest r = SessionReportRequest.downlinkData(12, CP_SEID, 2);
        byte[] vector = PfcpCodecTest.vector("session_report_request_downlink_data");
        assertArrayEquals(vector, encode(r));
        assertEquals(r, decode(vector));
    }

    @Test
    public void aReportWithBothPartsDecodesItsPdrsAndUsageAndSkipsWhatHupfDoesNotSend() throws Exception {
        SessionReportRequest r = decode(PfcpCodecTest.vector("session_report_request"));
        assertEquals(SessionReportRequest.DOWNLINK_DATA | SessionReportRequest.USAGE, r.reportType);
        assertEquals(List.of(2), r.downlinkDataPdrIds);
        assertEquals(1, r.usageReports.size());
        assertEquals(10, r.sequence);
        assertEquals(CP_SEID, r.seid);
    }

    @Test(expected = DecodeException.class)
    public void aReportWithoutReportTypeIsRefused() throws Exception {
        ReportCodec.decode(PfcpMessage.session(MessageType.SESSION_REPORT_REQUEST, CP_SEID, 1, List.of()));
    }
}
