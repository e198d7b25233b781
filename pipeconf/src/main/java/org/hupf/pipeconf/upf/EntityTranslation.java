package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.api.UpfEntityType;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableAction;
import org.onosproject.net.pi.runtime.PiTableEntry;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;

import java.util.List;
import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * What the per-entity translators share: the pipeline's codec, the PI objects behind each entity type and their
 * capacities, index checks, match fields built and read back in the P4Info's widths.
 */
abstract class EntityTranslation {

    private static final int IPV4_BITS = 32;

    final PiCodec codec;

    EntityTranslation(PiCodec codec) {
        this.codec = codec;
    }

    /**
     * Returns the table(s), meter or counters behind an entity type; tunnel peers have an ingress and an
     * egress table, counters an ingress and an egress counter.
     *
     * @param type entity type
     * @return PI ids in the order (ingress, egress)
     */
    static List<? extends Object> piIds(UpfEntityType type) {
        switch (type) {
            case INTERFACE:
                return List.of(HUPF_INGRESS_UPF_INTERFACES);
            case SESSION_UPLINK:
                return List.of(HUPF_INGRESS_UPF_UPLINK_SESSIONS);
            case SESSION_DOWNLINK:
                return List.of(HUPF_INGRESS_UPF_DOWNLINK_SESSIONS);
            case TERMINATION_UPLINK:
                return List.of(HUPF_INGRESS_UPF_UPLINK_TERMINATIONS);
            case TERMINATION_DOWNLINK:
                return List.of(HUPF_INGRESS_UPF_DOWNLINK_TERMINATIONS);
            case TUNNEL_PEER:
                return List.of(HUPF_INGRESS_UPF_IG_TUNNEL_PEERS, HUPF_EGRESS_UPF_EG_TUNNEL_PEERS);
            case PEER_VXLAN:
                return List.of(HUPF_EGRESS_TENANT_PEER_VXLAN);
            case APPLICATION:
                return List.of(HUPF_INGRESS_UPF_APPLICATIONS);
            case SESSION_METER:
                return List.of(HUPF_INGRESS_UPF_SESSION_METER);
            case APPLICATION_METER:
                return List.of(HUPF_INGRESS_UPF_APP_METER);
            case COUNTER:
                return List.of(HUPF_INGRESS_UPF_PRE_QOS_COUNTER, HUPF_EGRESS_UPF_POST_QOS_COUNTER);
            default:
                throw new IllegalArgumentException("unknown entity type " + type);
        }
    }

    /**
     * Returns the capacity behind a type from the pipeline model.
     *
     * @param codec the pipeline's codec
     * @param type  entity type
     * @return table size, meter or counter size
     * @throws PiCodecException if the pipeline lacks the object
     */
    static long capacity(PiCodec codec, UpfEntityType type) throws PiCodecException {
        Object id = piIds(type).get(0);
        PiPipelineModel model = codec.model();
        if (id instanceof PiTableId) {
            return codec.table((PiTableId) id).maxSize();
        }
        if (id instanceof PiMeterId) {
            return model.meter((PiMeterId) id).orElseThrow(
                    () -> new PiCodecException("pipeline has no meter " + id)).size();
        }
        return model.counter((PiCounterId) id).orElseThrow(
                () -> new PiCodecException("pipeline has no counter " + id)).size();
    }

    PiExactFieldMatch exact(PiTableId t, org.onosproject.net.pi.model.PiMatchFieldId f, long v)
            throws PiCodecException {
        return new PiExactFieldMatch(f, codec.field(t, f, v));
    }

    PiLpmFieldMatch lpm(PiTableId t, org.onosproject.net.pi.model.PiMatchFieldId f, Ip4Prefix p)
            throws PiCodecException {
        return new PiLpmFieldMatch(f, codec.field(t, f, p.address().toInt() & 0xFFFFFFFFL), p.prefixLength());
    }

    static long prefixMask(int length) {
        return length == 0 ? 0 : (0xFFFFFFFFL << (IPV4_BITS - length)) & 0xFFFFFFFFL;
    }

