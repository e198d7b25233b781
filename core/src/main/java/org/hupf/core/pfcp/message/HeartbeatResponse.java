package org.hupf.core.pfcp.message;

import java.util.List;

/** Heartbeat Response (TS 29.244 §7.4.2.2): the Recovery Time Stamp only, no Cause. */
public final class HeartbeatResponse extends PfcpResponse {
    public final long recoveryTimeStamp;

    public HeartbeatResponse(int sequence, long recoveryTimeStamp) {
        super(sequence);
        this.recoveryTimeStamp = recoveryTimeStamp;
    }

    @Override
    protected List<Object> fields() {
        return List.of(sequence, recoveryTimeStamp);
    }
}
