package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** PFCP Association Setup Request (TS 29.244 §7.4.4.1). */
public final class AssociationSetupRequest extends PfcpRequest {
    public final NodeId nodeId;
    public final long recoveryTimeStamp;

    public AssociationSetupRequest(int sequence, NodeId nodeId, long recoveryTimeStamp) {
        super(sequence);
        this.nodeId = nodeId;
        this.recoveryTimeStamp = recoveryTimeStamp;
    }

    @Override
    public <R, C> R accept(RequestVisitor<R, C> visitor, C context) {
        return visitor.associationSetup(this, context);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, nodeId, recoveryTimeStamp);
    }
}
