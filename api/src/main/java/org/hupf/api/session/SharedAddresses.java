package org.hupf.api.session;

import org.onlab.packet.Ip4Address;

/**
 * One object for an IPv4 address the rules repeat: a session's PDRs each name its UE address, and its sessions the
 * same N3 and gNB addresses; a decoded message makes an {@code Ip4Address} (24 bytes) for each. A direct-mapped cache
 * of the addresses seen last, as {@link SharedLongs}: bounded, without a lock (a racing thread only shares less).
 */
final class SharedAddresses {

    private static final int BITS = 12;
    private static final Ip4Address[] ADDRESSES = new Ip4Address[1 << BITS];

    private SharedAddresses() {
    }

    /** @return an address equal to {@code address} (null for null), the one held for it when there is one */
    static Ip4Address of(Ip4Address address) {
        if (address == null) {
            return null;
        }
        int slot = address.toInt() * 0x9E3779B9 >>> (32 - BITS);
        Ip4Address held = ADDRESSES[slot];
        if (address.equals(held)) {
            return held;
        }
        ADDRESSES[slot] = address;
        return address;
    }
}
