package org.hupf.core.pfcp.message;

/**
 * One Create, Update or Remove PDR/FAR/QER/URR IE of a session request (TS 29.244 §7.5.2, §7.5.4), decoded.
 * A create carries every mandatory field; in an update, a null field (or an empty id list) leaves the
 * rule's value as it was.
 */
public abstract class RuleChange extends Value {

    /** What the IE asks for, in the order a request's changes apply (§7.5.4: removals first). */
    public enum Op { REMOVE, CREATE, UPDATE }

    public final Op op;
    /** Failed Rule ID type of the rule ({@link FailedRuleId#PDR} ...). */
    public final int ruleType;
    public final long id;

    protected RuleChange(Op op, int ruleType, long id) {
        this.op = op;
        this.ruleType = ruleType;
        this.id = id;
    }
}
