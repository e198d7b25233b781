package org.hupf.standalone.p4rt;

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
import org.hupf.pipeconf.upf.PiCodecException;
import org.hupf.pipeconf.upf.PiWrites;
import org.hupf.pipeconf.upf.UpfTranslator;
import org.hupf.standalone.p4rt.P4InfoDescriptors.Act;
import org.hupf.standalone.p4rt.P4InfoDescriptors.Cells;
import org.hupf.standalone.p4rt.P4InfoDescriptors.Declined;
import org.hupf.standalone.p4rt.P4InfoDescriptors.Table;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.behaviour.upf.UpfProgrammableException;
import org.onosproject.net.pi.runtime.PiEntity;
import p4.config.v1.P4InfoOuterClass.MatchField.MatchType;
import p4.v1.P4RuntimeOuterClass.Action;
import p4.v1.P4RuntimeOuterClass.Entity;
import p4.v1.P4RuntimeOuterClass.MeterConfig;
import p4.v1.P4RuntimeOuterClass.MeterEntry;
import p4.v1.P4RuntimeOuterClass.Index;
import p4.v1.P4RuntimeOuterClass.TableAction;
import p4.v1.P4RuntimeOuterClass.TableEntry;
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.List;

import static org.hupf.pipeconf.HupfConstants.*;
import static org.hupf.standalone.p4rt.P4InfoDescriptors.require;

/**
 * UPF entities to P4Runtime updates for a write. Encoded straight from the entity, without the ONOS PI objects
 * of {@link UpfTranslator} + {@link PiEncoder} (the PI path) in between: each table, action, field and cell
 * array is resolved once, from the P4Info, to a descriptor with its id and width. The bytes are those of the PI
 * path (UpfEntityEncoderTest proves it), so the translator stays the definition of what an entity becomes.
 * Whatever the translator refuses, or this P4Info lacks, the direct encoding declines: such an entity takes
 * the PI path, which refuses it with the reason.
 */
public final class UpfEntityEncoder {

    private static final int IPV4_BITS = 32;
    private static final int MAX_L4_PORT = 65535;
    private static final long PROTO_MASK = 0xFF;

    private final UpfTranslator translator;
    private final PiEncoder piEncoder;

    private final Table interfaces;
    private final Act ifaceAccess;
    private final Act ifaceCore;
    private final Table uplinkSessions;
    private final Act uplinkSession;
    private final Act uplinkSessionDrop;
    private final Table downlinkSessions;
    private final Act downlinkSession;
    private final Act downlinkSessionBuf;
    private final Act downlinkSessionDrop;
    private final Table uplinkTerminations;
    private final Act uplinkTermFwd;
    private final Act uplinkTermDrop;
    private final Table downlinkTerminations;
    private final Act downlinkTermFwd;
    private final Act downlinkTermDrop;
    private final Table igTunnelPeers;
    private final Act routingDst;
    private final Table egTunnelPeers;
    private final Act tunnelParams;
    private final Table peerVxlan;
    private final Act vxlanEncap;
    private final Table applications;
    private final Act setAppId;
    /** As the translator decides: TNA has no LPM beside range and ternary matches. */
    private final boolean ternaryAppPrefix;
    private final Cells sessionMeter;
    private final Cells appMeter;
    private final Cells preQosCounter;
    private final Cells postQosCounter;

