package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** Create PDR (precedence and PDI present) or Update PDR. */
public final class PdrChange extends RuleChange {
    public final Long precedence;
    public final Pdi pdi;
    public final Integer outerHeaderRemoval;
    public final Long farId;
    public final List<Long> qerIds;
    public final List<Long> urrIds;

    public PdrChange(Op op, int pdrId, Long precedence, Pdi pdi, Integer outerHeaderRemoval, Long farId,
                     List<Long> qerIds, List<Long> urrIds) {
        super(op, FailedRuleId.PDR, pdrId);
        this.precedence = precedence;
        this.pdi = pdi;
        this.outerHeaderRemoval = outerHeaderRemoval;
        this.farId = farId;
        this.qerIds = List.copyOf(qerIds);
        this.urrIds = List.copyOf(urrIds);
    }

    public int pdrId() {
        return (int) id;
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(op, id, precedence, pdi, outerHeaderRemoval, farId, qerIds, urrIds);
    }
}
