package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/**
 * Volume Threshold (TS 29.244 §8.2.13) or Volume Measurement (§8.2.44): total, uplink, downlink bytes,
 * each present or null.
 */
public final class Volume extends Value {
    public final Long total;
    public final Long uplink;
    public final Long downlink;

    public Volume(Long total, Long uplink, Long downlink) {
        this.total = total;
        this.uplink = uplink;
        this.downlink = downlink;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(total, uplink, downlink);
    }
}
