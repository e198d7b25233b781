package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Address;

import java.util.Objects;

/**
 * A downlink session: plain IPv4 to the UE address belongs to it. Matches {@code downlink_sessions}.
 * Exactly one of forward (to a tunnel peer), buffer or drop.
 */
public final class UpfSessionDownlink implements UpfEntity {

    private final Ip4Address ueAddress;
    private final int tunPeerId;
    private final int sessionMeterIdx;
    private final boolean needsBuffering;
    private final boolean needsDropping;

    private UpfSessionDownlink(Ip4Address ueAddress, int tunPeerId, int sessionMeterIdx,
                               boolean needsBuffering, boolean needsDropping) {
        this.ueAddress = ueAddress;
        this.tunPeerId = tunPeerId;
        this.sessionMeterIdx = sessionMeterIdx;
        this.needsBuffering = needsBuffering;
        this.needsDropping = needsDropping;
    }

    public Ip4Address ueAddress() {
        return ueAddress;
    }

    /**
     * Returns the tunnel peer id, 0 when the session buffers or drops.
     *
     * @return tunnel peer id
     */
    public int tunPeerId() {
        return tunPeerId;
    }

    public int sessionMeterIdx() {
        return sessionMeterIdx;
    }

    public boolean needsBuffering() {
        return needsBuffering;
    }

    public boolean needsDropping() {
        return needsDropping;
    }

    @Override
    public UpfEntityType type() {
        return UpfEntityType.SESSION_DOWNLINK;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UpfSessionDownlink)) {
            return false;
        }
        UpfSessionDownlink that = (UpfSessionDownlink) o;
        return tunPeerId == that.tunPeerId && sessionMeterIdx == that.sessionMeterIdx
                && needsBuffering == that.needsBuffering && needsDropping == that.needsDropping
                && ueAddress.equals(that.ueAddress);
    }

    /** Computed once: see {@link Hashes}. */
    private int hash;

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            int fields = 1;
            fields = Hashes.add(fields, Hashes.of(ueAddress));
            fields = Hashes.add(fields, tunPeerId);
            fields = Hashes.add(fields, sessionMeterIdx);
            fields = Hashes.add(fields, needsBuffering);
            fields = Hashes.add(fields, needsDropping);
            h = Hashes.spread(fields);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("UpfSessionDownlink")
                .add("ueAddress", ueAddress).add("tunPeerId", tunPeerId)
                .add("sessionMeterIdx", sessionMeterIdx).add("needsBuffering", needsBuffering)
                .add("needsDropping", needsDropping).toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; a forwarding session needs a tunnel peer id in [1, 255]. */
    public static final class Builder {
        private Ip4Address ueAddress;
        private Integer tunPeerId;
        private Integer sessionMeterIdx = 0;
        private boolean needsBuffering;
        private boolean needsDropping;

        private Builder() {
        }

        public Builder withUeAddress(Ip4Address ueAddress) {
            this.ueAddress = ueAddress;
            return this;
        }

        public Builder withGtpTunnelPeerId(int tunPeerId) {
            this.tunPeerId = tunPeerId;
            return this;
        }

        public Builder withSessionMeterIdx(int sessionMeterIdx) {
            this.sessionMeterIdx = sessionMeterIdx;
            return this;
        }

        public Builder needsBuffering(boolean needsBuffering) {
            this.needsBuffering = needsBuffering;
            return this;
        }

        public Builder needsDropping(boolean needsDropping) {
            this.needsDropping = needsDropping;
            return this;
        }

        public UpfSessionDownlink build() {
            Checks.present(ueAddress, "ueAddress");
            if (needsBuffering && needsDropping) {
                throw new IllegalArgumentException("a downlink session cannot both buffer and drop");
            }
            int peer;
            if (needsBuffering || needsDropping) {
                if (tunPeerId != null && tunPeerId != 0) {
                    throw new IllegalArgumentException("a buffering or dropping downlink session has no tunPeerId");
                }
                peer = 0;
            } else {
                peer = Checks.inRange(tunPeerId, "tunPeerId", 1, Checks.MAX_TUN_PEER_ID);
            }
            return new UpfSessionDownlink(ueAddress, peer,
                                          Checks.inRange(sessionMeterIdx, "sessionMeterIdx", 0, Checks.MAX_INDEX),
                                          needsBuffering, needsDropping);
        }
    }
}
