package org.hupf.pipeconf.upf;

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
import org.onosproject.net.pi.model.PiPipelineModel;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.List;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Translates hupf UPF entities to PI entities of the pipeline contract and back, for either profile.
 * Widths and capacities come from the pipeline model (the committed P4Info), never from constants here.
 * Anything the pipeline cannot hold exactly, so that reading it back would give a different entity,
 * is refused with a {@link PiCodecException} that says why. One translation per kind of entity, as the pipeline's
 * UPF control has one table per kind: {@link InterfaceTranslation}, {@link SessionTranslation},
 * {@link TerminationTranslation}, {@link TunnelPeerTranslation} (with the VXLAN overlays),
 * {@link ApplicationTranslation}, {@link MeterCounterTranslation}.
 */
public final class UpfTranslator {

    private final PiCodec codec;
    private final InterfaceTranslation interfaces;
    private final SessionTranslation sessions;
    private final TerminationTranslation terminations;
    private final TunnelPeerTranslation tunnelPeers;
    private final ApplicationTranslation applications;
    private final MeterCounterTranslation metersAndCounters;

    public UpfTranslator(PiPipelineModel model) {
        this.codec = new PiCodec(model);
        this.interfaces = new InterfaceTranslation(codec);
        this.sessions = new SessionTranslation(codec);
        this.terminations = new TerminationTranslation(codec);
        this.tunnelPeers = new TunnelPeerTranslation(codec);
        this.applications = new ApplicationTranslation(codec);
        this.metersAndCounters = new MeterCounterTranslation(codec);
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
        return EntityTranslation.piIds(type);
    }

    /**
     * Returns the capacity behind a type from the pipeline model.
     *
     * @param type entity type
     * @return table size, meter or counter size
     * @throws PiCodecException if the pipeline lacks the object
     */
    public long capacity(UpfEntityType type) throws PiCodecException {
        return EntityTranslation.capacity(codec, type);
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
                return List.of(interfaces.interfaceEntry((UpfInterface) entity));
            case SESSION_UPLINK:
                return List.of(sessions.uplinkSessionEntry((UpfSessionUplink) entity));
            case SESSION_DOWNLINK:
                return List.of(sessions.downlinkSessionEntry((UpfSessionDownlink) entity));
            case TERMINATION_UPLINK:
                return List.of(terminations.uplinkTerminationEntry((UpfTerminationUplink) entity));
            case TERMINATION_DOWNLINK:
                return List.of(terminations.downlinkTerminationEntry((UpfTerminationDownlink) entity));
            case TUNNEL_PEER:
                return tunnelPeers.tunnelPeerEntries((UpfGtpTunnelPeer) entity);
            case PEER_VXLAN:
                return List.of(tunnelPeers.peerVxlanEntry((UpfPeerVxlan) entity));
            case APPLICATION:
                return List.of(applications.applicationEntry((UpfApplication) entity));
            case SESSION_METER:
            case APPLICATION_METER:
                return List.of(metersAndCounters.meterCell((UpfMeter) entity));
            case COUNTER:
                return metersAndCounters.counterCells((UpfCounter) entity);
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
            return interfaces.toInterface(entry);
        } else if (t.equals(HUPF_INGRESS_UPF_UPLINK_SESSIONS)) {
            return sessions.toUplinkSession(entry);
        } else if (t.equals(HUPF_INGRESS_UPF_DOWNLINK_SESSIONS)) {
            return sessions.toDownlinkSession(entry);
        } else if (t.equals(HUPF_INGRESS_UPF_UPLINK_TERMINATIONS)) {
            return terminations.toUplinkTermination(entry);
        } else if (t.equals(HUPF_INGRESS_UPF_DOWNLINK_TERMINATIONS)) {
            return terminations.toDownlinkTermination(entry);
        } else if (t.equals(HUPF_EGRESS_TENANT_PEER_VXLAN)) {
            return tunnelPeers.toPeerVxlan(entry);
        } else if (t.equals(HUPF_INGRESS_UPF_APPLICATIONS)) {
            return applications.toApplication(entry);
        }
        throw new PiCodecException("table " + t + " holds no UPF entity of its own");
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
        return tunnelPeers.tunnelPeer(egress, ingress);
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

    /**
     * Returns the reset configuration of a meter's cell: deleting a meter resets it.
     *
     * @param m meter
     * @return reset cell configuration
     * @throws PiCodecException if the cell index is out of range
     */
    public PiMeterCellConfig meterReset(UpfMeter m) throws PiCodecException {
        return metersAndCounters.meterReset(m);
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
        return metersAndCounters.counterCells(c);
    }

    /**
     * Translates a meter cell read from a device.
     *
     * @param cell meter cell configuration
     * @return meter
     * @throws PiCodecException if the cell is not of a UPF meter or has only one band
     */
    public UpfMeter fromMeterCell(PiMeterCellConfig cell) throws PiCodecException {
        return metersAndCounters.fromMeterCell(cell);
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
        return metersAndCounters.counter(ingress, egress);
    }
}
