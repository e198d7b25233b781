package org.hupf.core.pfcp.message;

import java.util.List;

/** PFCP Session Deletion Request (TS 29.244 §7.5.6): only the header's SEID. */
public final class DeletionRequest extends SessionRequest {

    public DeletionRequest(int sequence, long seid) {
        super(sequence, seid);
    }

    @Override
    public <R, C> R accept(RequestVisitor<R, C> visitor, C context) {
        return visitor.deletion(this, context);
    }

    @Override
    protected List<Object> fields() {
        return List.of(sequence, seid);
    }
}
