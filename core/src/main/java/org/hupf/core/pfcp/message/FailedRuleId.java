package org.hupf.core.pfcp.message;

import java.util.List;

/** Failed Rule ID (TS 29.244 §8.2.80): which PDR (0), FAR (1), QER (2), URR (3) or BAR (4) failed. */
public final class FailedRuleId extends Value {
    public static final int PDR = 0;
    public static final int FAR = 1;
    public static final int QER = 2;
    public static final int URR = 3;
    public static final int BAR = 4;
    public final int ruleType;
    public final long ruleId;

    /**
     * Creates a Failed Rule ID.
     *
     * @param ruleType PDR, FAR, QER, URR or BAR
     * @param ruleId   the rule's id
     * @throws IllegalArgumentException for a rule type out of [0, 4]
     */
    public FailedRuleId(int ruleType, long ruleId) {
        if (ruleType < PDR || ruleType > BAR) {
            throw new IllegalArgumentException("rule type " + ruleType + " out of range [0, 4]");
        }
        this.ruleType = ruleType;
        this.ruleId = ruleId;
    }

    @Override
    protected List<Object> fields() {
        return List.of(ruleType, ruleId);
    }
}
