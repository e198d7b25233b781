package org.hupf.core.pfcp.message;

import java.util.Arrays;
import java.util.List;

/** PFCP Session Modification Request (TS 29.244 §7.5.4). */
public final class ModificationRequest extends SessionRequest {
    /** A new CP F-SEID, or null. */
    public final FSeid cpFseid;
    /** The Create, Update and Remove rule IEs in message order. */
    public final List<RuleChange> rules;
    /** URR ids of the Query URR IEs: each asks for an immediate usage report. */
    public final List<Long> queryUrrIds;

    public ModificationRequest(int sequence, long seid, FSeid cpFseid, List<RuleChange> rules,
                               List<Long> queryUrrIds) {
        super(sequence, seid);
        this.cpFseid = cpFseid;
        this.rules = List.copyOf(rules);
        this.queryUrrIds = List.copyOf(queryUrrIds);
    }

    @Override
    public <R, C> R accept(RequestVisitor<R, C> visitor, C context) {
        return visitor.modification(this, context);
    }

    @Override
    protected List<Object> fields() {
        return Arrays.asList(sequence, seid, cpFseid, rules, queryUrrIds);
    }
}