    /** The entry's match on f, which must be of the given kind; empty if the entry has none. */
    private static <T extends PiFieldMatch> Optional<T> matchOf(PiTableEntry e,
                                                               org.onosproject.net.pi.model.PiMatchFieldId f,
                                                               Class<T> kind, String kindName)
            throws PiCodecException {
        Optional<PiFieldMatch> m = PiCodec.match(e, f);
        if (m.isPresent() && !kind.isInstance(m.get())) {
            throw new PiCodecException(e.table() + "." + f + " is not " + kindName + " match: " + m.get());
        }
        return m.map(kind::cast);
    }

    /** A ternary match that is an IPv4 prefix: its mask's ones contiguous from the top. */
    static Optional<Ip4Prefix> ternaryPrefix(PiTableEntry e, org.onosproject.net.pi.model.PiMatchFieldId f)
            throws PiCodecException {
        Optional<PiTernaryFieldMatch> m = matchOf(e, f, PiTernaryFieldMatch.class, "a ternary");
        if (m.isEmpty()) {
            return Optional.empty();
        }
        PiTernaryFieldMatch t = m.get();
        long mask = PiCodec.toLong(t.mask(), f + " mask");
        int length = Long.bitCount(mask);
        if (mask != prefixMask(length)) {
            throw new PiCodecException(e.table() + "." + f + " mask 0x" + Long.toHexString(mask)
                                               + " is not an IPv4 prefix mask");
        }
        return Optional.of(Ip4Prefix.valueOf((int) PiCodec.toLong(t.value(), f.toString()), length));
    }

    static Optional<Ip4Prefix> lpmPrefix(PiTableEntry e, org.onosproject.net.pi.model.PiMatchFieldId f)
            throws PiCodecException {
        Optional<PiLpmFieldMatch> m = matchOf(e, f, PiLpmFieldMatch.class, "an LPM");
        if (m.isEmpty()) {
            return Optional.empty();
        }
        PiLpmFieldMatch lpm = m.get();
        if (lpm.prefixLength() < 0 || lpm.prefixLength() > IPV4_BITS) {
            throw new PiCodecException(e.table() + "." + f + " prefix length " + lpm.prefixLength()
                                               + " is not an IPv4 prefix length");
        }
        return Optional.of(Ip4Prefix.valueOf((int) PiCodec.toLong(lpm.value(), f.toString()), lpm.prefixLength()));
    }

    static PiTableEntry entry(PiTableId t, PiMatchKey key, PiAction action) {
        return PiTableEntry.builder().forTable(t).withMatchKey(key).withAction(action).build();
    }

    static PiAction action(PiTableEntry e) throws PiCodecException {
        PiTableAction a = e.action();
        if (a == null || a.type() != PiTableAction.Type.ACTION) {
            throw new PiCodecException(e.table() + " entry has no direct action: " + e);
        }
        return (PiAction) a;
    }

    static PiCodecException unknownAction(PiTableEntry e) {
        return new PiCodecException("table " + e.table() + " entry has an action hupf does not write: "
                                            + e.action());
    }

    void requireIndex(UpfEntityType type, long index, String what) throws PiCodecException {
        long size = capacity(codec, type);
        if (index >= size) {
            throw new PiCodecException(what + " " + index + " is beyond " + piIds(type).get(0)
                                               + " (size " + size + " in this pipeline)");
        }
    }

    static void requireZero(long value, String what) throws PiCodecException {
        if (value != 0) {
            throw new PiCodecException(what + " must be 0, is " + value);
        }
    }

    static void requireNonZero(long value, String why) throws PiCodecException {
        if (value == 0) {
            throw new PiCodecException(why);
        }
    }

    /** Entity builders validate with IllegalArgumentException; a device value they refuse is a decode error. */
    static <T> T build(java.util.function.Supplier<T> builder) throws PiCodecException {
        try {
            return builder.get();
        } catch (IllegalArgumentException e) {
            throw new PiCodecException("device entry is not a valid entity: " + e.getMessage());
        }
    }
}
