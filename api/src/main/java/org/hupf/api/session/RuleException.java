package org.hupf.api.session;

/**
 * A session rule hupf cannot install, with the PFCP cause and (where one rule is at fault) the
 * Failed Rule ID the SMF receives (TS 29.244 §7.5.3.1).
 */
public final class RuleException extends Exception {

    private static final long serialVersionUID = 1L;

    /** IE types (TS 29.244 §8.1.2) a refusal may name as its Offending IE. */
    public static final int NETWORK_INSTANCE_IE = 22;
    public static final int OUTER_HEADER_CREATION_IE = 84;
    public static final int UE_IP_ADDRESS_IE = 93;

    private final int cause;
    private final int ruleType;
    private final long ruleId;
    private final int offendingIe;

    /**
     * Creates an exception.
     *
     * @param cause    PFCP cause
     * @param ruleType Failed Rule ID type (0 PDR, 1 FAR, 2 QER, 3 URR, 4 BAR), -1 if none
     * @param ruleId   rule id
     * @param reason   why, for the log and the REST error
     */
    public RuleException(int cause, int ruleType, long ruleId, String reason) {
        this(cause, ruleType, ruleId, 0, reason);
    }

    /**
     * Creates an exception for a rule one of whose IEs is at fault.
     *
     * @param cause       PFCP cause
     * @param ruleType    Failed Rule ID type, -1 if none
     * @param ruleId      rule id
     * @param offendingIe type of the IE at fault (the answer's Offending IE), 0 if none
     * @param reason      why, for the log and the REST error
     */
    public RuleException(int cause, int ruleType, long ruleId, int offendingIe, String reason) {
        super(reason);
        this.cause = cause;
        this.ruleType = ruleType;
        this.ruleId = ruleId;
        this.offendingIe = offendingIe;
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

    /** @return the type of the IE at fault, 0 if none is named */
    public int offendingIe() {
        return offendingIe;
    }
}
