package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** PFCP Association Release Request (TS 29.244 §7.4.4.5). */
public final class AssociationReleaseRequest extends PfcpRequest {
    public final NodeId nodeId;

    public AssociationReleaseRequest(int sequence, NodeId nodeId) {
        super(sequence);
        this.nodeId = nodeId;
    }

    @Override
    public <R, C> R accept(RequestVisitor<R, C> visitor, C context) {
        return visitor.associationRelease(this, context);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, nodeId);
    }
}
