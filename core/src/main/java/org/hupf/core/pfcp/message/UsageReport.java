package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/**
 * A Usage Report (TS 29.244 §7.5.5.2, §7.5.7.2, §7.5.8.3): one URR's usage over one measurement interval. The
 * message it travels in decides its IE type (modification, deletion or report).
 */
public final class UsageReport extends Value {
    public final long urrId;
    /** UR-SEQN: the URR's report count, from 0. */
    public final long sequence;
    /** Usage Report Trigger bits. */
    public final int trigger;
    /** Start and end of the interval, NTP seconds. */
    public final long startTime;
    public final long endTime;
    /** Bytes in the interval when the URR measures volume, else null. */
    public final Volume volume;
    /** Seconds in the interval when the URR measures duration, else null. */
    public final Long duration;

    public UsageReport(long urrId, long sequence, int trigger, long startTime, long endTime, Volume volume,
                       Long duration) {
        this.urrId = urrId;
        this.sequence = sequence;
        this.trigger = trigger;
        this.startTime = startTime;
        this.endTime = endTime;
        this.volume = volume;
        this.duration = duration;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(urrId, sequence, trigger, startTime, endTime, volume, duration);
    }
}
