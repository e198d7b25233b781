package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Address;

import java.util.Objects;
import java.util.Optional;

/**
 * An uplink session: GTP-U to (N3 address, TEID) belongs to it. Matches {@code uplink_sessions}.
 */
public final class UpfSessionUplink implements UpfEntity {

    private final Ip4Address tunDstAddr;
    private final long teid;
    private final boolean needsDropping;
    private final int sessionMeterIdx;
    private final Ip4Address ueAddress;

    private UpfSessionUplink(Ip4Address tunDstAddr, long teid, boolean needsDropping, int sessionMeterIdx,
                             Ip4Address ueAddress) {
        this.tunDstAddr = tunDstAddr;
        this.teid = teid;
        this.needsDropping = needsDropping;
        this.sessionMeterIdx = sessionMeterIdx;
        this.ueAddress = ueAddress;
    }

    /**
     * Returns the UE address the session's inner source must equal (contract: {@code set_uplink_session}'s
     * {@code ue_addr}, anti-spoofing); a forwarding session needs it on a device.
     *
     * @return UE address, empty if not set
     */
    public Optional<Ip4Address> ueAddress() {
        return Optional.ofNullable(ueAddress);
    }

    public Ip4Address tunDstAddr() {
        return tunDstAddr;
    }

    /**
     * Returns the TEID as an unsigned 32-bit value.
     *
     * @return TEID
     */
    public long teid() {
        return teid;
    }

    public boolean needsDropping() {
        return needsDropping;
    }

    public int sessionMeterIdx() {
        return sessionMeterIdx;
    }

    @Override
    public UpfEntityType type() {
        return UpfEntityType.SESSION_UPLINK;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UpfSessionUplink)) {
            return false;
        }
        UpfSessionUplink that = (UpfSessionUplink) o;
        return teid == that.teid && needsDropping == that.needsDropping
                && sessionMeterIdx == that.sessionMeterIdx && tunDstAddr.equals(that.tunDstAddr)
                && Objects.equals(ueAddress, that.ueAddress);
    }

    /** Computed once: see {@link Hashes}. */
    private int hash;

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            int fields = 1;
            fields = Hashes.add(fields, tunDstAddr);
            fields = Hashes.add(fields, teid);
            fields = Hashes.add(fields, needsDropping);
            fields = Hashes.add(fields, sessionMeterIdx);
            fields = Hashes.add(fields, Hashes.of(ueAddress));
            h = Hashes.spread(fields);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("UpfSessionUplink").omitNullValues()
                .add("tunDstAddr", tunDstAddr).add("ueAddress", ueAddress).add("teid", teid)
                .add("needsDropping", needsDropping).add("sessionMeterIdx", sessionMeterIdx).toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; tunnel address and TEID are required. */
    public static final class Builder {
        private Ip4Address tunDstAddr;
        private Long teid;
        private boolean needsDropping;
        private Integer sessionMeterIdx = 0;
        private Ip4Address ueAddress;

        private Builder() {
        }

        public Builder withUeAddress(Ip4Address ueAddress) {
            this.ueAddress = ueAddress;
            return this;
        }

        public Builder setTunDstAddr(Ip4Address tunDstAddr) {
            this.tunDstAddr = tunDstAddr;
            return this;
        }

        public Builder setTeid(long teid) {
            this.teid = teid;
            return this;
        }

        public Builder needsDropping(boolean needsDropping) {
            this.needsDropping = needsDropping;
            return this;
        }

        public Builder setSessionMeterIdx(int sessionMeterIdx) {
            this.sessionMeterIdx = sessionMeterIdx;
            return this;
        }

        public UpfSessionUplink build() {
            return new UpfSessionUplink(Checks.present(tunDstAddr, "tunDstAddr"),
                                        Checks.inRange(teid, "teid", 0, Checks.MAX_TEID), needsDropping,
                                        Checks.inRange(sessionMeterIdx, "sessionMeterIdx", 0, Checks.MAX_INDEX),
                                        ueAddress);
        }
    }
}
