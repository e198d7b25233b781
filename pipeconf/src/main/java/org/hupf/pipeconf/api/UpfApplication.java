package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;
import com.google.common.collect.Range;
import org.onlab.packet.Ip4Prefix;

import java.util.Objects;
import java.util.Optional;

/**
 * An application filter within a slice: packets whose app address, L4 port and protocol match get
 * {@code appId}. Matches {@code applications}; absent fields are wildcards.
 */
public final class UpfApplication implements UpfEntity {

    private static final int MAX_PORT = 65535;
    private static final int MAX_PROTO = 255;

    private final Ip4Prefix ipPrefix;
    private final Range<Integer> l4PortRange;
    private final Integer ipProto;
    private final int sliceId;
    private final int appId;
    private final int priority;

    private UpfApplication(Ip4Prefix ipPrefix, Range<Integer> l4PortRange, Integer ipProto,
                           int sliceId, int appId, int priority) {
        this.ipPrefix = ipPrefix;
        this.l4PortRange = l4PortRange;
        this.ipProto = ipProto;
        this.sliceId = sliceId;
        this.appId = appId;
        this.priority = priority;
    }

    public Optional<Ip4Prefix> ip4Prefix() {
        return Optional.ofNullable(ipPrefix);
    }

    /**
     * Returns the closed L4 port range, if any.
     *
     * @return port range
     */
    public Optional<Range<Integer>> l4PortRange() {
        return Optional.ofNullable(l4PortRange);
    }

    public Optional<Integer> ipProto() {
        return Optional.ofNullable(ipProto);
    }

    public int sliceId() {
        return sliceId;
    }

    public int appId() {
        return appId;
    }

    public int priority() {
        return priority;
    }

    @Override
    public UpfEntityType type() {
        return UpfEntityType.APPLICATION;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UpfApplication)) {
            return false;
        }
        UpfApplication that = (UpfApplication) o;
        return sliceId == that.sliceId && appId == that.appId && priority == that.priority
                && Objects.equals(ipPrefix, that.ipPrefix) && Objects.equals(l4PortRange, that.l4PortRange)
                && Objects.equals(ipProto, that.ipProto);
    }

    /** Computed once: see {@link Hashes}. */
    private int hash;

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            int fields = 1;
            fields = Hashes.add(fields, ipPrefix);
            fields = Hashes.add(fields, l4PortRange);
            fields = Hashes.add(fields, ipProto);
            fields = Hashes.add(fields, sliceId);
            fields = Hashes.add(fields, appId);
            fields = Hashes.add(fields, priority);
            h = Hashes.spread(fields);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("UpfApplication").omitNullValues()
                .add("ipPrefix", ipPrefix).add("l4PortRange", l4PortRange).add("ipProto", ipProto)
                .add("sliceId", sliceId).add("appId", appId).add("priority", priority).toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; app id in [1, 255] (0 is the table's default) and at least one filter field. */
    public static final class Builder {
        private Ip4Prefix ipPrefix;
        private Range<Integer> l4PortRange;
        private Integer ipProto;
        private Integer sliceId = 0;
        private Integer appId;
        private Integer priority = 0;

        private Builder() {
        }

        public Builder withIp4Prefix(Ip4Prefix ipPrefix) {
            this.ipPrefix = ipPrefix;
            return this;
        }

        public Builder withL4PortRange(int low, int high) {
            Checks.inRange(low, "l4PortRange low", 0, MAX_PORT);
            Checks.inRange(high, "l4PortRange high", low, MAX_PORT);
            this.l4PortRange = Range.closed(low, high);
            return this;
        }

        public Builder withIpProto(int ipProto) {
            this.ipProto = Checks.inRange(ipProto, "ipProto", 0, MAX_PROTO);
            return this;
        }

        public Builder withSliceId(int sliceId) {
            this.sliceId = sliceId;
            return this;
        }

        public Builder withAppId(int appId) {
            this.appId = appId;
            return this;
        }

        public Builder withPriority(int priority) {
            this.priority = priority;
            return this;
        }

        public UpfApplication build() {
            if (ipPrefix == null && l4PortRange == null && ipProto == null) {
                throw new IllegalArgumentException("an application needs an ipPrefix, l4PortRange or ipProto");
            }
            return new UpfApplication(ipPrefix, l4PortRange, ipProto,
                                      Checks.inRange(sliceId, "sliceId", 0, Checks.MAX_SLICE_ID),
                                      Checks.inRange(appId, "appId", 1, Checks.MAX_APP_ID),
                                      Checks.inRange(priority, "priority", 0, Integer.MAX_VALUE));
        }
    }
}
