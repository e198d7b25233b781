package org.hupf.pipeconf.upf;

import com.google.common.collect.Range;
import org.hupf.pipeconf.api.UpfApplication;
import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntity;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfGtpTunnelPeer;
import org.hupf.pipeconf.api.UpfInterface;
import org.hupf.pipeconf.api.UpfMeter;
import org.hupf.pipeconf.api.UpfPeerVxlan;
import org.hupf.pipeconf.api.UpfSessionDownlink;
import org.hupf.pipeconf.api.UpfSessionUplink;
import org.hupf.pipeconf.api.UpfTerminationDownlink;
import org.hupf.pipeconf.api.UpfTerminationUplink;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.pi.model.PiActionId;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiMatchType;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiCounterCellId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiMeterCellId;
import org.onosproject.net.pi.runtime.PiRangeFieldMatch;
import org.onosproject.net.pi.runtime.PiTableAction;
import org.onosproject.net.pi.runtime.PiTableEntry;
import org.onosproject.net.pi.runtime.PiTernaryFieldMatch;

import java.util.List;
import java.util.Optional;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Translates hupf UPF entities to PI entities of the pipeline contract and back, for either profile.
 * Widths and capacities come from the pipeline model (the committed P4Info), never from constants here.
 * Anything the pipeline cannot hold exactly, so that reading it back would give a different entity,
 * is refused with a {@link PiCodecException} that says why.
 */
public final class UpfTranslator {

    private static final int IPV4_BITS = 32;
    private static final int MAX_L4_PORT = 65535;
    private static final long PROTO_MASK = 0xFF;

    private final PiCodec codec;
    /** Whether applications' prefix is a ternary match (TNA: no LPM beside range and ternary), else LPM. */
    private final boolean ternaryAppPrefix;

    public UpfTranslator(PiPipelineModel model) {
        this.codec = new PiCodec(model);
        this.ternaryAppPrefix = model.table(HUPF_INGRESS_UPF_APPLICATIONS)
                .flatMap(t -> t.matchField(HDR_APP_IPV4_ADDR))
                .map(f -> f.matchType() == PiMatchType.TERNARY).orElse(false);
    }

    public PiCodec codec() {
        return codec;
    }

