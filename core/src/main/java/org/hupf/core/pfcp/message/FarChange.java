package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** Create FAR (Apply Action present) or Update FAR. */
public final class FarChange extends RuleChange {
    public final Integer applyAction;
    public final ForwardingParameters forwarding;
    public final Integer barId;

    public FarChange(Op op, long farId, Integer applyAction, ForwardingParameters forwarding, Integer barId) {
        super(op, FailedRuleId.FAR, farId);
        this.applyAction = applyAction;
        this.forwarding = forwarding;
        this.barId = barId;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(op, id, applyAction, forwarding, barId);
    }
}
