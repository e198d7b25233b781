package org.hupf.core.pfcp.message;

/**
 * A PFCP response hupf sends (TS 29.244 §7.4, §7.5), built by the procedure that answers its request and
 * encoded once by the codec: the procedures never assemble IEs.
 */
public abstract class PfcpResponse extends Value {
    /** The sequence number of the request answered. */
    public final int sequence;

    protected PfcpResponse(int sequence) {
        this.sequence = sequence;
    }
}
