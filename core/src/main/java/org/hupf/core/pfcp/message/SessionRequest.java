package org.hupf.core.pfcp.message;

/** A session-related request: its header carries the receiver's SEID (0 in an establishment). */
public abstract class SessionRequest extends PfcpRequest {
    public final long seid;

    protected SessionRequest(int sequence, long seid) {
        super(sequence);
        this.seid = seid;
    }
}