    /**
     * Returns the table(s), meter or counters behind an entity type; tunnel peers have an ingress and an
     * egress table, counters an ingress and an egress counter.
     *
     * @param type entity type
     * @return PI ids in the order (ingress, egress)
     */
    public static List<? extends Object> piIds(UpfEntityType type) {
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
     * @param type entity type
     * @return table size, meter or counter size
     * @throws PiCodecException if the pipeline lacks the object
     */
    public long capacity(UpfEntityType type) throws PiCodecException {
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

    /**
     * Translates an entity to the PI entities that hold it (two table entries for a tunnel peer, a meter
     * cell configuration for a meter).
     *
     * @param entity UPF entity
     * @return PI entities
     * @throws PiCodecException if the pipeline cannot hold the entity exactly
     */
    public List<PiEntity> toPi(UpfEntity entity) throws PiCodecException {
        switch (entity.type()) {
            case INTERFACE:
                return List.of(interfaceEntry((UpfInterface) entity));
            case SESSION_UPLINK:
                return List.of(uplinkSessionEntry((UpfSessionUplink) entity));
            case SESSION_DOWNLINK:
                return List.of(downlinkSessionEntry((UpfSessionDownlink) entity));
            case TERMINATION_UPLINK:
                return List.of(uplinkTerminationEntry((UpfTerminationUplink) entity));
            case TERMINATION_DOWNLINK:
                return List.of(downlinkTerminationEntry((UpfTerminationDownlink) entity));
            case TUNNEL_PEER:
                return tunnelPeerEntries((UpfGtpTunnelPeer) entity);
            case PEER_VXLAN:
                return List.of(peerVxlanEntry((UpfPeerVxlan) entity));
            case APPLICATION:
                return List.of(applicationEntry((UpfApplication) entity));
            case SESSION_METER:
            case APPLICATION_METER:
                return List.of(meterCell((UpfMeter) entity));
            case COUNTER:
                return counterCells((UpfCounter) entity);
            default:
                throw new PiCodecException("unknown entity type " + entity.type());
        }
    }

    /**
     * Translates a table entry read from a device back to its entity. A tunnel peer is two entries: use
     * {@link #tunnelPeer(PiTableEntry, PiTableEntry)}.
     *
     * @param entry table entry
     * @return entity
     * @throws PiCodecException if the entry is not one this translator writes
     */
    public UpfEntity fromTableEntry(PiTableEntry entry) throws PiCodecException {
        PiTableId t = entry.table();
        if (t.equals(HUPF_INGRESS_UPF_INTERFACES)) {
            return toInterface(entry);
        } else if (t.equals(HUPF_INGRESS_UPF_UPLINK_SESSIONS)) {
            return toUplinkSession(entry);
        } else if (t.equals(HUPF_INGRESS_UPF_DOWNLINK_SESSIONS)) {
            return toDownlinkSession(entry);
        } else if (t.equals(HUPF_INGRESS_UPF_UPLINK_TERMINATIONS)) {
            return toUplinkTermination(entry);
        } else if (t.equals(HUPF_INGRESS_UPF_DOWNLINK_TERMINATIONS)) {
            return toDownlinkTermination(entry);
        } else if (t.equals(HUPF_EGRESS_TENANT_PEER_VXLAN)) {
            return toPeerVxlan(entry);
        } else if (t.equals(HUPF_INGRESS_UPF_APPLICATIONS)) {
            return toApplication(entry);
        }
        throw new PiCodecException("table " + t + " holds no UPF entity of its own");
    }

    // ---- interfaces

    private PiTableEntry interfaceEntry(UpfInterface iface) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_INTERFACES;
        PiMatchKey.Builder key = PiMatchKey.builder()
                .addFieldMatch(new PiExactFieldMatch(HDR_GTPU_IS_VALID,
                                                     codec.field(t, HDR_GTPU_IS_VALID, iface.isAccess() ? 1 : 0)));
        // P4Runtime: a zero-length LPM is a wildcard and must be omitted.
        if (iface.prefix().prefixLength() > 0) {
            key.addFieldMatch(lpm(t, HDR_IPV4_DST_ADDR, iface.prefix()));
        }
        PiActionId action = iface.isAccess() ? HUPF_INGRESS_UPF_IFACE_ACCESS : HUPF_INGRESS_UPF_IFACE_CORE;
        return entry(t, key.build(), codec.action(action, SLICE_ID, iface.sliceId()));
    }

    private UpfInterface toInterface(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        UpfInterface.Builder b = UpfInterface.builder()
                .setPrefix(lpmPrefix(e, HDR_IPV4_DST_ADDR).orElse(Ip4Prefix.valueOf(0, 0)))
                .setSliceId((int) PiCodec.param(a, SLICE_ID));
        long gtpu = PiCodec.exact(e, HDR_GTPU_IS_VALID);
        if (a.id().equals(HUPF_INGRESS_UPF_IFACE_ACCESS) && gtpu == 1) {
            b.setAccess();
        } else if (a.id().equals(HUPF_INGRESS_UPF_IFACE_CORE) && gtpu == 0) {
            b.setCore();
        } else {
            throw new PiCodecException("interface entry with action " + a.id() + " and gtpu_is_valid " + gtpu
                                               + " is neither access (1) nor core (0)");
        }
        return build(b::build);
    }

    // ---- sessions

    private PiTableEntry uplinkSessionEntry(UpfSessionUplink s) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_UPLINK_SESSIONS;
        PiMatchKey key = PiMatchKey.builder()
                .addFieldMatch(exact(t, HDR_TUNNEL_IPV4_DST, s.tunDstAddr().toInt() & 0xFFFFFFFFL))
                .addFieldMatch(exact(t, HDR_TEID, s.teid()))
                .build();
        PiAction action;
        if (s.needsDropping()) {
            requireZero(s.sessionMeterIdx(), "a dropping uplink session has no session meter: sessionMeterIdx");
            if (s.ueAddress().isPresent()) {
                throw new PiCodecException("a dropping uplink session carries no ueAddress "
                                                   + "(set_uplink_session_drop has no parameters)");
            }
            action = codec.action(HUPF_INGRESS_UPF_SET_UPLINK_SESSION_DROP);
        } else {
            requireIndex(UpfEntityType.SESSION_METER, s.sessionMeterIdx(), "sessionMeterIdx");
            Ip4Address ue = s.ueAddress().orElseThrow(() -> new PiCodecException(
                    "a forwarding uplink session needs ueAddress: the pipeline checks the inner source "
                            + "against it (anti-spoofing)"));
            action = codec.action(HUPF_INGRESS_UPF_SET_UPLINK_SESSION, UE_ADDR, ue.toInt() & 0xFFFFFFFFL,
                                  SESSION_METER_IDX, s.sessionMeterIdx());
        }
        return entry(t, key, action);
    }

