package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** Create URR (Measurement Method and Reporting Triggers present) or Update URR. */
public final class UrrChange extends RuleChange {
    public final Integer measurementMethod;
    public final Integer reportingTriggers;
    public final Long measurementPeriod;
    public final Volume volumeThreshold;

    public UrrChange(Op op, long urrId, Integer measurementMethod, Integer reportingTriggers, Long measurementPeriod,
                     Volume volumeThreshold) {
        super(op, FailedRuleId.URR, urrId);
        this.measurementMethod = measurementMethod;
        this.reportingTriggers = reportingTriggers;
        this.measurementPeriod = measurementPeriod;
        this.volumeThreshold = volumeThreshold;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(op, id, measurementMethod, reportingTriggers, measurementPeriod, volumeThreshold);
    }
}
