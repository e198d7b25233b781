package org.hupf.core.pfcp.message;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.util.Arrays;
import java.util.List;

/** F-SEID (TS 29.244 §8.2.37): SEID and the CP or UP function's address (at least one of the two). */
public final class FSeid extends Value {
    public final long seid;
    public final Inet4Address ipv4;
    public final Inet6Address ipv6;

    public FSeid(long seid, Inet4Address ipv4, Inet6Address ipv6) {
        this.seid = seid;
        this.ipv4 = ipv4;
        this.ipv6 = ipv6;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(seid, ipv4, ipv6);
    }
}
