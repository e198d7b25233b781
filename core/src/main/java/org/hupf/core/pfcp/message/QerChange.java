package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** Create QER (Gate Status present) or Update QER. */
public final class QerChange extends RuleChange {
    public final GateStatus gateStatus;
    public final BitRate mbr;
    public final BitRate gbr;
    public final Integer qfi;

    public QerChange(Op op, long qerId, GateStatus gateStatus, BitRate mbr, BitRate gbr, Integer qfi) {
        super(op, FailedRuleId.QER, qerId);
        this.gateStatus = gateStatus;
        this.mbr = mbr;
        this.gbr = gbr;
        this.qfi = qfi;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(op, id, gateStatus, mbr, gbr, qfi);
    }
}
