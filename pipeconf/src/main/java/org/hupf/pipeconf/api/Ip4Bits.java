package org.hupf.pipeconf.api;

import org.onlab.packet.Ip4Address;

/**
 * An IPv4 address as its 32 bits, as {@link Ip4Address#toInt()} gives them without the {@code ByteBuffer} it wraps
 * around its copy of the octets: the session core, the hybrid device and the encoders take the bits of a UE's
 * address several times per PFCP request, on a JIT (C1) that does not elide either allocation.
 */
public final class Ip4Bits {

    private Ip4Bits() {
    }

    /**
     * @param a address
     * @return its bits, most significant octet first
     */
    public static int of(Ip4Address a) {
        byte[] o = a.toOctets();
        return (o[0] & 0xff) << 24 | (o[1] & 0xff) << 16 | (o[2] & 0xff) << 8 | (o[3] & 0xff);
    }
}
