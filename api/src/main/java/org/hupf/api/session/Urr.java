package org.hupf.api.session;

import com.google.common.base.MoreObjects;

import java.util.Objects;

/**
 * A Usage Reporting Rule (TS 29.244 §5.2.2, Create URR §7.5.2.4). Volumes in bytes, period in seconds.
 */
public final class Urr {

    /** Measurement Method bits (§8.2.40). */
    public static final int DURAT = 0x01;
    public static final int VOLUM = 0x02;
    public static final int EVENT = 0x04;

    /** Reporting Triggers bits (§8.2.19), octet 5 in the low byte. */
    public static final int PERIO = 0x0001;
    public static final int VOLTH = 0x0002;
    /** Triggers hupf can honour from its counters. */
    public static final int SUPPORTED_TRIGGERS = PERIO | VOLTH;

    public final long urrId;
    public final int measurementMethod;
    public final int reportingTriggers;
    public final Long measurementPeriod;
    public final Long volumeThresholdTotal;
    public final Long volumeThresholdUplink;
    public final Long volumeThresholdDownlink;

    public Urr(long urrId, int measurementMethod, int reportingTriggers, Long measurementPeriod,
               Long volumeThresholdTotal, Long volumeThresholdUplink, Long volumeThresholdDownlink) {
        this.urrId = urrId;
        this.measurementMethod = measurementMethod;
        this.reportingTriggers = reportingTriggers;
        this.measurementPeriod = SharedLongs.of(measurementPeriod);
        this.volumeThresholdTotal = SharedLongs.of(volumeThresholdTotal);
        this.volumeThresholdUplink = SharedLongs.of(volumeThresholdUplink);
        this.volumeThresholdDownlink = SharedLongs.of(volumeThresholdDownlink);
    }

    public boolean periodic() {
        return (reportingTriggers & PERIO) != 0 && measurementPeriod != null && measurementPeriod > 0;
    }

    public boolean volumeThreshold() {
        return (reportingTriggers & VOLTH) != 0;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Urr)) {
            return false;
        }
        Urr u = (Urr) o;
        return urrId == u.urrId && measurementMethod == u.measurementMethod
                && reportingTriggers == u.reportingTriggers && Objects.equals(measurementPeriod, u.measurementPeriod)
                && Objects.equals(volumeThresholdTotal, u.volumeThresholdTotal)
                && Objects.equals(volumeThresholdUplink, u.volumeThresholdUplink)
                && Objects.equals(volumeThresholdDownlink, u.volumeThresholdDownlink);
    }

    @Override
    public int hashCode() {
        return Objects.hash(urrId, measurementMethod, reportingTriggers, measurementPeriod, volumeThresholdTotal,
                            volumeThresholdUplink, volumeThresholdDownlink);
    }

    @Override
    public String toString() {
        return MoreObjects.toStringHelper("Urr").omitNullValues().add("id", urrId)
                .add("method", measurementMethod).add("triggers", reportingTriggers)
                .add("period", measurementPeriod).add("volThTotal", volumeThresholdTotal)
                .add("volThUl", volumeThresholdUplink).add("volThDl", volumeThresholdDownlink).toString();
    }
}
