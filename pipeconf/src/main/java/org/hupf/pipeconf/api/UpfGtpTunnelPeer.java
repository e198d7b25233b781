package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Address;

import java.util.Objects;

/**
 * A GTP-U tunnel peer (a gNB): outer source, destination and UDP source port used to encapsulate
 * downlink traffic, and the address routing takes its packets to (the peer itself, or for a peer in a
 * tenant's VXLAN overlay the edge VTEP). Matches {@code ig_tunnel_peers} (routing) and {@code eg_tunnel_peers}.
 */
public final class UpfGtpTunnelPeer implements UpfEntity {

    /** GTP-U's registered port (TS 29.281), the default source port. */
    public static final int GTPU_PORT = 2152;

    private final int tunPeerId;
    private final Ip4Address src;
    private final Ip4Address dst;
    private final int srcPort;
    private final Ip4Address routingDst;

    private UpfGtpTunnelPeer(int tunPeerId, Ip4Address src, Ip4Address dst, int srcPort, Ip4Address routingDst) {
        this.tunPeerId = tunPeerId;
        this.src = src;
        this.dst = dst;
        this.srcPort = srcPort;
        this.routingDst = routingDst;
    }

    public int tunPeerId() {
        return tunPeerId;
    }

    public Ip4Address src() {
        return src;
    }

    public Ip4Address dst() {
        return dst;
    }

    public int srcPort() {
        return srcPort;
    }

    /** @return the address routing looks up for this peer's packets: {@link #dst()} unless it sits in an overlay */
    public Ip4Address routingDst() {
        return routingDst;
    }

    @Override
    public UpfEntityType type() {
        return UpfEntityType.TUNNEL_PEER;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UpfGtpTunnelPeer)) {
            return false;
        }
        UpfGtpTunnelPeer that = (UpfGtpTunnelPeer) o;
        return tunPeerId == that.tunPeerId && srcPort == that.srcPort && src.equals(that.src)
                && dst.equals(that.dst) && routingDst.equals(that.routingDst);
    }

    /** Computed once: see {@link Hashes}. */
    private int hash;

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            int fields = 1;
            fields = Hashes.add(fields, tunPeerId);
            fields = Hashes.add(fields, src);
            fields = Hashes.add(fields, dst);
            fields = Hashes.add(fields, srcPort);
            fields = Hashes.add(fields, routingDst);
            h = Hashes.spread(fields);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("UpfGtpTunnelPeer")
                .add("tunPeerId", tunPeerId).add("src", src).add("dst", dst).add("srcPort", srcPort)
                .add("routingDst", routingDst).toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; id in [1, 255], source and destination are required; routing goes to the destination by default. */
    public static final class Builder {
        private Integer tunPeerId;
        private Ip4Address src;
        private Ip4Address dst;
        private Integer srcPort = GTPU_PORT;
        private Ip4Address routingDst;

        private Builder() {
        }

        public Builder withTunnelPeerId(int tunPeerId) {
            this.tunPeerId = tunPeerId;
            return this;
        }

        public Builder withSrcAddr(Ip4Address src) {
            this.src = src;
            return this;
        }

        public Builder withDstAddr(Ip4Address dst) {
            this.dst = dst;
            return this;
        }

        public Builder withSrcPort(int srcPort) {
            this.srcPort = srcPort;
            return this;
        }

        /**
         * Routes the peer's packets to another address than its own: the edge VTEP of its VXLAN overlay.
         *
         * @param routingDst address routing looks up
         * @return this
         */
        public Builder withRoutingDst(Ip4Address routingDst) {
            this.routingDst = routingDst;
            return this;
        }

        public UpfGtpTunnelPeer build() {
            Checks.present(dst, "dst");
            return new UpfGtpTunnelPeer(Checks.inRange(tunPeerId, "tunPeerId", 1, Checks.MAX_TUN_PEER_ID),
                                        Checks.present(src, "src"), dst,
                                        Checks.inRange(srcPort, "srcPort", 0, 65535),
                                        routingDst == null ? dst : routingDst);
        }
    }
}
