package org.hupf.core.offload;

import org.hupf.core.util.IntMap;
import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;

import java.util.Arrays;

/**
 * {@link HybridUpfDevice}'s per-UE bookkeeping: each UE's own entries (sessions, terminations), keyed by its
 * address's 32 bits; as they are put and removed, the {@link SharedEntities} they refer to (meters, a tunnel peer and
 * its overlay) count their UEs as users. A UE has a handful of entries: they sit in small arrays, scanned, each with
 * the shared entities it refers to worked out once, when it is put. Not thread-safe: the device calls it under its
 * lock.
 */
final class UeBook {

    private static final long[] NO_REFERENCES = new long[0];

    private final IntMap<Ue> perUe = new IntMap<>();
    private final SharedEntities shared;

    /** @param shared the entities the UEs' entries refer to, whose users this book keeps */
    UeBook(SharedEntities shared) {
        this.shared = shared;
    }

    /**
     * One UE's own entries in the order they were first put, each with its key and the shared entities it refers to
     * ({@link SharedEntities#ref}). An entry's key is its type and two numbers, {@code EntityKeys.key}'s fields for
     * the four types a UE owns, held in primitive arrays: no key object per entry.
     */
    static final class Ue {
        final Ip4Address address;
        final int bits;
        /** The UE's slice as {@link HybridUpfDevice} worked it out, under its core pools' version sliceVersion. */
        int slice;
        int sliceVersion = -1;
        private byte[] types = new byte[4];
        private long[] keyA = new long[4];
        private long[] keyB = new long[4];
        private UpfEntity[] entities = new UpfEntity[4];
        private long[][] references = new long[4][];
        private int size;

        Ue(Ip4Address address, int bits) {
            this.address = address;
            this.bits = bits;
        }

        int size() {
            return size;
        }

        UpfEntity entity(int i) {
            return entities[i];
        }

        long[] references(int i) {
            return references[i];
        }

        /** @return the entry with the key of {@code e}, or -1 */
        private int indexOf(UpfEntity e) {
            byte type = (byte) e.type().ordinal();
            long a = keyA(e, bits);
            long b = keyB(e);
            for (int i = 0; i < size; i++) {
                if (types[i] == type && keyA[i] == a && keyB[i] == b) {
                    return i;
                }
            }
            return -1;
        }

        private void append(UpfEntity e, long[] refs) {
            if (size == entities.length) {
                types = Arrays.copyOf(types, 2 * size);
                keyA = Arrays.copyOf(keyA, 2 * size);
                keyB = Arrays.copyOf(keyB, 2 * size);
                entities = Arrays.copyOf(entities, 2 * size);
                references = Arrays.copyOf(references, 2 * size);
            }
            types[size] = (byte) e.type().ordinal();
            keyA[size] = keyA(e, bits);
            keyB[size] = keyB(e);
            entities[size] = e;
            references[size] = refs;
            size++;
        }

        private void removeAt(int i) {
            int after = size - i - 1;
            System.arraycopy(types, i + 1, types, i, after);
            System.arraycopy(keyA, i + 1, keyA, i, after);
            System.arraycopy(keyB, i + 1, keyB, i, after);
            System.arraycopy(entities, i + 1, entities, i, after);
            System.arraycopy(references, i + 1, references, i, after);
            size--;
            entities[size] = null;
            references[size] = null;
        }

        private boolean refersTo(long ref) {
            for (int i = 0; i < size; i++) {
                for (long r : references[i]) {
                    if (r == ref) {
                        return true;
                    }
                }
            }
            return false;
        }
    }

    /** @return the UE's entries, null if it has none */
    Ue get(int ue) {
        return perUe.get(ue);
    }

    /** Forgets a UE that has no entries left. */
    void forget(int ue) {
        perUe.remove(ue);
    }

