package org.hupf.core.pfcp.message;

/**
 * The answer to an association procedure (TS 29.244 §7.4.4): this UP function's Node ID, the Cause and, when
 * the request was malformed, the Offending IE.
 */
public abstract class NodeResponse extends PfcpResponse {
    public final NodeId nodeId;
    public final int cause;
    /** IE type that made the request fail, or null. */
    public final Integer offendingIe;

    protected NodeResponse(int sequence, NodeId nodeId, int cause, Integer offendingIe) {
        super(sequence);
        this.nodeId = nodeId;
        this.cause = cause;
        this.offendingIe = offendingIe;
    }
}
