package org.hupf.core.pfcp.codec;

import java.io.ByteArrayOutputStream;

/** Sequential writer of one IE's value, big-endian like {@link IeReader}. */
public final class IeWriter {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream(16);

    IeWriter() {
    }

    /**
     * Writes the low {@code octets} bytes of a value, most significant first.
     *
     * @param v      value
     * @param octets 1 to 8
     * @return this writer
     */
    public IeWriter uint(long v, int octets) {
        for (int shift = 8 * (octets - 1); shift >= 0; shift -= 8) {
            out.write((int) (v >>> shift));
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
        out.write(b, 0, b.length);
        return this;
    }

    int length() {
        return out.size();
    }

    byte[] toByteArray() {
        return out.toByteArray();
    }
}
