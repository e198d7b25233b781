package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** SDF Filter (TS 29.244 §8.2.5): hupf reads the flow description and the filter id. */
public final class SdfFilter extends Value {
    public final String flowDescription;
    /** Flags other than FD and BID: ToS, SPI, flow label; the session editor refuses them. */
    public final int otherFlags;
    public final Long filterId;

    public SdfFilter(String flowDescription, int otherFlags, Long filterId) {
        this.flowDescription = flowDescription;
        this.otherFlags = otherFlags;
        this.filterId = filterId;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(flowDescription, otherFlags, filterId);
    }
}
