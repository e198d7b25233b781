package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;
import org.onlab.packet.Ip4Prefix;

import java.util.Objects;

/**
 * An N3 (access) address prefix or a UE pool (core) prefix, with the slice it belongs to.
 */
public final class UpfInterface implements UpfEntity {

    /** Which side of the UPF the prefix is on. */
    public enum Type {
        /** N3: GTP-U from the RAN is addressed to this prefix. */
        ACCESS,
        /** N6: a UE pool; plain IPv4 to it is downlink traffic. */
        CORE
    }

    private final Ip4Prefix prefix;
    private final Type ifaceType;
    private final int sliceId;

    private UpfInterface(Ip4Prefix prefix, Type ifaceType, int sliceId) {
        this.prefix = prefix;
        this.ifaceType = ifaceType;
        this.sliceId = sliceId;
    }

    public Ip4Prefix prefix() {
        return prefix;
    }

    public Type ifaceType() {
        return ifaceType;
    }

    public boolean isAccess() {
        return ifaceType == Type.ACCESS;
    }

    public boolean isCore() {
        return ifaceType == Type.CORE;
    }

    public int sliceId() {
        return sliceId;
    }

    @Override
    public UpfEntityType type() {
        return UpfEntityType.INTERFACE;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UpfInterface)) {
            return false;
        }
        UpfInterface that = (UpfInterface) o;
        return sliceId == that.sliceId && prefix.equals(that.prefix) && ifaceType == that.ifaceType;
    }

    /** Computed once: see {@link Hashes}. */
    private int hash;

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            int fields = 1;
            fields = Hashes.add(fields, prefix);
            fields = Hashes.add(fields, ifaceType);
            fields = Hashes.add(fields, sliceId);
            h = Hashes.spread(fields);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("UpfInterface")
                .add("prefix", prefix).add("type", ifaceType).add("sliceId", sliceId).toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; prefix and type are required, slice id defaults to 0. */
    public static final class Builder {
        private Ip4Prefix prefix;
        private Type ifaceType;
        private Integer sliceId = 0;

        private Builder() {
        }

        public Builder setPrefix(Ip4Prefix prefix) {
            this.prefix = prefix;
            return this;
        }

        public Builder setAccess() {
            this.ifaceType = Type.ACCESS;
            return this;
        }

        public Builder setCore() {
            this.ifaceType = Type.CORE;
            return this;
        }

        public Builder setType(Type type) {
            this.ifaceType = type;
            return this;
        }

        public Builder setSliceId(int sliceId) {
            this.sliceId = sliceId;
            return this;
        }

        public UpfInterface build() {
            return new UpfInterface(Checks.present(prefix, "prefix"), Checks.present(ifaceType, "type"),
                                    Checks.inRange(sliceId, "sliceId", 0, Checks.MAX_SLICE_ID));
        }
    }
}
