package org.hupf.api.session;

/**
 * A session rule hupf cannot install, with the PFCP cause and (where one rule is at fault) the
 * Failed Rule ID the SMF receives (TS 29.244 §7.5.3.1).
 */
public final class RuleException extends Exception {

    private static final long serialVersionUID = 1L;

    private final int cause;
    private final int ruleType;
    private final long ruleId;

    /**
     * Creates an exception.
     *
     * @param cause    PFCP cause
     * @param ruleType Failed Rule ID type (0 PDR, 1 FAR, 2 QER, 3 URR, 4 BAR), -1 if none
     * @param ruleId   rule id
     * @param reason   why, for the log and the REST error
     */
    public RuleException(int cause, int ruleType, long ruleId, String reason) {
        super(reason);
        this.cause = cause;
        this.ruleType = ruleType;
        this.ruleId = ruleId;
    }

    public int cause() {
        return cause;
    }

    /** @return Failed Rule ID type, -1 if no single rule is at fault */
    public int ruleType() {
        return ruleType;
    }

    public long ruleId() {
        return ruleId;
    }
}
