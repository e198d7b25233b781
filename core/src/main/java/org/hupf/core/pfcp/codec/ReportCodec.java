package org.hupf.core.pfcp.codec;

import org.hupf.core.pfcp.message.SessionReportRequest;
import org.hupf.core.pfcp.message.UsageReport;

import java.util.ArrayList;
import java.util.List;

/**
 * Encodes hupf's own Session Report Request ({@link SessionReportRequest}) with the {@link IeFields} descriptors,
 * its IEs in the order TS 29.244 §7.5.8.1 lists them, and decodes such a message back (the tests' golden vectors).
 */
public final class ReportCodec {

    private ReportCodec() {
    }

    /**
     * Encodes a Session Report Request.
     *
     * @param r request
     * @return datagram
     */
    public static byte[] encode(SessionReportRequest r) {
        IeWriter out = PfcpCodec.message(MessageType.SESSION_REPORT_REQUEST, true, r.seid, r.sequence, -1);
        IeFields.REPORT_TYPE.write(r.reportType, out);
        if (!r.downlinkDataPdrIds.isEmpty()) {
            int at = out.begin(IeType.DOWNLINK_DATA_REPORT);
            r.downlinkDataPdrIds.forEach(id -> IeFields.PDR_ID.write(id, out));
            out.end(at);
        }
        ResponseCodec.writeUsageReports(IeType.USAGE_REPORT_REPORT, r.usageReports, out);
        return PfcpCodec.finish(out);
    }

    /**
     * Decodes a Session Report Request: the IEs hupf sends (others are skipped).
     *
     * @param m message of type Session Report Request
     * @return typed request
     * @throws DecodeException Report Type missing or malformed, or a malformed PDR ID or Usage Report
     */
    public static SessionReportRequest decode(PfcpMessage m) throws DecodeException {
        if (m.type() != MessageType.SESSION_REPORT_REQUEST) {
            throw new IllegalArgumentException("message type " + m.type() + " is not a Session Report Request");
        }
        List<Integer> pdrIds = new ArrayList<>();
        for (Ie report : m.all(IeType.DOWNLINK_DATA_REPORT)) {
            pdrIds.addAll(IeFields.PDR_ID.all(report));
        }
        List<UsageReport> usage = ResponseCodec.usageReports(m, IeType.USAGE_REPORT_REPORT);
        return new SessionReportRequest(m.sequence(), m.seid(), IeFields.REPORT_TYPE.require(m), pdrIds, usage);
    }
}
