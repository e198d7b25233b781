package org.hupf.core.pfcp.message;

import java.util.List;

/** MBR (TS 29.244 §8.2.8) or GBR (§8.2.9): uplink and downlink bit rates in kbit/s, 40 bits each. */
public final class BitRate extends Value {
    public final long uplinkKbps;
    public final long downlinkKbps;

    public BitRate(long uplinkKbps, long downlinkKbps) {
        this.uplinkKbps = uplinkKbps;
        this.downlinkKbps = downlinkKbps;
    }

    @Override
    protected List<Object> fields() {
        return List.of(uplinkKbps, downlinkKbps);
    }
}
