package org.hupf.standalone.p4rt;

import com.google.common.collect.Range;
import org.hupf.pipeconf.api.Ip4Bits;
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
import p4.v1.P4RuntimeOuterClass.Update;

import java.util.ArrayList;
import java.util.List;

import static org.hupf.pipeconf.HupfConstants.*;
import static org.hupf.standalone.p4rt.P4InfoDescriptors.require;

/**
 * UPF entities to P4Runtime updates for a write, as bytes ({@link EncodedUpdates}). Written straight from the
 * entity, without the ONOS PI objects of {@link UpfTranslator} + {@link PiEncoder} (the PI path) nor protobuf
 * objects in between: each table, action, field and cell array named by the generated contract constants
 * ({@code HupfConstants}) is resolved once, from the device's P4Info, to a descriptor with its id and width. The
 * bytes are those protobuf serializes for the PI path's updates (UpfEntityEncoderTest proves it), so the
 * translator stays the definition of what an entity becomes.
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
    void encode(UpfEntity entity, boolean delete, EncodedUpdates out) throws UpfProgrammableException {
        encode(entity, delete ? Update.Type.DELETE : Update.Type.INSERT, out);
    }

    /**
     * Appends the updates of an entity to a write, its table entries as {@code tableUpdate} says: INSERT, MODIFY
     * (an entry the device holds, overwritten under its key) or DELETE; its cells are modified unless deleted.
     *
     * @throws UpfProgrammableException if the pipeline cannot hold the entity (out is then unchanged)
     */
    void encode(UpfEntity entity, Update.Type tableUpdate, EncodedUpdates out) throws UpfProgrammableException {
        if (!direct(entity, tableUpdate, out)) {
            for (Update u : viaPi(entity, tableUpdate)) {
                out.add(u);
            }
        }
    }

    List<Update> viaPi(UpfEntity entity, boolean delete) throws UpfProgrammableException {
        return viaPi(entity, delete ? Update.Type.DELETE : Update.Type.INSERT);
    }

    /** The PI path: the translator's PI entities, each encoded by the PiEncoder into a protobuf update. */
    List<Update> viaPi(UpfEntity entity, Update.Type tableUpdate) throws UpfProgrammableException {
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
        return encoded;
    }

    /**
     * The direct path: the bytes of the PI path's updates, in the same order, written field by field.
     *
     * @return false, with out unchanged, if declined
     */
    boolean direct(UpfEntity entity, boolean delete, EncodedUpdates out) {
        return direct(entity, delete ? Update.Type.DELETE : Update.Type.INSERT, out);
    }

    private boolean direct(UpfEntity entity, Update.Type insert, EncodedUpdates out) {
        // Cells always exist on the device: they are modified, never inserted (PiWrites.isModifyOnly).
        Update.Type modify = insert == Update.Type.DELETE ? Update.Type.DELETE : Update.Type.MODIFY;
        long mark = out.mark();
        try {
            switch (entity.type()) {
                case INTERFACE:
                    iface(out, insert, (UpfInterface) entity);
                    return true;
                case SESSION_UPLINK:
                    uplinkSession(out, insert, (UpfSessionUplink) entity);
                    return true;
                case SESSION_DOWNLINK:
                    downlinkSession(out, insert, (UpfSessionDownlink) entity);
                    return true;
                case TERMINATION_UPLINK:
                    uplinkTermination(out, insert, (UpfTerminationUplink) entity);
                    return true;
                case TERMINATION_DOWNLINK:
                    downlinkTermination(out, insert, (UpfTerminationDownlink) entity);
                    return true;
                case TUNNEL_PEER:
                    UpfGtpTunnelPeer p = (UpfGtpTunnelPeer) entity;
                    igTunnelPeer(out, insert, p);
                    egTunnelPeer(out, insert, p);
                    return true;
                case PEER_VXLAN:
                    peerVxlan(out, insert, (UpfPeerVxlan) entity);
                    return true;
                case APPLICATION:
                    application(out, insert, (UpfApplication) entity);
                    return true;
                case SESSION_METER:
                case APPLICATION_METER:
                    meter(out, modify, (UpfMeter) entity);
                    return true;
                case COUNTER:
                    UpfCounter c = (UpfCounter) entity;
                    preQosCounter.counter(out, modify, c.cellId(), c.ingressPkts(), c.ingressBytes());
                    postQosCounter.counter(out, modify, c.cellId(), c.egressPkts(), c.egressBytes());
                    return true;
                default:
                    return false;
            }
        } catch (Declined d) {
            out.reset(mark);
            return false;
        }
    }

    // ---- entities, each as UpfTranslator builds its PI entities (same checks, fields and order)

    private void iface(EncodedUpdates out, Update.Type type, UpfInterface i) throws Declined {
        interfaces.begin(out, type);
        interfaces.exact(out, 0, i.isAccess() ? 1 : 0);
        // P4Runtime: a zero-length LPM is a wildcard and must be omitted.
        if (i.prefix().prefixLength() > 0) {
            interfaces.lpm(out, 1, i.prefix());
        }
        (i.isAccess() ? ifaceAccess : ifaceCore).write(out, i.sliceId());
        out.endUpdate();
    }

    private void uplinkSession(EncodedUpdates out, Update.Type type, UpfSessionUplink s) throws Declined {
        uplinkSessions.begin(out, type);
        uplinkSessions.exact(out, 0, unsigned(s.tunDstAddr()));
        uplinkSessions.exact(out, 1, s.teid());
        if (s.needsDropping()) {
            require(s.sessionMeterIdx() == 0 && s.ueAddress().isEmpty());
            uplinkSessionDrop.write(out);
        } else {
            require(sessionMeter.holds(s.sessionMeterIdx()) && s.ueAddress().isPresent());
            uplinkSession.write(out, unsigned(s.ueAddress().get()), s.sessionMeterIdx());
        }
        out.endUpdate();
    }

    private void downlinkSession(EncodedUpdates out, Update.Type type, UpfSessionDownlink s) throws Declined {
        downlinkSessions.begin(out, type);
        downlinkSessions.exact(out, 0, unsigned(s.ueAddress()));
        if (s.needsDropping()) {
            require(s.sessionMeterIdx() == 0);
            downlinkSessionDrop.write(out);
        } else {
            require(sessionMeter.holds(s.sessionMeterIdx()));
            if (s.needsBuffering()) {
                downlinkSessionBuf.write(out, s.sessionMeterIdx());
            } else {
                downlinkSession.write(out, s.tunPeerId(), s.sessionMeterIdx());
            }
        }
        out.endUpdate();
    }

    private void uplinkTermination(EncodedUpdates out, Update.Type type, UpfTerminationUplink t) throws Declined {
        require(preQosCounter.holds(t.counterId()));
        terminationEntry(out, type, uplinkTerminations, t.ueSessionId(), t.applicationId());
        if (t.needsDropping()) {
            require(t.trafficClass() == 0 && t.appMeterIdx() == 0);
            uplinkTermDrop.write(out, t.counterId());
        } else {
            require(appMeter.holds(t.appMeterIdx()));
            uplinkTermFwd.write(out, t.counterId(), t.trafficClass(), t.appMeterIdx());
        }
        out.endUpdate();
    }

    private void downlinkTermination(EncodedUpdates out, Update.Type type, UpfTerminationDownlink t)
            throws Declined {
        require(preQosCounter.holds(t.counterId()));
        terminationEntry(out, type, downlinkTerminations, t.ueSessionId(), t.applicationId());
        if (t.needsDropping()) {
            require(t.teid() == 0 && t.qfi() == 0 && t.trafficClass() == 0 && t.appMeterIdx() == 0);
            downlinkTermDrop.write(out, t.counterId());
        } else {
            require(appMeter.holds(t.appMeterIdx()));
            downlinkTermFwd.write(out, t.counterId(), t.teid(), t.qfi(), t.trafficClass(), t.appMeterIdx());
        }
        out.endUpdate();
    }

    private static void terminationEntry(EncodedUpdates out, Update.Type type, Table t, Ip4Address ue, int appId)
            throws Declined {
        t.begin(out, type);
        t.exact(out, 0, unsigned(ue));
        t.exact(out, 1, appId);
    }

    private void igTunnelPeer(EncodedUpdates out, Update.Type type, UpfGtpTunnelPeer p) throws Declined {
        igTunnelPeers.begin(out, type);
        igTunnelPeers.exact(out, 0, p.tunPeerId());
        routingDst.write(out, unsigned(p.routingDst()));
        out.endUpdate();
    }

    private void egTunnelPeer(EncodedUpdates out, Update.Type type, UpfGtpTunnelPeer p) throws Declined {
        egTunnelPeers.begin(out, type);
        egTunnelPeers.exact(out, 0, p.tunPeerId());
        tunnelParams.write(out, unsigned(p.src()), unsigned(p.dst()), p.srcPort());
        out.endUpdate();
    }

    private void peerVxlan(EncodedUpdates out, Update.Type type, UpfPeerVxlan v) throws Declined {
        peerVxlan.begin(out, type);
        peerVxlan.exact(out, 0, v.tunPeerId());
        vxlanEncap.write(out, v.vni(), unsigned(v.vtepSrc()), unsigned(v.vtepDst()), v.innerSrcMac().toLong(),
                         v.innerDstMac().toLong());
        out.endUpdate();
    }

    private void application(EncodedUpdates out, Update.Type type, UpfApplication app) throws Declined {
        // P4Runtime priorities are > 0: the entity's 0 is 1.
        require(app.priority() != Integer.MAX_VALUE);
        Table t = applications;
        t.begin(out, type);
        t.exact(out, 0, app.sliceId());
        if (app.ip4Prefix().isPresent()) {
            Ip4Prefix p = app.ip4Prefix().get();
            require(p.prefixLength() > 0);
            if (ternaryAppPrefix) {
                t.ternary(out, 1, unsigned(p.address()), prefixMask(p.prefixLength()));
            } else {
                t.lpm(out, 1, p);
            }
        }
        if (app.l4PortRange().isPresent()) {
            Range<Integer> r = app.l4PortRange().get();
            require(r.lowerEndpoint() != 0 || r.upperEndpoint() != MAX_L4_PORT);
            t.range(out, 2, r.lowerEndpoint(), r.upperEndpoint());
        }
        if (app.ipProto().isPresent()) {
            t.ternary(out, 3, app.ipProto().get(), PROTO_MASK);
        }
        setAppId.write(out, app.appId());
        t.priority(out, app.priority() + 1);
        out.endUpdate();
    }

    private void meter(EncodedUpdates out, Update.Type type, UpfMeter m) throws Declined {
        Cells cells = m.type() == UpfEntityType.SESSION_METER ? sessionMeter : appMeter;
        // No configuration: the cell is reset to "all packets green" (P4Runtime §9.5). Cell 0 is the index of
        // every unmetered session and application (the pipeline's convention): never configured.
        require(m.isReset() || m.cellId() != 0);
        cells.meter(out, type, m.cellId(), !m.isReset(), m.committedRate(), m.committedBurst(), m.peakRate(),
                    m.peakBurst());
    }

    private static long unsigned(Ip4Address a) {
        return Ip4Bits.of(a) & 0xFFFFFFFFL;
    }

    private static long prefixMask(int length) {
        return (0xFFFFFFFFL << (IPV4_BITS - length)) & 0xFFFFFFFFL;
    }
}