    /**
     * Resolves the UPF tables, actions, meters and counters of a pipeline.
     *
     * @param translator translator of the device's pipeline (the PI path)
     * @param piEncoder  PI encoder of the same pipeline (the PI path)
     */
    public UpfEntityEncoder(UpfTranslator translator, PiEncoder piEncoder) {
        this.translator = translator;
        this.piEncoder = piEncoder;
        P4InfoDescriptors r = new P4InfoDescriptors(piEncoder.p4info());
        interfaces = r.table(HUPF_INGRESS_UPF_INTERFACES, HDR_GTPU_IS_VALID, HDR_IPV4_DST_ADDR);
        ifaceAccess = r.action(HUPF_INGRESS_UPF_IFACE_ACCESS, SLICE_ID);
        ifaceCore = r.action(HUPF_INGRESS_UPF_IFACE_CORE, SLICE_ID);
        uplinkSessions = r.table(HUPF_INGRESS_UPF_UPLINK_SESSIONS, HDR_TUNNEL_IPV4_DST, HDR_TEID);
        uplinkSession = r.action(HUPF_INGRESS_UPF_SET_UPLINK_SESSION, UE_ADDR, SESSION_METER_IDX);
        uplinkSessionDrop = r.action(HUPF_INGRESS_UPF_SET_UPLINK_SESSION_DROP);
        downlinkSessions = r.table(HUPF_INGRESS_UPF_DOWNLINK_SESSIONS, HDR_UE_ADDR);
        downlinkSession = r.action(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION, TUN_PEER_ID, SESSION_METER_IDX);
        downlinkSessionBuf = r.action(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_BUF, SESSION_METER_IDX);
        downlinkSessionDrop = r.action(HUPF_INGRESS_UPF_SET_DOWNLINK_SESSION_DROP);
        uplinkTerminations = r.table(HUPF_INGRESS_UPF_UPLINK_TERMINATIONS, HDR_UE_SESSION_ID, HDR_APP_ID);
        uplinkTermFwd = r.action(HUPF_INGRESS_UPF_UPLINK_TERM_FWD, CTR_IDX, TC, APP_METER_IDX);
        uplinkTermDrop = r.action(HUPF_INGRESS_UPF_UPLINK_TERM_DROP, CTR_IDX);
        downlinkTerminations = r.table(HUPF_INGRESS_UPF_DOWNLINK_TERMINATIONS, HDR_UE_SESSION_ID, HDR_APP_ID);
        downlinkTermFwd = r.action(HUPF_INGRESS_UPF_DOWNLINK_TERM_FWD, CTR_IDX, TEID, QFI, TC, APP_METER_IDX);
        downlinkTermDrop = r.action(HUPF_INGRESS_UPF_DOWNLINK_TERM_DROP, CTR_IDX);
        igTunnelPeers = r.table(HUPF_INGRESS_UPF_IG_TUNNEL_PEERS, HDR_TUN_PEER_ID);
        routingDst = r.action(HUPF_INGRESS_UPF_SET_ROUTING_IPV4_DST, TUN_DST_ADDR);
        egTunnelPeers = r.table(HUPF_EGRESS_UPF_EG_TUNNEL_PEERS, HDR_TUN_PEER_ID);
        tunnelParams = r.action(HUPF_EGRESS_UPF_LOAD_TUNNEL_PARAMS, TUNNEL_SRC_ADDR, TUNNEL_DST_ADDR,
                                TUNNEL_SRC_PORT);
        peerVxlan = r.table(HUPF_EGRESS_TENANT_PEER_VXLAN, HDR_TUN_PEER_ID);
        vxlanEncap = r.action(HUPF_EGRESS_TENANT_VXLAN_ENCAP, VNI, VTEP_SRC_ADDR, VTEP_DST_ADDR, INNER_SRC_MAC,
                              INNER_DST_MAC);
        applications = r.table(HUPF_INGRESS_UPF_APPLICATIONS, HDR_SLICE_ID, HDR_APP_IPV4_ADDR, HDR_APP_L4_PORT,
                               HDR_APP_IP_PROTO);
        setAppId = r.action(HUPF_INGRESS_UPF_SET_APP_ID, APP_ID);
        ternaryAppPrefix = r.matchType(HUPF_INGRESS_UPF_APPLICATIONS, HDR_APP_IPV4_ADDR) == MatchType.TERNARY;
        sessionMeter = r.cells(HUPF_INGRESS_UPF_SESSION_METER.id(), translator, UpfEntityType.SESSION_METER);
        appMeter = r.cells(HUPF_INGRESS_UPF_APP_METER.id(), translator, UpfEntityType.APPLICATION_METER);
        preQosCounter = r.cells(HUPF_INGRESS_UPF_PRE_QOS_COUNTER.id(), translator, UpfEntityType.COUNTER);
        postQosCounter = r.cells(HUPF_EGRESS_UPF_POST_QOS_COUNTER.id(), translator, UpfEntityType.COUNTER);
    }

