package org.hupf.core.pfcp.codec;

import org.hupf.api.session.Cause;
import org.hupf.core.pfcp.message.SessionRequest;

/**
 * A PFCP message or IE that cannot be decoded. Carries what a response needs: the kind of fault
 * (which selects the PFCP cause), the offending IE type and the byte offset where decoding stopped.
 */
public final class DecodeException extends Exception {

    private static final long serialVersionUID = 1L;

    /** What went wrong; each maps to the TS 29.244 §7.6 handling of it. */
    public enum Kind {
        /** Shorter than a PFCP header: discarded. */
        TRUNCATED_HEADER(0),
        /** Version other than 1: answered by Version Not Supported Response. */
        UNSUPPORTED_VERSION(0),
        /** Message or IE length runs past the datagram or its container (§7.6.2.2, §7.6.2.6). */
        INVALID_LENGTH(Cause.INVALID_LENGTH),
        /** A mandatory IE is absent (§7.6.2.5). */
        MANDATORY_IE_MISSING(Cause.MANDATORY_IE_MISSING),
        /** A conditional IE required by the others present is absent (§7.6.2.5). */
        CONDITIONAL_IE_MISSING(Cause.CONDITIONAL_IE_MISSING),
        /** A mandatory IE is present but too short or carries a value out of range. */
        MANDATORY_IE_INCORRECT(Cause.MANDATORY_IE_INCORRECT);

        private final int cause;

        Kind(int cause) {
            this.cause = cause;
        }

        /**
         * Returns the PFCP cause a response carries, 0 when the message gets no PFCP-level answer.
         *
         * @return cause value
         */
        public int cause() {
            return cause;
        }
    }

    private final Kind kind;
    private final int ieType;
    private final int offset;
    /** The part of a session request decoded before the fault, whose checks come first; null if none. */
    private final transient SessionRequest context;

    /**
     * Creates an exception.
     *
     * @param kind    fault
     * @param ieType  offending IE type, 0 if the fault is in the header
     * @param offset  byte offset in the message (or IE value) where the fault lies, -1 if unknown
     * @param message detail
     */
    public DecodeException(Kind kind, int ieType, int offset, String message) {
        this(kind, ieType, offset, message + (ieType != 0 ? " (IE " + IeType.name(ieType) + ")" : "")
                + (offset >= 0 ? " at offset " + offset : ""), null);
    }

    private DecodeException(Kind kind, int ieType, int offset, String fullMessage, SessionRequest context) {
        super(fullMessage);
        this.kind = kind;
        this.ieType = ieType;
        this.offset = offset;
        this.context = context;
    }

    /**
     * Returns this fault with the part of its request decoded before it (an establishment's Node ID and
     * CP F-SEID, a modification's SEID): the handler checks that context first, as TS 29.244 answers an
     * unknown session or association before the request's IEs.
     *
     * @param decoded the request as far as it was decoded, without its rules
     * @return the same fault with that context
     */
    public DecodeException inContextOf(SessionRequest decoded) {
        return new DecodeException(kind, ieType, offset, getMessage(), decoded);
    }

    /** @return the part of the request decoded before the fault, or null */
    public SessionRequest context() {
        return context;
    }

    public Kind kind() {
        return kind;
    }

    /** @return offending IE type, 0 if none */
    public int ieType() {
        return ieType;
    }

    /** @return byte offset of the fault, -1 if unknown */
    public int offset() {
        return offset;
    }
}
