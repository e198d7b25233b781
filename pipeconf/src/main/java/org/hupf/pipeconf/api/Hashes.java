package org.hupf.pipeconf.api;

import org.onlab.packet.Ip4Address;

/**
 * Entity hash codes: entities are the keys of the session core's and the offload manager's maps and sets, one
 * per session each, and are hashed several times per PFCP request.
 */
final class Hashes {

    private Hashes() {
    }

    /**
     * The hash of a UE address: its 32 bits. Ip4Address's own hash is a polynomial of its four octets that
     * maps 10,000 consecutive addresses onto about 1,500 values.
     */
    static int of(Ip4Address a) {
        return a == null ? 0 : Ip4Bits.of(a);
    }

    /**
     * Spreads a field-wise hash (murmur3's finaliser): sessions' fields move in step (UE address, TEID, cell
     * ids), and a field-wise hash of such fields falls into few hash-table bins.
     */
    static int spread(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h == 0 ? 1 : h;
    }

    /*
     * One field more in a field-wise hash, as Objects.hash folds it (31 h + the field's hash, from 1), without boxing
     * the field: the same value, no array and no boxes for each entity built.
     */
    static int add(int h, int field) {
        return 31 * h + field;
    }

    static int add(int h, long field) {
        return 31 * h + Long.hashCode(field);
    }

    static int add(int h, boolean field) {
        return 31 * h + Boolean.hashCode(field);
    }

    static int add(int h, Object field) {
        return 31 * h + (field == null ? 0 : field.hashCode());
    }
}