    /**
     * Puts a UE's entry, replacing the one with its key; the shared entities it refers to count it as a user.
     *
     * @param bits the address's 32 bits ({@link Ip4Bits#of})
     */
    void put(Ip4Address address, int bits, UpfEntity e) {
        Ue ue = perUe.get(bits);
        if (ue == null) {
            ue = new Ue(address, bits);
            perUe.put(bits, ue);
        }
        long[] refs = references(e);
        int at = ue.indexOf(e);
        if (at < 0) {
            ue.append(e, refs);
        } else {
            long[] old = ue.references[at];
            ue.entities[at] = e;
            ue.references[at] = refs;
            for (long ref : old) {
                unrefer(ref, ue);
            }
        }
        for (long ref : refs) {
            shared.refer(ref, ue);
        }
    }

    /** Removes the UE's entry with the key of {@code e}, if it has one. */
    void remove(int bits, UpfEntity e) {
        Ue ue = perUe.get(bits);
        int at = ue == null ? -1 : ue.indexOf(e);
        if (at < 0) {
            return;
        }
        long[] old = ue.references[at];
        ue.removeAt(at);
        for (long ref : old) {
            unrefer(ref, ue);
        }
    }

    /** The UE no longer counts as a user of ref, unless another of its entries still refers to it. */
    private void unrefer(long ref, Ue ue) {
        if (!ue.refersTo(ref)) {
            shared.unrefer(ref, ue);
        }
    }

    /**
     * The first number of an own entry's key: the UE's bits, but an uplink session's, which is keyed by its tunnel
     * (the N3 address and the TEID).
     */
    private static long keyA(UpfEntity e, int ueBits) {
        return e.type() == UpfEntityType.SESSION_UPLINK ? Ip4Bits.of(((UpfSessionUplink) e).tunDstAddr()) : ueBits;
    }

    /** The second number of an own entry's key: an uplink session's TEID, a termination's application. */
    private static long keyB(UpfEntity e) {
        switch (e.type()) {
            case SESSION_UPLINK:
                return ((UpfSessionUplink) e).teid();
            case TERMINATION_UPLINK:
                return ((UpfTerminationUplink) e).applicationId();
            case TERMINATION_DOWNLINK:
                return ((UpfTerminationDownlink) e).applicationId();
            default:
                return 0;
        }
    }

    /** The shared entities (meters, tunnel peer and its overlay) one UE entry refers to. */
    static long[] references(UpfEntity e) {
        switch (e.type()) {
            case SESSION_UPLINK:
                return meterRef(UpfEntityType.SESSION_METER, ((UpfSessionUplink) e).sessionMeterIdx());
            case SESSION_DOWNLINK:
                UpfSessionDownlink d = (UpfSessionDownlink) e;
                if (d.tunPeerId() == 0) {
                    return meterRef(UpfEntityType.SESSION_METER, d.sessionMeterIdx());
                }
                // The peer's VXLAN overlay, where it sits in one, goes to the switch with it.
                long peer = SharedEntities.ref(UpfEntityType.TUNNEL_PEER, d.tunPeerId());
                long overlay = SharedEntities.ref(UpfEntityType.PEER_VXLAN, d.tunPeerId());
                return d.sessionMeterIdx() == 0 ? new long[] {peer, overlay}
                        : new long[] {SharedEntities.ref(UpfEntityType.SESSION_METER, d.sessionMeterIdx()), peer,
                                      overlay};
            case TERMINATION_UPLINK:
                return meterRef(UpfEntityType.APPLICATION_METER, ((UpfTerminationUplink) e).appMeterIdx());
            case TERMINATION_DOWNLINK:
                return meterRef(UpfEntityType.APPLICATION_METER, ((UpfTerminationDownlink) e).appMeterIdx());
            default:
                return NO_REFERENCES;
        }
    }

    private static long[] meterRef(UpfEntityType type, int cell) {
        return cell == 0 ? NO_REFERENCES : new long[] {SharedEntities.ref(type, cell)};
    }
}
