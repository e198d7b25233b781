package org.hupf.core.pfcp.message;

/**
 * The answer to a session procedure (TS 29.244 §7.5): its header carries the CP function's SEID (0 when the
 * session is unknown); the Cause, and when refused the Offending IE and the Failed Rule ID if one rule failed.
 */
public abstract class SessionResponse extends PfcpResponse {
    /** The CP SEID the header carries. */
    public final long seid;
    public final int cause;
    /** IE type that made the request fail, or null. */
    public final Integer offendingIe;
    /** The rule that could not be installed, or null. */
    public final FailedRuleId failedRuleId;

    protected SessionResponse(int sequence, long seid, int cause, Integer offendingIe, FailedRuleId failedRuleId) {
        super(sequence);
        this.seid = seid;
        this.cause = cause;
        this.offendingIe = offendingIe;
        this.failedRuleId = failedRuleId;
    }
}