    /**
     * Appends the updates of an entity to a write: INSERTs of its table entries (two for a tunnel peer),
     * MODIFYs of its meter or counter cells (two for a counter), or DELETEs of either.
     *
     * @param entity entity to write
     * @param delete whether to delete it rather than install it
     * @param out    updates of the write
     * @throws UpfProgrammableException if the pipeline cannot hold the entity (out is then unchanged)
     */
    public void encode(UpfEntity entity, boolean delete, List<Update> out) throws UpfProgrammableException {
        encode(entity, delete ? Update.Type.DELETE : Update.Type.INSERT, out);
    }

    /**
     * Appends the updates of an entity to a write, its table entries as {@code tableUpdate} says: INSERT, MODIFY
     * (an entry the device holds, overwritten under its key) or DELETE; its cells are modified unless deleted.
     *
     * @throws UpfProgrammableException if the pipeline cannot hold the entity (out is then unchanged)
     */
    public void encode(UpfEntity entity, Update.Type tableUpdate, List<Update> out) throws UpfProgrammableException {
        if (!direct(entity, tableUpdate, out)) {
            viaPi(entity, tableUpdate, out);
        }
    }

    void viaPi(UpfEntity entity, boolean delete, List<Update> out) throws UpfProgrammableException {
        viaPi(entity, delete ? Update.Type.DELETE : Update.Type.INSERT, out);
    }

    /** The PI path: the translator's PI entities, each encoded by the PiEncoder. */
    void viaPi(UpfEntity entity, Update.Type tableUpdate, List<Update> out) throws UpfProgrammableException {
        List<PiEntity> pi;
        try {
            pi = translator.toPi(entity);
        } catch (PiCodecException e) {
            throw new UpfProgrammableException("cannot express " + entity + ": " + e.getMessage(),
                                               UpfProgrammableException.Type.UNSUPPORTED_OPERATION);
        }
        List<Update> encoded = new ArrayList<>(pi.size());
        for (PiEntity e : pi) {
            Update.Type type = tableUpdate != Update.Type.DELETE && PiWrites.isModifyOnly(e) ? Update.Type.MODIFY
                    : tableUpdate;
            try {
                encoded.add(Update.newBuilder().setType(type).setEntity(piEncoder.encode(e)).build());
            } catch (P4RuntimeException ex) {
                throw new UpfProgrammableException("cannot encode " + entity + ": " + ex.getMessage(),
                                                   UpfProgrammableException.Type.UNSUPPORTED_OPERATION);
            }
        }
        out.addAll(encoded);
    }

    /**
     * The direct path: the same updates as the PI path, in the same order.
     *
     * @return false, with out unchanged, if declined
     */
    boolean direct(UpfEntity entity, boolean delete, List<Update> out) {
        return direct(entity, delete ? Update.Type.DELETE : Update.Type.INSERT, out);
    }

    private boolean direct(UpfEntity entity, Update.Type insert, List<Update> out) {
        // Cells always exist on the device: they are modified, never inserted (PiWrites.isModifyOnly).
        Update.Type modify = insert == Update.Type.DELETE ? Update.Type.DELETE : Update.Type.MODIFY;
        try {
            switch (entity.type()) {
                case INTERFACE:
                    return add(out, insert, iface((UpfInterface) entity));
                case SESSION_UPLINK:
                    return add(out, insert, uplinkSession((UpfSessionUplink) entity));
                case SESSION_DOWNLINK:
                    return add(out, insert, downlinkSession((UpfSessionDownlink) entity));
                case TERMINATION_UPLINK:
                    return add(out, insert, uplinkTermination((UpfTerminationUplink) entity));
                case TERMINATION_DOWNLINK:
                    return add(out, insert, downlinkTermination((UpfTerminationDownlink) entity));
                case TUNNEL_PEER:
                    UpfGtpTunnelPeer p = (UpfGtpTunnelPeer) entity;
                    return add(out, insert, igTunnelPeer(p), egTunnelPeer(p));
                case PEER_VXLAN:
                    return add(out, insert, peerVxlan((UpfPeerVxlan) entity));
                case APPLICATION:
                    return add(out, insert, application((UpfApplication) entity));
                case SESSION_METER:
                case APPLICATION_METER:
                    return add(out, modify, meter((UpfMeter) entity));
                case COUNTER:
                    UpfCounter c = (UpfCounter) entity;
                    return add(out, modify, preQosCounter.counter(c.cellId(), c.ingressPkts(), c.ingressBytes()),
                               postQosCounter.counter(c.cellId(), c.egressPkts(), c.egressBytes()));
                default:
                    return false;
            }
        } catch (Declined d) {
            return false;
        }
    }