    private UpfSessionUplink toUplinkSession(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        UpfSessionUplink.Builder b = UpfSessionUplink.builder()
                .setTunDstAddr(Ip4Address.valueOf((int) PiCodec.exact(e, HDR_TUNNEL_IPV4_DST)))
                .setTeid(PiCodec.exact(e, HDR_TEID));
        if (a.id().equals(HUPF_INGRESS_UPF_SET_UPLINK_SESSION_DROP)) {
            b.needsDropping(true);
        } else if (a.id().equals(HUPF_INGRESS_UPF_SET_UPLINK_SESSION)) {
            b.setSessionMeterIdx((int) PiCodec.param(a, SESSION_METER_IDX))
                    .withUeAddress(Ip4Address.valueOf((int) PiCodec.param(a, UE_ADDR)));
        } else {
            throw unknownAction(e);
        }
        return build(b::build);
    }

    private PiTableEntry downlinkSessionEntry(UpfSessionDownlink s) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_DOWNLINK_SESSIONS;
        PiMatchKey key = PiMatchKey.builder()
                .addFieldMatch(exact(t, HDR_UE_ADDR, s.ueAddress().toInt() & 0xFFFFFFFFL))
                .build();
        PiAction action;
        if (s.needsDropping()) {
            requireZero(s.sessionMeterIdx(), "a dropping downlink session has no session meter: sessionMeterIdx");
            action = codec.action(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_DROP);
        } else {
            requireIndex(UpfEntityType.SESSION_METER, s.sessionMeterIdx(), "sessionMeterIdx");
            if (s.needsBuffering()) {
                action = codec.action(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_BUF,
                                      SESSION_METER_IDX, s.sessionMeterIdx());
            } else {
                action = codec.action(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION, TUN_PEER_ID, s.tunPeerId(),
                                      SESSION_METER_IDX, s.sessionMeterIdx());
            }
        }
        return entry(t, key, action);
    }

    private UpfSessionDownlink toDownlinkSession(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        UpfSessionDownlink.Builder b = UpfSessionDownlink.builder()
                .withUeAddress(Ip4Address.valueOf((int) PiCodec.exact(e, HDR_UE_ADDR)));
        if (a.id().equals(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_DROP)) {
            b.needsDropping(true);
        } else if (a.id().equals(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_BUF)) {
            b.needsBuffering(true).withSessionMeterIdx((int) PiCodec.param(a, SESSION_METER_IDX));
        } else if (a.id().equals(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION)) {
            b.withGtpTunnelPeerId((int) PiCodec.param(a, TUN_PEER_ID))
                    .withSessionMeterIdx((int) PiCodec.param(a, SESSION_METER_IDX));
        } else {
            throw unknownAction(e);
        }
        return build(b::build);
    }

    // ---- terminations

    private PiMatchKey terminationKey(PiTableId t, Ip4Address ue, int appId) throws PiCodecException {
        return PiMatchKey.builder()
                .addFieldMatch(exact(t, HDR_UE_SESSION_ID, ue.toInt() & 0xFFFFFFFFL))
                .addFieldMatch(exact(t, HDR_APP_ID, appId))
                .build();
    }

    private PiTableEntry uplinkTerminationEntry(UpfTerminationUplink term) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_UPLINK_TERMINATIONS;
        requireIndex(UpfEntityType.COUNTER, term.counterId(), "counterId");
        PiAction action;
        if (term.needsDropping()) {
            requireZero(term.trafficClass(), "a dropping uplink termination has no trafficClass");
            requireZero(term.appMeterIdx(), "a dropping uplink termination has no appMeterIdx");
            action = codec.action(HUPF_INGRESS_UPF_UPLINK_TERM_DROP, CTR_IDX, term.counterId());
        } else {
            requireIndex(UpfEntityType.APPLICATION_METER, term.appMeterIdx(), "appMeterIdx");
            action = codec.action(HUPF_INGRESS_UPF_UPLINK_TERM_FWD, CTR_IDX, term.counterId(),
                                  TC, term.trafficClass(), APP_METER_IDX, term.appMeterIdx());
        }
        return entry(t, terminationKey(t, term.ueSessionId(), term.applicationId()), action);
    }

    private UpfTerminationUplink toUplinkTermination(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        UpfTerminationUplink.Builder b = UpfTerminationUplink.builder()
                .withUeSessionId(Ip4Address.valueOf((int) PiCodec.exact(e, HDR_UE_SESSION_ID)))
                .withApplicationId((int) PiCodec.exact(e, HDR_APP_ID))
                .withCounterId((int) PiCodec.param(a, CTR_IDX));
        if (a.id().equals(HUPF_INGRESS_UPF_UPLINK_TERM_DROP)) {
            b.needsDropping(true);
        } else if (a.id().equals(HUPF_INGRESS_UPF_UPLINK_TERM_FWD)) {
            b.withTrafficClass((int) PiCodec.param(a, TC))
                    .withAppMeterIdx((int) PiCodec.param(a, APP_METER_IDX));
        } else {
            throw unknownAction(e);
        }
        return build(b::build);
    }

    private PiTableEntry downlinkTerminationEntry(UpfTerminationDownlink term) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_DOWNLINK_TERMINATIONS;
        requireIndex(UpfEntityType.COUNTER, term.counterId(), "counterId");
        PiAction action;
        if (term.needsDropping()) {
            requireZero(term.teid(), "a dropping downlink termination has no teid");
            requireZero(term.qfi(), "a dropping downlink termination has no qfi");
            requireZero(term.trafficClass(), "a dropping downlink termination has no trafficClass");
            requireZero(term.appMeterIdx(), "a dropping downlink termination has no appMeterIdx");
            action = codec.action(HUPF_INGRESS_UPF_DOWNLINK_TERM_DROP, CTR_IDX, term.counterId());
        } else {
            requireIndex(UpfEntityType.APPLICATION_METER, term.appMeterIdx(), "appMeterIdx");
            action = codec.action(HUPF_INGRESS_UPF_DOWNLINK_TERM_FWD, CTR_IDX, term.counterId(),
                                  TEID, term.teid(), QFI, term.qfi(), TC, term.trafficClass(),
                                  APP_METER_IDX, term.appMeterIdx());
        }
        return entry(t, terminationKey(t, term.ueSessionId(), term.applicationId()), action);
    }

    private UpfTerminationDownlink toDownlinkTermination(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        UpfTerminationDownlink.Builder b = UpfTerminationDownlink.builder()
                .withUeSessionId(Ip4Address.valueOf((int) PiCodec.exact(e, HDR_UE_SESSION_ID)))
                .withApplicationId((int) PiCodec.exact(e, HDR_APP_ID))
                .withCounterId((int) PiCodec.param(a, CTR_IDX));
        if (a.id().equals(HUPF_INGRESS_UPF_DOWNLINK_TERM_DROP)) {
            b.needsDropping(true);
        } else if (a.id().equals(HUPF_INGRESS_UPF_DOWNLINK_TERM_FWD)) {
            b.withTeid(PiCodec.param(a, TEID)).withQfi((int) PiCodec.param(a, QFI))
                    .withTrafficClass((int) PiCodec.param(a, TC))
                    .withAppMeterIdx((int) PiCodec.param(a, APP_METER_IDX));
        } else {
            throw unknownAction(e);
        }
        return build(b::build);
    }

    // ---- tunnel peers

    private List<PiEntity> tunnelPeerEntries(UpfGtpTunnelPeer p) throws PiCodecException {
        PiTableId ig = HUPF_INGRESS_UPF_IG_TUNNEL_PEERS;
        PiTableId eg = HUPF_EGRESS_UPF_EG_TUNNEL_PEERS;
        PiTableEntry igEntry = entry(ig, PiMatchKey.builder().addFieldMatch(exact(ig, HDR_TUN_PEER_ID, p.tunPeerId()))
                                             .build(),
                                     codec.action(HUPF_INGRESS_UPF_SET_ROUTING_IPV4_DST,
                                                  TUN_DST_ADDR, p.routingDst().toInt() & 0xFFFFFFFFL));
        PiTableEntry egEntry = entry(eg, PiMatchKey.builder().addFieldMatch(exact(eg, HDR_TUN_PEER_ID, p.tunPeerId()))
                                             .build(),
                                     codec.action(HUPF_EGRESS_UPF_LOAD_TUNNEL_PARAMS,
                                                  TUNNEL_SRC_ADDR, p.src().toInt() & 0xFFFFFFFFL,
                                                  TUNNEL_DST_ADDR, p.dst().toInt() & 0xFFFFFFFFL,
                                                  TUNNEL_SRC_PORT, p.srcPort()));
        return List.of(igEntry, egEntry);
    }

    /**
     * Rebuilds a tunnel peer from its two entries: {@code eg_tunnel_peers} (the encapsulation) and
     * {@code ig_tunnel_peers} (the routing address).
     *
     * @param egress  entry of the egress tunnel peer table
     * @param ingress entry of the ingress tunnel peer table with the same id
     * @return tunnel peer
     * @throws PiCodecException if the entries are not the two halves of one tunnel peer
     */
    public UpfGtpTunnelPeer tunnelPeer(PiTableEntry egress, PiTableEntry ingress) throws PiCodecException {
        if (!egress.table().equals(HUPF_EGRESS_UPF_EG_TUNNEL_PEERS)
                || !ingress.table().equals(HUPF_INGRESS_UPF_IG_TUNNEL_PEERS)) {
            throw new PiCodecException("a tunnel peer is an " + HUPF_EGRESS_UPF_EG_TUNNEL_PEERS + " and an "
                                               + HUPF_INGRESS_UPF_IG_TUNNEL_PEERS + " entry, not " + egress.table()
                                               + " and " + ingress.table());
        }
        PiAction a = action(egress);
        PiAction routing = action(ingress);
        if (!a.id().equals(HUPF_EGRESS_UPF_LOAD_TUNNEL_PARAMS)) {
            throw unknownAction(egress);
        }
        if (!routing.id().equals(HUPF_INGRESS_UPF_SET_ROUTING_IPV4_DST)) {
            throw unknownAction(ingress);
        }
        long id = PiCodec.exact(egress, HDR_TUN_PEER_ID);
        if (PiCodec.exact(ingress, HDR_TUN_PEER_ID) != id) {
            throw new PiCodecException("tunnel peer entries of two ids: " + id + " and "
                                               + PiCodec.exact(ingress, HDR_TUN_PEER_ID));
        }
        return build(UpfGtpTunnelPeer.builder()
                             .withTunnelPeerId((int) id)
                             .withSrcAddr(Ip4Address.valueOf((int) PiCodec.param(a, TUNNEL_SRC_ADDR)))
                             .withDstAddr(Ip4Address.valueOf((int) PiCodec.param(a, TUNNEL_DST_ADDR)))
                             .withSrcPort((int) PiCodec.param(a, TUNNEL_SRC_PORT))
                             .withRoutingDst(Ip4Address.valueOf((int) PiCodec.param(routing, TUN_DST_ADDR)))::build);
    }

    /**
     * Tells whether this pipeline has the table of an entity type (the TNA program has no VXLAN tenants).
     *
     * @param type entity type backed by tables
     * @return true if its first table is in the pipeline
     */
    public boolean holds(UpfEntityType type) {
        Object id = piIds(type).get(0);
        return !(id instanceof PiTableId) || codec.hasTable((PiTableId) id);
    }

    // ---- VXLAN overlays of tunnel peers

    private PiTableEntry peerVxlanEntry(UpfPeerVxlan v) throws PiCodecException {
        PiTableId t = HUPF_EGRESS_TENANT_PEER_VXLAN;
        if (!codec.hasTable(t)) {
            throw new PiCodecException("this pipeline has no " + t + ": a tunnel peer cannot sit in a VXLAN overlay");
        }
        return entry(t, PiMatchKey.builder().addFieldMatch(exact(t, HDR_TUN_PEER_ID, v.tunPeerId())).build(),
                     codec.action(HUPF_EGRESS_TENANT_VXLAN_ENCAP, VNI, v.vni(),
                                  VTEP_SRC_ADDR, v.vtepSrc().toInt() & 0xFFFFFFFFL,
                                  VTEP_DST_ADDR, v.vtepDst().toInt() & 0xFFFFFFFFL,
                                  INNER_SRC_MAC, v.innerSrcMac().toLong(), INNER_DST_MAC, v.innerDstMac().toLong()));
    }

    private UpfPeerVxlan toPeerVxlan(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        if (!a.id().equals(HUPF_EGRESS_TENANT_VXLAN_ENCAP)) {
            throw unknownAction(e);
        }
        return build(UpfPeerVxlan.builder().withTunnelPeerId((int) PiCodec.exact(e, HDR_TUN_PEER_ID))
                             .withVni((int) PiCodec.param(a, VNI))
                             .withVteps(Ip4Address.valueOf((int) PiCodec.param(a, VTEP_SRC_ADDR)),
                                        Ip4Address.valueOf((int) PiCodec.param(a, VTEP_DST_ADDR)))
                             .withInnerMacs(MacAddress.valueOf(PiCodec.param(a, INNER_SRC_MAC)),
                                            MacAddress.valueOf(PiCodec.param(a, INNER_DST_MAC)))::build);
    }

    // ---- applications

    private PiTableEntry applicationEntry(UpfApplication app) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_UPF_APPLICATIONS;
        // P4Runtime priorities are > 0; the entity's 0 is the lowest.
        if (app.priority() == Integer.MAX_VALUE) {
            throw new PiCodecException("application priority " + app.priority()
                                               + " exceeds the P4Runtime maximum " + (Integer.MAX_VALUE - 1));
        }
        PiMatchKey.Builder key = PiMatchKey.builder().addFieldMatch(exact(t, HDR_SLICE_ID, app.sliceId()));
        if (app.ip4Prefix().isPresent()) {
            if (app.ip4Prefix().get().prefixLength() == 0) {
                throw new PiCodecException("application prefix /0 matches every address: leave ipPrefix unset");
            }
            Ip4Prefix p = app.ip4Prefix().get();
            key.addFieldMatch(ternaryAppPrefix
                    ? new PiTernaryFieldMatch(HDR_APP_IPV4_ADDR,
                                              codec.field(t, HDR_APP_IPV4_ADDR, p.address().toInt() & 0xFFFFFFFFL),
                                              codec.field(t, HDR_APP_IPV4_ADDR, prefixMask(p.prefixLength())))
                    : lpm(t, HDR_APP_IPV4_ADDR, p));
        }
        if (app.l4PortRange().isPresent()) {
            Range<Integer> r = app.l4PortRange().get();
            if (r.lowerEndpoint() == 0 && r.upperEndpoint() == MAX_L4_PORT) {
                throw new PiCodecException("application port range 0-65535 matches every port: "
                                                   + "leave l4PortRange unset");
            }
            key.addFieldMatch(new PiRangeFieldMatch(HDR_APP_L4_PORT,
                                                    codec.field(t, HDR_APP_L4_PORT, r.lowerEndpoint()),
                                                    codec.field(t, HDR_APP_L4_PORT, r.upperEndpoint())));
        }
        if (app.ipProto().isPresent()) {
            key.addFieldMatch(new PiTernaryFieldMatch(HDR_APP_IP_PROTO,
                                                      codec.field(t, HDR_APP_IP_PROTO, app.ipProto().get()),
                                                      codec.field(t, HDR_APP_IP_PROTO, PROTO_MASK)));
        }
        return PiTableEntry.builder().forTable(t).withMatchKey(key.build())
                .withAction(codec.action(HUPF_INGRESS_UPF_SET_APP_ID, APP_ID, app.appId()))
                .withPriority(app.priority() + 1).build();
    }

    private UpfApplication toApplication(PiTableEntry e) throws PiCodecException {
        PiAction a = action(e);
        if (!a.id().equals(HUPF_INGRESS_UPF_SET_APP_ID)) {
            throw unknownAction(e);
        }
        int priority = e.priority().orElseThrow(
                () -> new PiCodecException("application entry without priority: " + e));
        UpfApplication.Builder b = UpfApplication.builder()
                .withSliceId((int) PiCodec.exact(e, HDR_SLICE_ID))
                .withAppId((int) PiCodec.param(a, APP_ID))
                .withPriority(priority - 1);
        (ternaryAppPrefix ? ternaryPrefix(e, HDR_APP_IPV4_ADDR) : lpmPrefix(e, HDR_APP_IPV4_ADDR))
                .ifPresent(b::withIp4Prefix);
        Optional<PiFieldMatch> port = PiCodec.match(e, HDR_APP_L4_PORT);
        if (port.isPresent()) {
            PiRangeFieldMatch r = (PiRangeFieldMatch) port.get();
            b.withL4PortRange((int) PiCodec.toLong(r.lowValue(), "app_l4_port low"),
                              (int) PiCodec.toLong(r.highValue(), "app_l4_port high"));
        }
        Optional<PiFieldMatch> proto = PiCodec.match(e, HDR_APP_IP_PROTO);
        if (proto.isPresent()) {
            PiTernaryFieldMatch m = (PiTernaryFieldMatch) proto.get();
            if (PiCodec.toLong(m.mask(), "app_ip_proto mask") != PROTO_MASK) {
                throw new PiCodecException("app_ip_proto mask " + m.mask() + " is not exact (0xff)");
            }
            b.withIpProto((int) PiCodec.toLong(m.value(), "app_ip_proto"));
        }
        return build(b::build);
    }

    // ---- meters and counters

    private PiMeterCellConfig meterCell(UpfMeter m) throws PiCodecException {
        requireIndex(m.type(), m.cellId(), "meter cellId");
        PiMeterCellId cell = PiMeterCellId.ofIndirect((PiMeterId) piIds(m.type()).get(0), m.cellId());
        if (m.isReset()) {
            return PiMeterCellConfig.reset(cell);
        }
        // Cell 0 is the index of every unmetered session and application (the pipeline's convention).
        requireNonZero(m.cellId(), "meter cell 0 stands for \"not metered\" and cannot be configured");
        return PiMeterCellConfig.builder().withMeterCellId(cell)
                .withCommittedBand(m.committedRate(), m.committedBurst())
                .withPeakBand(m.peakRate(), m.peakBurst()).build();
    }

    /**
     * Returns the reset configuration of a meter's cell: deleting a meter resets it.
     *
     * @param m meter
     * @return reset cell configuration
     * @throws PiCodecException if the cell index is out of range
     */
    public PiMeterCellConfig meterReset(UpfMeter m) throws PiCodecException {
        requireIndex(m.type(), m.cellId(), "meter cellId");
        return PiMeterCellConfig.reset(PiMeterCellId.ofIndirect((PiMeterId) piIds(m.type()).get(0), m.cellId()));
    }

    /**
     * The two cells of a UPF counter set to its values (ingress: pre-QoS, egress: post-QoS): what a newly
     * allocated cell is reset with, so that a session never counts what the cell's previous owner did.
     *
     * @param c counter cell index and values
     * @return the ingress and the egress counter cell
     * @throws PiCodecException if the index is beyond the counters
     */
    public List<PiEntity> counterCells(UpfCounter c) throws PiCodecException {
        requireIndex(UpfEntityType.COUNTER, c.cellId(), "counter cellId");
        return List.of(new PiCounterCell(PiCounterCellId.ofIndirect(HUPF_INGRESS_UPF_PRE_QOS_COUNTER, c.cellId()),
                                         c.ingressPkts(), c.ingressBytes()),
                       new PiCounterCell(PiCounterCellId.ofIndirect(HUPF_EGRESS_UPF_POST_QOS_COUNTER, c.cellId()),
                                         c.egressPkts(), c.egressBytes()));
    }

    /**
     * Translates a meter cell read from a device.
     *
     * @param cell meter cell configuration
     * @return meter
     * @throws PiCodecException if the cell is not of a UPF meter or has only one band
     */
    public UpfMeter fromMeterCell(PiMeterCellConfig cell) throws PiCodecException {
        PiMeterId id = cell.cellId().meterId();
        UpfMeter.Type type;
        if (id.equals(HUPF_INGRESS_UPF_SESSION_METER)) {
            type = UpfMeter.Type.SESSION;
        } else if (id.equals(HUPF_INGRESS_UPF_APP_METER)) {
            type = UpfMeter.Type.APPLICATION;
        } else {
            throw new PiCodecException("meter " + id + " is not a UPF meter");
        }
        int index = (int) cell.cellId().index();
        if (cell.meterBands().isEmpty()) {
            return UpfMeter.resetMeter(type, index);
        }
        if (cell.committedBand() == null || cell.peakBand() == null) {
            throw new PiCodecException("meter cell " + cell.cellId() + " lacks a committed or peak band");
        }
        UpfMeter.Builder b = UpfMeter.builder().setCellId(index)
                .setCommittedBand(cell.committedBand().rate(), cell.committedBand().burst())
                .setPeakBand(cell.peakBand().rate(), cell.peakBand().burst());
        if (type == UpfMeter.Type.SESSION) {
            b.setSession();
        } else {
            b.setApplication();
        }
        return build(b::build);
    }

    /**
     * Joins the ingress and egress counter cells of one index.
     *
     * @param ingress {@code pre_qos_counter} cell
     * @param egress  {@code post_qos_counter} cell
     * @return the counter
     * @throws PiCodecException if the cells are not a pair of the UPF counters at one index
     */
    public UpfCounter counter(PiCounterCell ingress, PiCounterCell egress) throws PiCodecException {
        if (!ingress.cellId().counterId().equals(HUPF_INGRESS_UPF_PRE_QOS_COUNTER)
                || !egress.cellId().counterId().equals(HUPF_EGRESS_UPF_POST_QOS_COUNTER)
                || ingress.cellId().index() != egress.cellId().index()) {
            throw new PiCodecException("not a pre/post QoS counter pair of one index: "
                                               + ingress.cellId() + ", " + egress.cellId());
        }
        return build(UpfCounter.builder().withCellId((int) ingress.cellId().index())
                             .setIngress(ingress.data().packets(), ingress.data().bytes())
                             .setEgress(egress.data().packets(), egress.data().bytes())::build);
    }

    // ---- helpers

    private PiExactFieldMatch exact(PiTableId t, org.onosproject.net.pi.model.PiMatchFieldId f, long v)
            throws PiCodecException {
        return new PiExactFieldMatch(f, codec.field(t, f, v));
    }

    private PiLpmFieldMatch lpm(PiTableId t, org.onosproject.net.pi.model.PiMatchFieldId f, Ip4Prefix p)
            throws PiCodecException {
        return new PiLpmFieldMatch(f, codec.field(t, f, p.address().toInt() & 0xFFFFFFFFL), p.prefixLength());
    }

    private static long prefixMask(int length) {
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
    private static Optional<Ip4Prefix> ternaryPrefix(PiTableEntry e, org.onosproject.net.pi.model.PiMatchFieldId f)
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

    private static Optional<Ip4Prefix> lpmPrefix(PiTableEntry e, org.onosproject.net.pi.model.PiMatchFieldId f)
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

    private static PiTableEntry entry(PiTableId t, PiMatchKey key, PiAction action) {
        return PiTableEntry.builder().forTable(t).withMatchKey(key).withAction(action).build();
    }

    private static PiAction action(PiTableEntry e) throws PiCodecException {
        PiTableAction a = e.action();
        if (a == null || a.type() != PiTableAction.Type.ACTION) {
            throw new PiCodecException(e.table() + " entry has no direct action: " + e);
        }
        return (PiAction) a;
    }

    private static PiCodecException unknownAction(PiTableEntry e) {
        return new PiCodecException("table " + e.table() + " entry has an action hupf does not write: "
                                            + e.action());
    }

    private void requireIndex(UpfEntityType type, long index, String what) throws PiCodecException {
        long size = capacity(type);
        if (index >= size) {
            throw new PiCodecException(what + " " + index + " is beyond " + piIds(type).get(0)
                                               + " (size " + size + " in this pipeline)");
        }
    }

    private static void requireZero(long value, String what) throws PiCodecException {
        if (value != 0) {
            throw new PiCodecException(what + " must be 0, is " + value);
        }
    }

    private static void requireNonZero(long value, String why) throws PiCodecException {
        if (value == 0) {
            throw new PiCodecException(why);
        }
    }

    /** Entity builders validate with IllegalArgumentException; a device value they refuse is a decode error. */
    private static <T> T build(java.util.function.Supplier<T> builder) throws PiCodecException {
        try {
            return builder.get();
        } catch (IllegalArgumentException e) {
            throw new PiCodecException("device entry is not a valid entity: " + e.getMessage());
        }
    }
}
