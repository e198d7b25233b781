package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/**
 * PFCP Session Establishment Response (TS 29.244 §7.5.3): this UP function's Node ID always; when accepted, the
 * UP F-SEID and a Created PDR for each F-TEID hupf chose.
 */
public final class EstablishmentResponse extends SessionResponse {
    public final NodeId nodeId;
    /** The session's UP F-SEID, or null when refused. */
    public final FSeid upFseid;
    public final List<CreatedPdr> createdPdrs;

    public EstablishmentResponse(int sequence, long seid, NodeId nodeId, int cause, Integer offendingIe,
                                 FailedRuleId failedRuleId, FSeid upFseid, List<CreatedPdr> createdPdrs) {
        super(sequence, seid, cause, offendingIe, failedRuleId);
        this.nodeId = nodeId;
        this.upFseid = upFseid;
        this.createdPdrs = List.copyOf(createdPdrs);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, seid, nodeId, cause, offendingIe, failedRuleId, upFseid, createdPdrs);
    }
}
