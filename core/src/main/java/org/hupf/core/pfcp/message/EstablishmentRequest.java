package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** PFCP Session Establishment Request (TS 29.244 §7.5.2): at least one Create PDR and one Create FAR. */
public final class EstablishmentRequest extends SessionRequest {
    public final NodeId nodeId;
    public final FSeid cpFseid;
    /** The Create PDR/FAR/QER/URR IEs in message order. */
    public final List<RuleChange> rules;

    public EstablishmentRequest(int sequence, long seid, NodeId nodeId, FSeid cpFseid, List<RuleChange> rules) {
        super(sequence, seid);
        this.nodeId = nodeId;
        this.cpFseid = cpFseid;
        this.rules = List.copyOf(rules);
    }

    @Override
    public <R, C> R accept(RequestVisitor<R, C> visitor, C context) {
        return visitor.establishment(this, context);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, seid, nodeId, cpFseid, rules);
    }
}