    private static boolean add(List<Update> out, Update.Type type, Entity... entities) {
        for (Entity e : entities) {
            out.add(Update.newBuilder().setType(type).setEntity(e).build());
        }
        return true;
    }

    // ---- entities, each as UpfTranslator builds its PI entities (same checks, fields and order)

    private Entity iface(UpfInterface i) throws Declined {
        TableEntry.Builder b = interfaces.entry().addMatch(interfaces.exact(0, i.isAccess() ? 1 : 0));
        // P4Runtime: a zero-length LPM is a wildcard and must be omitted.
        if (i.prefix().prefixLength() > 0) {
            b.addMatch(interfaces.lpm(1, i.prefix()));
        }
        return entity(b, (i.isAccess() ? ifaceAccess : ifaceCore).encode(i.sliceId()));
    }

    private Entity uplinkSession(UpfSessionUplink s) throws Declined {
        TableEntry.Builder b = uplinkSessions.entry().addMatch(uplinkSessions.exact(0, unsigned(s.tunDstAddr())))
                .addMatch(uplinkSessions.exact(1, s.teid()));
        if (s.needsDropping()) {
            require(s.sessionMeterIdx() == 0 && s.ueAddress().isEmpty());
            return entity(b, uplinkSessionDrop.encode());
        }
        require(sessionMeter.holds(s.sessionMeterIdx()) && s.ueAddress().isPresent());
        return entity(b, uplinkSession.encode(unsigned(s.ueAddress().get()), s.sessionMeterIdx()));
    }

    private Entity downlinkSession(UpfSessionDownlink s) throws Declined {
        TableEntry.Builder b = downlinkSessions.entry().addMatch(downlinkSessions.exact(0, unsigned(s.ueAddress())));
        if (s.needsDropping()) {
            require(s.sessionMeterIdx() == 0);
            return entity(b, downlinkSessionDrop.encode());
        }
        require(sessionMeter.holds(s.sessionMeterIdx()));
        return entity(b, s.needsBuffering() ? downlinkSessionBuf.encode(s.sessionMeterIdx())
                : downlinkSession.encode(s.tunPeerId(), s.sessionMeterIdx()));
    }

    private Entity uplinkTermination(UpfTerminationUplink t) throws Declined {
        require(preQosCounter.holds(t.counterId()));
        TableEntry.Builder b = terminationEntry(uplinkTerminations, t.ueSessionId(), t.applicationId());
        if (t.needsDropping()) {
            require(t.trafficClass() == 0 && t.appMeterIdx() == 0);
            return entity(b, uplinkTermDrop.encode(t.counterId()));
        }
        require(appMeter.holds(t.appMeterIdx()));
        return entity(b, uplinkTermFwd.encode(t.counterId(), t.trafficClass(), t.appMeterIdx()));
    }

    private Entity downlinkTermination(UpfTerminationDownlink t) throws Declined {
        require(preQosCounter.holds(t.counterId()));
        TableEntry.Builder b = terminationEntry(downlinkTerminations, t.ueSessionId(), t.applicationId());
        if (t.needsDropping()) {
            require(t.teid() == 0 && t.qfi() == 0 && t.trafficClass() == 0 && t.appMeterIdx() == 0);
            return entity(b, downlinkTermDrop.encode(t.counterId()));
        }
        require(appMeter.holds(t.appMeterIdx()));
        return entity(b, downlinkTermFwd.encode(t.counterId(), t.teid(), t.qfi(), t.trafficClass(),
                                                t.appMeterIdx()));
    }

