package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** PFCP Association Release Response (TS 29.244 §7.4.4.6). */
public final class AssociationReleaseResponse extends NodeResponse {

    public AssociationReleaseResponse(int sequence, NodeId nodeId, int cause, Integer offendingIe) {
        super(sequence, nodeId, cause, offendingIe);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, nodeId, cause, offendingIe);
    }
}
