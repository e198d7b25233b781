package org.hupf.core.pfcp.codec;

/**
 * Sequential reader over one IE's value, where it lies in the datagram or in a copy of its own; running past the
 * end is a Mandatory IE incorrect fault naming the IE and the offset inside its value.
 */
public final class IeReader {

    private final byte[] value;
    private int ieType;
    private int start;
    private int end;
    private int pos;

    /** A reader over {@code value[start, end)}, the IE's value. */
    IeReader(int ieType, byte[] value, int start, int end) {
        this.ieType = ieType;
        this.value = value;
        this.start = start;
        this.end = end;
        this.pos = start;
    }

    /** Sets this reader on another value of the same buffer, {@code [start, end)}, of an IE of {@code ieType}. */
    IeReader at(int ieType, int start, int end) {
        this.ieType = ieType;
        this.start = start;
        this.end = end;
        this.pos = start;
        return this;
    }

    void need(int n) throws DecodeException {
        if (pos + n > end) {
            throw new DecodeException(DecodeException.Kind.MANDATORY_IE_INCORRECT, ieType, pos - start,
                                      "value too short: need " + n + " more byte(s), have " + (end - pos));
        }
    }

    public int u8() throws DecodeException {
        need(1);
        return value[pos++] & 0xff;
    }

    public int u16() throws DecodeException {
        need(2);
        int v = ((value[pos] & 0xff) << 8) | (value[pos + 1] & 0xff);
        pos += 2;
        return v;
    }

    public long u32() throws DecodeException {
        need(4);
        return ((long) u16() << 16) | u16();
    }

    public long u40() throws DecodeException {
        need(5);
        return ((long) u8() << 32) | u32();
    }

    public long u64() throws DecodeException {
        need(8);
        return (u32() << 32) | u32();
    }

    public byte[] bytes(int n) throws DecodeException {
        need(n);
        byte[] out = new byte[n];
        System.arraycopy(value, pos, out, 0, n);
        pos += n;
        return out;
    }

    /** @return bytes left unread */
    public int remaining() {
        return end - pos;
    }

    /**
     * Fails with a precise message when a value is out of its allowed set.
     *
     * @param what description of the bad value
     * @return the exception to throw
     */
    public DecodeException incorrect(String what) {
        return new DecodeException(DecodeException.Kind.MANDATORY_IE_INCORRECT, ieType, pos - start, what);
    }
}
