package org.hupf.api;

import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.util.Objects;

/**
 * The VXLAN overlay a tenant's gNBs sit in (the netcfg tenant's {@code overlay}): what
 * {@code HupfEgress.tenant.peer_vxlan}'s {@code vxlan_encap} needs beside the tenant's VNI.
 */
public final class TenantOverlay {
    /** The local VTEP: the outer IPv4 source. */
    public final Ip4Address vtepSrc;
    /** The edge VTEP: the outer IPv4 destination, which routing must reach. */
    public final Ip4Address vtepDst;
    public final MacAddress innerSrcMac;
    public final MacAddress innerDstMac;

    public TenantOverlay(Ip4Address vtepSrc, Ip4Address vtepDst, MacAddress innerSrcMac, MacAddress innerDstMac) {
        this.vtepSrc = Objects.requireNonNull(vtepSrc, "vtepSrc");
        this.vtepDst = Objects.requireNonNull(vtepDst, "vtepDst");
        this.innerSrcMac = Objects.requireNonNull(innerSrcMac, "innerSrcMac");
        this.innerDstMac = Objects.requireNonNull(innerDstMac, "innerDstMac");
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TenantOverlay)) {
            return false;
        }
        TenantOverlay v = (TenantOverlay) o;
        return vtepSrc.equals(v.vtepSrc) && vtepDst.equals(v.vtepDst) && innerSrcMac.equals(v.innerSrcMac)
                && innerDstMac.equals(v.innerDstMac);
    }

    @Override
    public int hashCode() {
        return Objects.hash(vtepSrc, vtepDst, innerSrcMac, innerDstMac);
    }
}
