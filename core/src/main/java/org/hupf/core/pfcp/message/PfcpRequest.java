package org.hupf.core.pfcp.message;

/**
 * A PFCP request hupf serves, decoded once from its IEs (TS 29.244 §7.4, §7.5) by the codec: the handler
 * and the session editor act on these and never on IEs.
 */
public abstract class PfcpRequest extends Value {
    public final int sequence;

    protected PfcpRequest(int sequence) {
        this.sequence = sequence;
    }

    /**
     * Runs the visitor's procedure for this request's type.
     *
     * @param visitor the procedures
     * @param context what the procedure is given besides the request
     * @param <R>     what it returns
     * @param <C>     its context's type
     * @return what the procedure returned
     */
    public abstract <R, C> R accept(RequestVisitor<R, C> visitor, C context);
}
