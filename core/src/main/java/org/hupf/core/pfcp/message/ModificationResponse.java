package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/**
 * PFCP Session Modification Response (TS 29.244 §7.5.5): a Created PDR for each F-TEID newly chosen, and the
 * usage reports the modification asked for (Query URR) or ended (a removed URR).
 */
public final class ModificationResponse extends SessionResponse {
    public final List<CreatedPdr> createdPdrs;
    public final List<UsageReport> usageReports;

    public ModificationResponse(int sequence, long seid, int cause, Integer offendingIe, FailedRuleId failedRuleId,
                                List<CreatedPdr> createdPdrs, List<UsageReport> usageReports) {
        super(sequence, seid, cause, offendingIe, failedRuleId);
        this.createdPdrs = List.copyOf(createdPdrs);
        this.usageReports = List.copyOf(usageReports);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, seid, cause, offendingIe, failedRuleId, createdPdrs, usageReports);
    }
}
