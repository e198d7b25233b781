package org.hupf.core.pfcp.codec;

import java.util.List;
import java.util.Objects;

/**
 * A PFCP message (TS 29.244 §7.2): header fields and top-level IEs.
 */
public final class PfcpMessage implements IeContainer {

    /** Largest sequence number: 24 bits. */
    public static final int MAX_SEQUENCE = 0xFFFFFF;

    private final int type;
    private final boolean hasSeid;
    private final long seid;
    private final int sequence;
    private final int priority;
    private final List<Ie> ies;

    private PfcpMessage(int type, boolean hasSeid, long seid, int sequence, int priority, List<Ie> ies) {
        if (sequence < 0 || sequence > MAX_SEQUENCE) {
            throw new IllegalArgumentException("sequence " + sequence + " out of range [0, " + MAX_SEQUENCE + "]");
        }
        if (priority < -1 || priority > 15) {
            throw new IllegalArgumentException("message priority " + priority + " out of range [0, 15]");
        }
        this.type = type;
        this.hasSeid = hasSeid;
        this.seid = seid;
        this.sequence = sequence;
        this.priority = priority;
        this.ies = List.copyOf(ies);
    }

    /**
     * Creates a node-related message (no SEID in the header).
     *
     * @param type     message type
     * @param sequence sequence number
     * @param ies      IEs
     * @return message
     */
    public static PfcpMessage node(int type, int sequence, List<Ie> ies) {
        return new PfcpMessage(type, false, 0, sequence, -1, ies);
    }

    /**
     * Creates a session-related message (SEID in the header).
     *
     * @param type     message type
     * @param seid     SEID of the receiver's session, 0 when unknown
     * @param sequence sequence number
     * @param ies      IEs
     * @return message
     */
    public static PfcpMessage session(int type, long seid, int sequence, List<Ie> ies) {
        return new PfcpMessage(type, true, seid, sequence, -1, ies);
    }

    static PfcpMessage decoded(int type, boolean hasSeid, long seid, int sequence, int priority, List<Ie> ies) {
        return new PfcpMessage(type, hasSeid, seid, sequence, priority, ies);
    }

    public int type() {
        return type;
    }

    public boolean hasSeid() {
        return hasSeid;
    }

    public long seid() {
        return seid;
    }

    public int sequence() {
        return sequence;
    }

    /** @return message priority (MP flag set), or -1 if absent */
    public int priority() {
        return priority;
    }

    public List<Ie> ies() {
        return ies;
    }

    /**
     * Returns the first top-level IE of a type, or null.
     *
     * @param ieType IE type
     * @return IE or null
     */
    public Ie ie(int ieType) {
        return child(ieType);
    }

    @Override
    public Ie child(int ieType) {
        return Ie.first(ies, ieType);
    }

    @Override
    public List<Ie> all(int ieType) {
        return Ie.all(ies, ieType);
    }

    @Override
    public Ie require(int ieType) throws DecodeException {
        Ie ie = Ie.first(ies, ieType);
        if (ie == null) {
            throw Ie.missing(ieType, "in message type " + type);
        }
        return ie;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof PfcpMessage)) {
            return false;
        }
        PfcpMessage that = (PfcpMessage) o;
        return type == that.type && hasSeid == that.hasSeid && seid == that.seid && sequence == that.sequence
                && priority == that.priority && ies.equals(that.ies);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, hasSeid, seid, sequence, priority, ies);
    }

    @Override
    public String toString() {
        return "PfcpMessage{type=" + type + (hasSeid ? ", seid=0x" + Long.toHexString(seid) : "")
                + ", seq=" + sequence + ", ies=" + ies + "}";
    }
}
