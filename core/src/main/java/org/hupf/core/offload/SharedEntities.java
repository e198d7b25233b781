package org.hupf.core.offload;

import org.hupf.core.util.IntMap;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.onlab.packet.Ip4Address;

/**
 * {@link HybridUpfDevice}'s shared entities, those a UE's entries refer to by number (tunnel peers, their VXLAN
 * overlays, session and application meters), each in one record with the UEs whose entries refer to it. A reference
 * is the entity's type and number in a long ({@link #ref}), found in an int-keyed table per type: a modification or
 * a deletion looks each reference up once, for the entity and its users together, and makes no key object for it.
 * Not thread-safe: the device calls it under its lock.
 */
final class SharedEntities {

    /** No reference: the entity is not one a UE's entries refer to. */
    static final long NONE = -1;
    private static final UpfEntityType[] TYPES = {UpfEntityType.TUNNEL_PEER, UpfEntityType.PEER_VXLAN,
                                                  UpfEntityType.SESSION_METER, UpfEntityType.APPLICATION_METER};

    /** One shared entity: as last written (null before that or once removed) and its users. */
    private static final class Slot {
        UpfEntity entity;
        /** Null, one UE's record, or an IntMap of them by address bits (a tunnel peer's gNB serves many UEs). */
        Object users;
    }

    @SuppressWarnings("unchecked")
    private final IntMap<Slot>[] byType = new IntMap[TYPES.length];

    SharedEntities() {
        for (int i = 0; i < TYPES.length; i++) {
            byType[i] = new IntMap<>();
        }
    }

    /**
     * @param type   TUNNEL_PEER, PEER_VXLAN, SESSION_METER or APPLICATION_METER
     * @param number its tunnel peer id or meter cell
     * @return the reference to that entity
     */
    static long ref(UpfEntityType type, int number) {
        for (int i = 0; i < TYPES.length; i++) {
            if (TYPES[i] == type) {
                return (long) i << 32 | (number & 0xFFFFFFFFL);
            }
        }
        throw new IllegalArgumentException(type + " is not referred to by number");
    }

    /** @return the reference to {@code e}, or {@link #NONE} if no UE's entry refers to an entity of its type */
    static long refOf(UpfEntity e) {
        switch (e.type()) {
            case TUNNEL_PEER:
                return ref(UpfEntityType.TUNNEL_PEER, ((UpfGtpTunnelPeer) e).tunPeerId());
            case PEER_VXLAN:
                return ref(UpfEntityType.PEER_VXLAN, ((UpfPeerVxlan) e).tunPeerId());
            case SESSION_METER:
            case APPLICATION_METER:
                return ref(e.type(), ((UpfMeter) e).cellId());
            default:
                return NONE;
        }
    }

    private Slot slot(long ref) {
        return byType[(int) (ref >>> 32)].get((int) ref);
    }

    private Slot slotOrNew(long ref) {
        return byType[(int) (ref >>> 32)].computeIfAbsent((int) ref, k -> new Slot());
    }

    /** Drops a slot with neither an entity nor users. */
    private void dropIfEmpty(long ref, Slot s) {
        if (s.entity == null && s.users == null) {
            byType[(int) (ref >>> 32)].remove((int) ref, s);
        }
    }

    /** @return the entity as last written, or null */
    UpfEntity get(long ref) {
        Slot s = slot(ref);
        return s == null ? null : s.entity;
    }

    /** @return the entity it replaced, or null */
    UpfEntity put(long ref, UpfEntity e) {
        Slot s = slotOrNew(ref);
        UpfEntity before = s.entity;
        s.entity = e;
        return before;
    }

    /** @return the entity removed, or null */
    UpfEntity remove(long ref) {
        Slot s = slot(ref);
        if (s == null) {
            return null;
        }
        UpfEntity before = s.entity;
        s.entity = null;
        dropIfEmpty(ref, s);
        return before;
    }

    /** Counts the UE as a user of the entity. */
    void refer(long ref, UeBook.Ue ue) {
        Slot s = slotOrNew(ref);
        if (s.users == null) {
            s.users = ue;
        } else if (s.users instanceof UeBook.Ue) {
            if (s.users != ue) {
                IntMap<UeBook.Ue> both = new IntMap<>();
                both.put(((UeBook.Ue) s.users).bits, (UeBook.Ue) s.users);
                both.put(ue.bits, ue);
                s.users = both;
            }
        } else {
            usersIn(s).put(ue.bits, ue);
        }
    }

    /** The UE is no longer a user of the entity. */
    void unrefer(long ref, UeBook.Ue ue) {
        Slot s = slot(ref);
        if (s == null) {
            return;
        }
        if (s.users == ue) {
            s.users = null;
        } else if (s.users instanceof IntMap && usersIn(s).remove(ue.bits, ue) && usersIn(s).isEmpty()) {
            s.users = null;
        }
        dropIfEmpty(ref, s);
    }

    /** Adds the UEs whose entries refer to the entity to UEs by address bits. */
    void addUsersOf(long ref, IntMap<Ip4Address> ues) {
        Slot s = slot(ref);
        Object users = s == null ? null : s.users;
        if (users instanceof UeBook.Ue) {
            ues.put(((UeBook.Ue) users).bits, ((UeBook.Ue) users).address);
        } else if (users != null) {
            usersIn(s).forEach((bits, ue) -> ues.put(bits, ue.address));
        }
    }

    @SuppressWarnings("unchecked")
    private static IntMap<UeBook.Ue> usersIn(Slot s) {
        return (IntMap<UeBook.Ue>) s.users;
    }
}
