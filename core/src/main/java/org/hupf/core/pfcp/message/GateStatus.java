package org.hupf.core.pfcp.message;

import java.util.List;

/** Gate Status (TS 29.244 §8.2.7): whether each direction's gate is closed. */
public final class GateStatus extends Value {
    public final boolean uplinkClosed;
    public final boolean downlinkClosed;

    public GateStatus(boolean uplinkClosed, boolean downlinkClosed) {
        this.uplinkClosed = uplinkClosed;
        this.downlinkClosed = downlinkClosed;
    }

    @Override
    protected List<Object> fields() {
        return List.of(uplinkClosed, downlinkClosed);
    }
}
