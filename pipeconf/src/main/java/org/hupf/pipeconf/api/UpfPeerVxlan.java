package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.MacAddress;

import java.util.Objects;

/**
 * The VXLAN overlay of a tunnel peer (a gNB in a tenant's overlay): its downlink GTP-U leaves inside VXLAN
 * with this VNI, from the local VTEP to the edge VTEP, the tenant frame between the overlay's MACs. Matches
 * {@code HupfEgress.tenant.peer_vxlan} (key {@code tun_peer_id}, action {@code vxlan_encap}); it lives as
 * long as the tunnel peer of the same id.
 */
public final class UpfPeerVxlan implements UpfEntity {

    /** VNI is bit&lt;24&gt;. */
    public static final int MAX_VNI = (1 << 24) - 1;

    private final int tunPeerId;
    private final int vni;
    private final Ip4Address vtepSrc;
    private final Ip4Address vtepDst;
    private final MacAddress innerSrcMac;
    private final MacAddress innerDstMac;

    private UpfPeerVxlan(int tunPeerId, int vni, Ip4Address vtepSrc, Ip4Address vtepDst, MacAddress innerSrcMac,
                         MacAddress innerDstMac) {
        this.tunPeerId = tunPeerId;
        this.vni = vni;
        this.vtepSrc = vtepSrc;
        this.vtepDst = vtepDst;
        this.innerSrcMac = innerSrcMac;
        this.innerDstMac = innerDstMac;
    }

    public int tunPeerId() {
        return tunPeerId;
    }

    public int vni() {
        return vni;
    }

    /** @return the local VTEP: the outer IPv4 source */
    public Ip4Address vtepSrc() {
        return vtepSrc;
    }

    /** @return the edge VTEP: the outer IPv4 destination, which routing must reach */
    public Ip4Address vtepDst() {
        return vtepDst;
    }

    public MacAddress innerSrcMac() {
        return innerSrcMac;
    }

    public MacAddress innerDstMac() {
        return innerDstMac;
    }

    @Override
    public UpfEntityType type() {
        return UpfEntityType.PEER_VXLAN;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UpfPeerVxlan)) {
            return false;
        }
        UpfPeerVxlan that = (UpfPeerVxlan) o;
        return tunPeerId == that.tunPeerId && vni == that.vni && vtepSrc.equals(that.vtepSrc)
                && vtepDst.equals(that.vtepDst) && innerSrcMac.equals(that.innerSrcMac)
                && innerDstMac.equals(that.innerDstMac);
    }

    /** Computed once: see {@link Hashes}. */
    private int hash;

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            int fields = 1;
            fields = Hashes.add(fields, tunPeerId);
            fields = Hashes.add(fields, vni);
            fields = Hashes.add(fields, vtepSrc);
            fields = Hashes.add(fields, vtepDst);
            fields = Hashes.add(fields, innerSrcMac);
            fields = Hashes.add(fields, innerDstMac);
            h = Hashes.spread(fields);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("UpfPeerVxlan").add("tunPeerId", tunPeerId).add("vni", vni)
                .add("vtepSrc", vtepSrc).add("vtepDst", vtepDst).add("innerSrcMac", innerSrcMac)
                .add("innerDstMac", innerDstMac).toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; every field is required, the id in [1, 255], the VNI 24 bits. */
    public static final class Builder {
        private Integer tunPeerId;
        private Integer vni;
        private Ip4Address vtepSrc;
        private Ip4Address vtepDst;
        private MacAddress innerSrcMac;
        private MacAddress innerDstMac;

        private Builder() {
        }

        public Builder withTunnelPeerId(int tunPeerId) {
            this.tunPeerId = tunPeerId;
            return this;
        }

        public Builder withVni(int vni) {
            this.vni = vni;
            return this;
        }

        public Builder withVteps(Ip4Address src, Ip4Address dst) {
            this.vtepSrc = src;
            this.vtepDst = dst;
            return this;
        }

        public Builder withInnerMacs(MacAddress src, MacAddress dst) {
            this.innerSrcMac = src;
            this.innerDstMac = dst;
            return this;
        }

        public UpfPeerVxlan build() {
            return new UpfPeerVxlan(Checks.inRange(tunPeerId, "tunPeerId", 1, Checks.MAX_TUN_PEER_ID),
                                    Checks.inRange(vni, "vni", 0, MAX_VNI), Checks.present(vtepSrc, "vtepSrc"),
                                    Checks.present(vtepDst, "vtepDst"), Checks.present(innerSrcMac, "innerSrcMac"),
                                    Checks.present(innerDstMac, "innerDstMac"));
        }
    }
}
