package org.hupf.core.pfcp.message;

import java.util.List;

/** Remove PDR, FAR, QER or URR: the id of the rule to remove. */
public final class RuleRemoval extends RuleChange {

    public RuleRemoval(int ruleType, long id) {
        super(Op.REMOVE, ruleType, id);
    }

    @Override
    protected List<Object> fields() {
        return List.of(ruleType, id);
    }
}
