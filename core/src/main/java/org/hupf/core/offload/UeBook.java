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
 * its overlay) count their UEs as users. A UE has a handful of entries: they sit in a small array, scanned. Not
 * thread-safe: the device calls it under its lock.
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
     * One UE's own entries in the order they were first put. An entry's key (its type and {@link #keyA},
     * {@link #keyB}) and the shared entities it refers to ({@link #references}) are read off the entity when asked:
     * a million UEs hold only their entities, and a UE has a handful to scan.
     */
    static final class Ue {
        final Ip4Address address;
        final int bits;
        /** The UE's slice as {@link HybridUpfDevice} worked it out, under its core pools' version sliceVersion. */
        int slice;
        int sliceVersion = -1;
        private UpfEntity[] entities = new UpfEntity[4];
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
            return UeBook.references(entities[i]);
        }

        /** @return the entry with the key of {@code e}, or -1 */
        private int indexOf(UpfEntity e) {
            UpfEntityType type = e.type();
            long a = keyA(e, bits);
            long b = keyB(e);
            for (int i = 0; i < size; i++) {
                UpfEntity held = entities[i];
                if (held.type() == type && keyA(held, bits) == a && keyB(held) == b) {
                    return i;
                }
            }
            return -1;
        }

        private void append(UpfEntity e) {
            if (size == entities.length) {
                entities = Arrays.copyOf(entities, 2 * size);
            }
            entities[size++] = e;
        }

        private void removeAt(int i) {
            System.arraycopy(entities, i + 1, entities, i, size - i - 1);
            entities[--size] = null;
        }

        private boolean refersTo(long ref) {
            for (int i = 0; i < size; i++) {
                for (long r : references(i)) {
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
            ue.append(e);
        } else {
            long[] old = ue.references(at);
            ue.entities[at] = e;
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
        long[] old = ue.references(at);
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
