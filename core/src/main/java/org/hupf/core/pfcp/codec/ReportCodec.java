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
     * @return message
     */
    public static PfcpMessage encode(SessionReportRequest r) {
        List<Ie> ies = new ArrayList<>(2 + r.usageReports.size());
        ies.add(IeFields.REPORT_TYPE.encode(r.reportType));
        if (!r.downlinkDataPdrIds.isEmpty()) {
            List<Ie> pdrs = new ArrayList<>(r.downlinkDataPdrIds.size());
            r.downlinkDataPdrIds.forEach(id -> pdrs.add(IeFields.PDR_ID.encode(id)));
            ies.add(Ie.grouped(IeType.DOWNLINK_DATA_REPORT, pdrs));
        }
        r.usageReports.forEach(u -> ies.add(ResponseCodec.usageReport(IeType.USAGE_REPORT_REPORT, u)));
        return PfcpMessage.session(MessageType.SESSION_REPORT_REQUEST, r.seid, r.sequence, ies);
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
