package org.hupf.core.pfcp.message;

import java.net.Inet4Address;
import java.util.Arrays;
import java.util.List;

/** F-TEID (TS 29.244 §8.2.3): TEID and IPv4 address, or CHOOSE (the UP function allocates them). */
public final class FTeid extends Value {
    public final long teid;
    public final Inet4Address ipv4;
    public final boolean choose;
    /** CHOOSE ID: PDRs with the same one share the allocated F-TEID; null if absent. */
    public final Integer chooseId;

    public FTeid(long teid, Inet4Address ipv4, boolean choose, Integer chooseId) {
        this.teid = teid;
        this.ipv4 = ipv4;
        this.choose = choose;
        this.chooseId = chooseId;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(teid, ipv4, choose, chooseId);
    }
}