    private static TableEntry.Builder terminationEntry(Table t, Ip4Address ue, int appId) throws Declined {
        return t.entry().addMatch(t.exact(0, unsigned(ue))).addMatch(t.exact(1, appId));
    }

    private Entity igTunnelPeer(UpfGtpTunnelPeer p) throws Declined {
        return entity(igTunnelPeers.entry().addMatch(igTunnelPeers.exact(0, p.tunPeerId())),
                      routingDst.encode(unsigned(p.routingDst())));
    }

    private Entity egTunnelPeer(UpfGtpTunnelPeer p) throws Declined {
        return entity(egTunnelPeers.entry().addMatch(egTunnelPeers.exact(0, p.tunPeerId())),
                      tunnelParams.encode(unsigned(p.src()), unsigned(p.dst()), p.srcPort()));
    }

    private Entity peerVxlan(UpfPeerVxlan v) throws Declined {
        return entity(peerVxlan.entry().addMatch(peerVxlan.exact(0, v.tunPeerId())),
                      vxlanEncap.encode(v.vni(), unsigned(v.vtepSrc()), unsigned(v.vtepDst()),
                                        v.innerSrcMac().toLong(), v.innerDstMac().toLong()));
    }

    private Entity application(UpfApplication app) throws Declined {
        // P4Runtime priorities are > 0: the entity's 0 is 1.
        require(app.priority() != Integer.MAX_VALUE);
        Table t = applications;
        TableEntry.Builder b = t.entry().addMatch(t.exact(0, app.sliceId())).setPriority(app.priority() + 1);
        if (app.ip4Prefix().isPresent()) {
            Ip4Prefix p = app.ip4Prefix().get();
            require(p.prefixLength() > 0);
            b.addMatch(ternaryAppPrefix ? t.ternary(1, unsigned(p.address()), prefixMask(p.prefixLength()))
                               : t.lpm(1, p));
        }
        if (app.l4PortRange().isPresent()) {
            Range<Integer> r = app.l4PortRange().get();
            require(r.lowerEndpoint() != 0 || r.upperEndpoint() != MAX_L4_PORT);
            b.addMatch(t.range(2, r.lowerEndpoint(), r.upperEndpoint()));
        }
        if (app.ipProto().isPresent()) {
            b.addMatch(t.ternary(3, app.ipProto().get(), PROTO_MASK));
        }
        return entity(b, setAppId.encode(app.appId()));
    }

    private Entity meter(UpfMeter m) throws Declined {
        Cells cells = m.type() == UpfEntityType.SESSION_METER ? sessionMeter : appMeter;
        require(cells.holds(m.cellId()));
        MeterEntry.Builder b = MeterEntry.newBuilder().setMeterId(cells.id)
                .setIndex(Index.newBuilder().setIndex(m.cellId()));
        // No configuration: the cell is reset to "all packets green" (P4Runtime §9.5).
        if (!m.isReset()) {
            // Cell 0 is the index of every unmetered session and application (the pipeline's convention).
            require(m.cellId() != 0);
            b.setConfig(MeterConfig.newBuilder().setCir(m.committedRate()).setCburst(m.committedBurst())
                                .setPir(m.peakRate()).setPburst(m.peakBurst()));
        }
        return Entity.newBuilder().setMeterEntry(b).build();
    }

    private static Entity entity(TableEntry.Builder entry, Action action) {
        return Entity.newBuilder().setTableEntry(entry.setAction(TableAction.newBuilder().setAction(action))).build();
    }

    private static long unsigned(Ip4Address a) {
        return a.toInt() & 0xFFFFFFFFL;
    }

    private static long prefixMask(int length) {
        return (0xFFFFFFFFL << (IPV4_BITS - length)) & 0xFFFFFFFFL;
    }
}
