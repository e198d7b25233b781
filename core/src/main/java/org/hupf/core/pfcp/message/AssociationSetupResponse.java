package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** PFCP Association Setup Response (TS 29.244 §7.4.4.2): with the Recovery Time Stamp always. */
public final class AssociationSetupResponse extends NodeResponse {
    public final long recoveryTimeStamp;
    /** UP Function Features: sent when the association is accepted, else null. */
    public final Integer upFunctionFeatures;

    public AssociationSetupResponse(int sequence, NodeId nodeId, int cause, Integer offendingIe,
                                    long recoveryTimeStamp, Integer upFunctionFeatures) {
        super(sequence, nodeId, cause, offendingIe);
        this.recoveryTimeStamp = recoveryTimeStamp;
        this.upFunctionFeatures = upFunctionFeatures;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, nodeId, cause, offendingIe, recoveryTimeStamp, upFunctionFeatures);
    }
}
