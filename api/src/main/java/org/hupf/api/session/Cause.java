package org.hupf.api.session;

/**
 * PFCP Cause values (TS 29.244 §8.2.1).
 */
public final class Cause {
    public static final int REQUEST_ACCEPTED = 1;
    public static final int MORE_USAGE_REPORT_TO_SEND = 2;
    public static final int REQUEST_REJECTED = 64;
    public static final int SESSION_CONTEXT_NOT_FOUND = 65;
    public static final int MANDATORY_IE_MISSING = 66;
    public static final int CONDITIONAL_IE_MISSING = 67;
    public static final int INVALID_LENGTH = 68;
    public static final int MANDATORY_IE_INCORRECT = 69;
    public static final int INVALID_FORWARDING_POLICY = 70;
    public static final int INVALID_FTEID_ALLOCATION_OPTION = 71;
    public static final int NO_ESTABLISHED_PFCP_ASSOCIATION = 72;
    public static final int RULE_CREATION_MODIFICATION_FAILURE = 73;
    public static final int PFCP_ENTITY_IN_CONGESTION = 74;
    public static final int NO_RESOURCES_AVAILABLE = 75;
    public static final int SERVICE_NOT_SUPPORTED = 76;
    public static final int SYSTEM_FAILURE = 77;

    private Cause() {
    }
}
