package org.hupf.app.session;

import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.util.Objects;

/**
 * A VXLAN tenant as sessions see it: the Network Instance (TS 29.244 §8.2.4) that binds a session to it, its
 * tenant id and VNI, and the overlay its gNBs sit in, if any: a bound session's tunnel peer gets a
 * {@code peer_vxlan} entry with it and is routed towards the edge VTEP (docs/PIPELINE_CONTRACT.md, "VXLAN
 * tenants").
 */
public final class SessionTenant {

    /** The VXLAN overlay of a tenant's gNBs. */
    public static final class Overlay {
        /** The local VTEP: the outer IPv4 source. */
        public final Ip4Address vtepSrc;
        /** The edge VTEP: the outer IPv4 destination, which routing must reach. */
        public final Ip4Address vtepDst;
        public final MacAddress innerSrcMac;
        public final MacAddress innerDstMac;

        public Overlay(Ip4Address vtepSrc, Ip4Address vtepDst, MacAddress innerSrcMac, MacAddress innerDstMac) {
            this.vtepSrc = Objects.requireNonNull(vtepSrc, "vtepSrc");
            this.vtepDst = Objects.requireNonNull(vtepDst, "vtepDst");
            this.innerSrcMac = Objects.requireNonNull(innerSrcMac, "innerSrcMac");
            this.innerDstMac = Objects.requireNonNull(innerDstMac, "innerDstMac");
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Overlay)) {
                return false;
            }
            Overlay v = (Overlay) o;
            return vtepSrc.equals(v.vtepSrc) && vtepDst.equals(v.vtepDst) && innerSrcMac.equals(v.innerSrcMac)
                    && innerDstMac.equals(v.innerDstMac);
        }

        @Override
        public int hashCode() {
            return Objects.hash(vtepSrc, vtepDst, innerSrcMac, innerDstMac);
        }
    }

    public final String networkInstance;
    public final int tenantId;
    public final int vni;
    /** Null when the tenant's gNBs are reached without VXLAN. */
    public final Overlay overlay;

    public SessionTenant(String networkInstance, int tenantId, int vni, Overlay overlay) {
        this.networkInstance = Objects.requireNonNull(networkInstance, "networkInstance");
        this.tenantId = tenantId;
        this.vni = vni;
        this.overlay = overlay;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SessionTenant)) {
            return false;
        }
        SessionTenant t = (SessionTenant) o;
        return networkInstance.equals(t.networkInstance) && tenantId == t.tenantId && vni == t.vni
                && Objects.equals(overlay, t.overlay);
    }

    @Override
    public int hashCode() {
        return Objects.hash(networkInstance, tenantId, vni, overlay);
    }

    @Override
    public String toString() {
        return "SessionTenant{" + networkInstance + ", tenantId=" + tenantId + ", vni=" + vni
                + (overlay == null ? "" : ", edge VTEP " + overlay.vtepDst) + "}";
    }
}
