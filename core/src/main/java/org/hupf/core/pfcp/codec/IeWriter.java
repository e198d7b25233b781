package org.hupf.core.pfcp.codec;

import java.util.Arrays;

/**
 * Sequential writer, big-endian like {@link IeReader}, of one IE's value or of a whole message: a message is
 * written in one buffer, each IE's header with its length set once its value is written ({@link #begin},
 * {@link #end}), with no {@link Ie} object in between.
 */
public final class IeWriter {

    private byte[] buf;
    private int pos;

    IeWriter() {
        this(16);
    }

    IeWriter(int capacity) {
        buf = new byte[capacity];
    }

    /**
     * Writes the low {@code octets} bytes of a value, most significant first.
     *
     * @param v      value
     * @param octets 1 to 8
     * @return this writer
     */
    public IeWriter uint(long v, int octets) {
        room(octets);
        for (int shift = 8 * (octets - 1); shift >= 0; shift -= 8) {
            buf[pos++] = (byte) (v >>> shift);
        }
        return this;
    }

    public IeWriter u8(long v) {
        return uint(v, 1);
    }

    public IeWriter u16(long v) {
        return uint(v, 2);
    }

    public IeWriter u32(long v) {
        return uint(v, 4);
    }

    public IeWriter bytes(byte[] b) {
        room(b.length);
        System.arraycopy(b, 0, buf, pos, b.length);
        pos += b.length;
        return this;
    }

    /** Starts an IE: its type and a length that {@link #end} sets; returns where the IE starts. */
    int begin(int type) {
        int at = pos;
        uint(type, 2).uint(0, 2);
        return at;
    }

    /** Ends the IE started at {@code at}: its length is what was written after its header. */
    void end(int at) {
        set16(at + 2, pos - at - 4);
    }

    /** Overwrites two octets already written. */
    void set16(int at, int v) {
        buf[at] = (byte) (v >>> 8);
        buf[at + 1] = (byte) v;
    }

    int length() {
        return pos;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(buf, pos);
    }

    private void room(int n) {
        if (pos + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(2 * buf.length, pos + n));
        }
    }
}
