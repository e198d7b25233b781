package org.hupf.pipeconf.api;

import com.google.common.base.MoreObjects;

import java.util.Objects;

/**
 * A two-rate three-colour meter cell (RFC 2698) of {@code session_meter} or {@code app_meter}, in bytes.
 * A meter without bands is a reset (unlimited) cell.
 */
public final class UpfMeter implements UpfEntity {

    /** Which meter array the cell belongs to. */
    public enum Type {
        SESSION,
        APPLICATION
    }

    private final Type meterType;
    private final int cellId;
    private final long committedRate;
    private final long committedBurst;
    private final long peakRate;
    private final long peakBurst;
    private final boolean reset;

    private UpfMeter(Type meterType, int cellId, long committedRate, long committedBurst,
                     long peakRate, long peakBurst, boolean reset) {
        this.meterType = meterType;
        this.cellId = cellId;
        this.committedRate = committedRate;
        this.committedBurst = committedBurst;
        this.peakRate = peakRate;
        this.peakBurst = peakBurst;
        this.reset = reset;
    }

    public Type meterType() {
        return meterType;
    }

    public int cellId() {
        return cellId;
    }

    /** @return committed information rate, bytes per second */
    public long committedRate() {
        return committedRate;
    }

    /** @return committed burst size, bytes */
    public long committedBurst() {
        return committedBurst;
    }

    /** @return peak information rate, bytes per second */
    public long peakRate() {
        return peakRate;
    }

    /** @return peak burst size, bytes */
    public long peakBurst() {
        return peakBurst;
    }

    /**
     * Returns whether this cell is unconfigured: every packet is green.
     *
     * @return true for a reset meter
     */
    public boolean isReset() {
        return reset;
    }

    @Override
    public UpfEntityType type() {
        return meterType == Type.SESSION ? UpfEntityType.SESSION_METER : UpfEntityType.APPLICATION_METER;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof UpfMeter)) {
            return false;
        }
        UpfMeter that = (UpfMeter) o;
        return cellId == that.cellId && committedRate == that.committedRate
                && committedBurst == that.committedBurst && peakRate == that.peakRate
                && peakBurst == that.peakBurst && reset == that.reset && meterType == that.meterType;
    }

    /** Computed once: see {@link Hashes}. */
    private int hash;

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            int fields = 1;
            fields = Hashes.add(fields, meterType);
            fields = Hashes.add(fields, cellId);
            fields = Hashes.add(fields, committedRate);
            fields = Hashes.add(fields, committedBurst);
            fields = Hashes.add(fields, peakRate);
            fields = Hashes.add(fields, peakBurst);
            fields = Hashes.add(fields, reset);
            h = Hashes.spread(fields);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        MoreObjects.ToStringHelper h = MoreObjects.toStringHelper("UpfMeter")
                .add("type", meterType).add("cellId", cellId);
        if (reset) {
            return h.add("reset", true).toString();
        }
        return h.add("cir", committedRate).add("cburst", committedBurst)
                .add("pir", peakRate).add("pburst", peakBurst).toString();
    }

    /**
     * Returns a reset (unlimited) meter cell.
     *
     * @param type   meter array
     * @param cellId cell index
     * @return meter
     */
    public static UpfMeter resetMeter(Type type, int cellId) {
        return new UpfMeter(Checks.present(type, "type"), Checks.inRange(cellId, "cellId", 0, Checks.MAX_INDEX),
                            0, 0, 0, 0, true);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder for a configured cell: peak rate must not be below the committed rate, bursts above 0. */
    public static final class Builder {
        private Type meterType;
        private Integer cellId;
        private Long committedRate;
        private Long committedBurst;
        private Long peakRate;
        private Long peakBurst;

        private Builder() {
        }

        public Builder setSession() {
            this.meterType = Type.SESSION;
            return this;
        }

        public Builder setApplication() {
            this.meterType = Type.APPLICATION;
            return this;
        }

        public Builder setCellId(int cellId) {
            this.cellId = cellId;
            return this;
        }

        public Builder setCommittedBand(long rate, long burst) {
            this.committedRate = rate;
            this.committedBurst = burst;
            return this;
        }

        public Builder setPeakBand(long rate, long burst) {
            this.peakRate = rate;
            this.peakBurst = burst;
            return this;
        }

        public UpfMeter build() {
            Checks.present(meterType, "type");
            long cir = Checks.inRange(committedRate == null ? Long.valueOf(0) : committedRate,
                                      "committedRate", 0, Long.MAX_VALUE);
            long cbs = Checks.inRange(committedBurst == null ? Long.valueOf(0) : committedBurst,
                                      "committedBurst", 0, Long.MAX_VALUE);
            long pir = Checks.inRange(peakRate, "peakRate", cir, Long.MAX_VALUE);
            long pbs = Checks.inRange(peakBurst, "peakBurst", 1, Long.MAX_VALUE);
            return new UpfMeter(meterType, Checks.inRange(cellId, "cellId", 0, Checks.MAX_INDEX),
                                cir, cbs, pir, pbs, false);
        }
    }
}
