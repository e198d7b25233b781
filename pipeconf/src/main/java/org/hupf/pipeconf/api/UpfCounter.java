package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;

import java.util.Objects;

/**
 * One counter cell read from a device: ingress = {@code pre_qos_counter}, egress = {@code post_qos_counter}.
 */
public final class UpfCounter implements UpfEntity {

    private final int cellId;
    private final long ingressPkts;
    private final long ingressBytes;
    private final long egressPkts;
    private final long egressBytes;

    private UpfCounter(int cellId, long ingressPkts, long ingressBytes, long egressPkts, long egressBytes) {
        this.cellId = cellId;
        this.ingressPkts = ingressPkts;
        this.ingressBytes = ingressBytes;
        this.egressPkts = egressPkts;
        this.egressBytes = egressBytes;
    }

    public int cellId() {
        return cellId;
    }

    public long ingressPkts() {
        return ingressPkts;
    }

    public long ingressBytes() {
        return ingressBytes;
    }

    public long egressPkts() {
        return egressPkts;
    }

    public long egressBytes() {
        return egressBytes;
    }

    @Override
    public UpfEntityType type() {
        return UpfEntityType.COUNTER;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UpfCounter)) {
            return false;
        }
        UpfCounter that = (UpfCounter) o;
        return cellId == that.cellId && ingressPkts == that.ingressPkts && ingressBytes == that.ingressBytes
                && egressPkts == that.egressPkts && egressBytes == that.egressBytes;
    }

    /** Computed once: see {@link Hashes}. */
    private int hash;

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            int fields = 1;
            fields = Hashes.add(fields, cellId);
            fields = Hashes.add(fields, ingressPkts);
            fields = Hashes.add(fields, ingressBytes);
            fields = Hashes.add(fields, egressPkts);
            fields = Hashes.add(fields, egressBytes);
            h = Hashes.spread(fields);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("UpfCounter").add("cellId", cellId)
                .add("ingressPkts", ingressPkts).add("ingressBytes", ingressBytes)
                .add("egressPkts", egressPkts).add("egressBytes", egressBytes).toString();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder; the cell id is required and values are never negative. */
    public static final class Builder {
        private Integer cellId;
        private long ingressPkts;
        private long ingressBytes;
        private long egressPkts;
        private long egressBytes;

        private Builder() {
        }

        public Builder withCellId(int cellId) {
            this.cellId = cellId;
            return this;
        }

        public Builder setIngress(long pkts, long bytes) {
            this.ingressPkts = pkts;
            this.ingressBytes = bytes;
            return this;
        }

        public Builder setEgress(long pkts, long bytes) {
            this.egressPkts = pkts;
            this.egressBytes = bytes;
            return this;
        }

        public UpfCounter build() {
            return new UpfCounter(Checks.inRange(cellId, "cellId", 0, Checks.MAX_INDEX),
                                  Checks.inRange(ingressPkts, "ingressPkts", 0, Long.MAX_VALUE),
                                  Checks.inRange(ingressBytes, "ingressBytes", 0, Long.MAX_VALUE),
                                  Checks.inRange(egressPkts, "egressPkts", 0, Long.MAX_VALUE),
                                  Checks.inRange(egressBytes, "egressBytes", 0, Long.MAX_VALUE));
        }
    }
}
