package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/**
 * A Session Report Request (TS 29.244 §7.5.8) hupf sends to the CP function of a session: buffered downlink data
 * (Downlink Data Report: the PDRs whose packets are held) and usage (Usage Reports), the Report Type saying which.
 */
public final class SessionReportRequest extends Value {
    /** Report Type bit DLDR (§8.2.21): the request carries a Downlink Data Report. */
    public static final int DOWNLINK_DATA = 0x01;
    /** Report Type bit USAR: the request carries Usage Reports. */
    public static final int USAGE = 0x02;

    public final int sequence;
    /** The CP function's SEID, which the header carries. */
    public final long seid;
    /** Report Type bits. */
    public final int reportType;
    /** The PDR IDs of the Downlink Data Report; empty without one. */
    public final List<Integer> downlinkDataPdrIds;
    public final List<UsageReport> usageReports;

    public SessionReportRequest(int sequence, long seid, int reportType, List<Integer> downlinkDataPdrIds,
                                List<UsageReport> usageReports) {
        this.sequence = sequence;
        this.seid = seid;
        this.reportType = reportType;
        this.downlinkDataPdrIds = List.copyOf(downlinkDataPdrIds);
        this.usageReports = List.copyOf(usageReports);
    }

    /**
     * Reports buffered downlink data.
     *
     * @param sequence sequence number
     * @param seid     CP SEID
     * @param pdrId    the PDR whose packets are held
     * @return the request
     */
    public static SessionReportRequest downlinkData(int sequence, long seid, int pdrId) {
        return new SessionReportRequest(sequence, seid, DOWNLINK_DATA, List.of(pdrId), List.of());
    }

    /**
     * Reports one URR's usage.
     *
     * @param sequence sequence number
     * @param seid     CP SEID
     * @param report   usage report
     * @return the request
     */
    public static SessionReportRequest usage(int sequence, long seid, UsageReport report) {
        return new SessionReportRequest(sequence, seid, USAGE, List.of(), List.of(report));
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, seid, reportType, downlinkDataPdrIds, usageReports);
    }
}
