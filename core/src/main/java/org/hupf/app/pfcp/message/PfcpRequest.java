package org.hupf.app.pfcp.message;

/**
 * A PFCP request hupf serves, decoded once from its IEs (TS 29.244 §7.4, §7.5) by the codec: the handler
 * and the session editor act on these and never on IEs.
 */
public abstract class PfcpRequest extends Value {
    public final int sequence;

    protected PfcpRequest(int sequence) {
        this.sequence = sequence;
    }
}
