package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Address;

import java.util.Objects;

/**
 * A GTP-U tunnel peer (a gNB): outer source, destination and UDP source port used to encapsulate
 * downlink traffic. Matches {@code ig_tunnel_peers} and {@code eg_tunnel_peers}.
 */
public final class UpfGtpTunnelPeer implements UpfEntity {

    /** GTP-U's registered port (TS 29.281), the default source port. */
    public static final int GTPU_PORT = 2152;

    private final int tunPeerId;
    private final Ip4Address src;
    private final Ip4Address dst;
    private final int srcPort;

    private UpfGtpTunnelPeer(int tunPeerId, Ip4Address src, Ip4Address dst, int srcPort) {
        this.tunPeerId = tunPeerId;
        this.src = src;
        this.dst = dst;
        this.srcPort = srcPort;
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
                && dst.equals(that.dst);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tunPeerId, src, dst, srcPort);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("UpfGtpTunnelPeer")
                .add("tunPeerId", tunPeerId).add("src", src).add("dst", dst).add("srcPort", srcPort)
                .toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; id in [1, 255], source and destination are required. */
    public static final class Builder {
        private Integer tunPeerId;
        private Ip4Address src;
        private Ip4Address dst;
        private Integer srcPort = GTPU_PORT;

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

        public UpfGtpTunnelPeer build() {
            return new UpfGtpTunnelPeer(Checks.inRange(tunPeerId, "tunPeerId", 1, Checks.MAX_TUN_PEER_ID),
                                        Checks.present(src, "src"), Checks.present(dst, "dst"),
                                        Checks.inRange(srcPort, "srcPort", 0, 65535));
        }
    }
}
