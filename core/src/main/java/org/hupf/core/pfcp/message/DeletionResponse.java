package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** PFCP Session Deletion Response (TS 29.244 §7.5.7): each URR's final usage report. */
public final class DeletionResponse extends SessionResponse {
    public final List<UsageReport> usageReports;

    public DeletionResponse(int sequence, long seid, int cause, Integer offendingIe, FailedRuleId failedRuleId,
                            List<UsageReport> usageReports) {
        super(sequence, seid, cause, offendingIe, failedRuleId);
        this.usageReports = List.copyOf(usageReports);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, seid, cause, offendingIe, failedRuleId, usageReports);
    }
}
