package org.hupf.pipeconf.dataplane;

import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;

import java.util.Objects;

/**
 * A route no PFCP session owns ({@code routes_v4}): packets to a prefix leave by a port, with the router's
 * MAC as source and the next hop's as destination (the gNB behind N3, the data network behind N6).
 */
public final class Route {

    private final Ip4Prefix prefix;
    private final long port;
    private final MacAddress srcMac;
    private final MacAddress dstMac;

    public Route(Ip4Prefix prefix, long port, MacAddress srcMac, MacAddress dstMac) {
        this.prefix = Objects.requireNonNull(prefix, "prefix");
        this.port = port;
        this.srcMac = Objects.requireNonNull(srcMac, "srcMac");
        this.dstMac = Objects.requireNonNull(dstMac, "dstMac");
    }

    public Ip4Prefix prefix() {
        return prefix;
    }

    public long port() {
        return port;
    }

    public MacAddress srcMac() {
        return srcMac;
    }

    public MacAddress dstMac() {
        return dstMac;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Route)) {
            return false;
        }
        Route r = (Route) o;
        return prefix.equals(r.prefix) && port == r.port && srcMac.equals(r.srcMac) && dstMac.equals(r.dstMac);
    }

    @Override
    public int hashCode() {
        return Objects.hash(prefix, port, srcMac, dstMac);
    }

    @Override
    public String toString() {
        return prefix + " via port " + port + " (" + srcMac + " -> " + dstMac + ")";
    }
}
