package org.hupf.core.pfcp.message;

import java.net.Inet4Address;
import java.util.Arrays;
import java.util.List;

/** Outer Header Creation (TS 29.244 §8.2.56); only GTP-U/UDP/IPv4 is accepted in a request. */
public final class OuterHeaderCreation extends Value {
    public static final int GTPU_UDP_IPV4 = 0x0100;
    public static final int GTPU_UDP_IPV6 = 0x0200;
    public static final int UDP_IPV4 = 0x0400;
    public static final int UDP_IPV6 = 0x0800;
    public static final int IPV4 = 0x1000;
    public static final int IPV6 = 0x2000;
    public final int description;
    public final long teid;
    public final Inet4Address ipv4;
    public final int port;

    public OuterHeaderCreation(int description, long teid, Inet4Address ipv4, int port) {
        this.description = description;
        this.teid = teid;
        this.ipv4 = ipv4;
        this.port = port;
    }

    public static OuterHeaderCreation gtpuIpv4(long teid, Inet4Address peer) {
        return new OuterHeaderCreation(GTPU_UDP_IPV4, teid, peer, 0);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(description, teid, ipv4, port);
    }
}
