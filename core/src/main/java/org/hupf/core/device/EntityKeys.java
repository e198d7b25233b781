package org.hupf.core.device;

import org.hupf.pipeconf.api.Ip4Bits;
import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTermination;

import java.util.List;
import java.util.Objects;

/**
 * The match key of an entity: two entities with the same key occupy the same table entry or cell, so
 * applying one overwrites the other (docs/PIPELINE_CONTRACT.md key columns).
 */
public final class EntityKeys {

    private EntityKeys() {
    }

    /**
     * Returns the key of an entity.
     *
     * @param e entity
     * @return a value with equals/hashCode over the key fields and the type
     */
    public static Object key(UpfEntity e) {
        switch (e.type()) {
            case INTERFACE:
                return new Key(e.type(), 0, 0, ((UpfInterface) e).prefix());
            case APPLICATION:
                UpfApplication a = (UpfApplication) e;
                return new Key(e.type(), a.sliceId(), a.priority(),
                               List.of(a.ip4Prefix(), a.l4PortRange(), a.ipProto()));
            default:
                return new Key(e.type(), first(e), second(e), null);
        }
    }

    /**
     * Returns the hash of an entity's key without building the key (the session core looks entities up by key
     * several times per request).
     *
     * @param e entity
     * @return {@code key(e).hashCode()}
     */
    public static int keyHash(UpfEntity e) {
        return numeric(e.type()) ? Key.hash(e.type(), first(e), second(e), null) : key(e).hashCode();
    }

    /**
     * Returns whether two entities have the same key, without building the keys.
     *
     * @param x an entity
     * @param y another
     * @return {@code key(x).equals(key(y))}
     */
    public static boolean sameKey(UpfEntity x, UpfEntity y) {
        if (x.type() != y.type()) {
            return false;
        }
        return numeric(x.type()) ? first(x) == first(y) && second(x) == second(y) : key(x).equals(key(y));
    }

    /** Whether the type's key is numbers alone (its first and second). */
    private static boolean numeric(UpfEntityType type) {
        return type != UpfEntityType.INTERFACE && type != UpfEntityType.APPLICATION;
    }

    /** The first number of a numeric key: an address's 32 bits, a tunnel peer's id or a cell. */
    private static long first(UpfEntity e) {
        switch (e.type()) {
            case SESSION_UPLINK:
                return Ip4Bits.of(((UpfSessionUplink) e).tunDstAddr());
            case SESSION_DOWNLINK:
                return Ip4Bits.of(((UpfSessionDownlink) e).ueAddress());
            case TERMINATION_UPLINK:
            case TERMINATION_DOWNLINK:
                return Ip4Bits.of(((UpfTermination) e).ueSessionId());
            case TUNNEL_PEER:
                return ((UpfGtpTunnelPeer) e).tunPeerId();
            case PEER_VXLAN:
                return ((UpfPeerVxlan) e).tunPeerId();
            case SESSION_METER:
            case APPLICATION_METER:
                return ((UpfMeter) e).cellId();
            case COUNTER:
                return ((UpfCounter) e).cellId();
            default:
                throw new IllegalArgumentException("no key for " + e.type());
        }
    }

    /** The second number of a numeric key: an uplink's TEID, a termination's application, else 0. */
    private static long second(UpfEntity e) {
        switch (e.type()) {
            case SESSION_UPLINK:
                return ((UpfSessionUplink) e).teid();
            case TERMINATION_UPLINK:
            case TERMINATION_DOWNLINK:
                return ((UpfTermination) e).applicationId();
            default:
                return 0;
        }
    }

    /**
     * Returns the key of a tunnel peer, without building one (an entry that refers to a peer names its id only).
     *
     * @param tunPeerId tunnel peer id
     * @return the key any {@link UpfGtpTunnelPeer} with that id has
     */
    public static Object tunnelPeerKey(int tunPeerId) {
        return new Key(UpfEntityType.TUNNEL_PEER, tunPeerId, 0, null);
    }

    /**
     * Returns the key of a meter cell, without building the meter.
     *
     * @param type SESSION_METER or APPLICATION_METER
     * @param cell meter cell
     * @return the key any {@link UpfMeter} of that type and cell has
     */
    public static Object meterKey(UpfEntityType type, int cell) {
        return new Key(type, cell, 0, null);
    }

    /**
     * Returns the key of a tunnel peer's VXLAN overlay.
     *
     * @param tunPeerId tunnel peer id
     * @return the key any {@link UpfPeerVxlan} of that peer has
     */
    public static Object peerVxlanKey(int tunPeerId) {
        return new Key(UpfEntityType.PEER_VXLAN, tunPeerId, 0, null);
    }

    /**
     * A key: its type, up to two numeric fields (an IPv4 address as its 32 bits) and the rest as one value. Keys
     * of consecutive sessions differ in few low bits, so the hash is spread (murmur3's finaliser) over all of
     * them: List's polynomial over Ip4Address's octet hash put 10,000 sessions' keys into ~1,500 bins.
     */
    private static final class Key {
        private final UpfEntityType type;
        private final long a;
        private final long b;
        private final Object rest;
        private final int hash;

        Key(UpfEntityType type, long a, long b, Object rest) {
            this.type = type;
            this.a = a;
            this.b = b;
            this.rest = rest;
            this.hash = hash(type, a, b, rest);
        }

        static int hash(UpfEntityType type, long a, long b, Object rest) {
            long h = a * 0x9E3779B97F4A7C15L + b * 0xC2B2AE3D27D4EB4FL + type.ordinal();
            h ^= h >>> 33;
            h *= 0xff51afd7ed558ccdL;
            h ^= h >>> 33;
            return (int) h ^ (rest == null ? 0 : rest.hashCode());
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return hash == k.hash && a == k.a && b == k.b && type == k.type && Objects.equals(rest, k.rest);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public String toString() {
            return type + "/" + a + "/" + b + (rest == null ? "" : "/" + rest);
        }
    }
}
