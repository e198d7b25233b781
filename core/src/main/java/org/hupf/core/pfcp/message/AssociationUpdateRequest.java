package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** PFCP Association Update Request (TS 29.244 §7.4.4.3): hupf reads only the Node ID. */
public final class AssociationUpdateRequest extends PfcpRequest {
    public final NodeId nodeId;

    public AssociationUpdateRequest(int sequence, NodeId nodeId) {
        super(sequence);
        this.nodeId = nodeId;
    }

    @Override
    public <R, C> R accept(RequestVisitor<R, C> visitor, C context) {
        return visitor.associationUpdate(this, context);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, nodeId);
    }
}
