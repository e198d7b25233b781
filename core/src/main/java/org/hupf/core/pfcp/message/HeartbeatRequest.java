package org.hupf.core.pfcp.message;

import java.util.List;

/** Heartbeat Request (TS 29.244 §7.4.2.1). */
public final class HeartbeatRequest extends PfcpRequest {
    public final long recoveryTimeStamp;

    public HeartbeatRequest(int sequence, long recoveryTimeStamp) {
        super(sequence);
        this.recoveryTimeStamp = recoveryTimeStamp;
    }

    @Override
    public <R, C> R accept(RequestVisitor<R, C> visitor, C context) {
        return visitor.heartbeat(this, context);
    }

    @Override
    protected List<Object> fields() {
        return List.of(sequence, recoveryTimeStamp);
    }
}
