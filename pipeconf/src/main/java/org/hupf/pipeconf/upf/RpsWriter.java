package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.dataplane.RpsConfig;
import org.hupf.pipeconf.dataplane.RpsState;
import org.onlab.packet.Ip4Prefix;
import org.onosproject.net.pi.model.PiCounterId;
import org.onosproject.net.pi.model.PiRegisterId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiAction;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiFieldMatch;
import org.onosproject.net.pi.runtime.PiLpmFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Writes Retroactive Packet Sampling's configuration ({@code rps.config}, {@code rps.flows}) and reads its
 * sizes and event counters.
 */
final class RpsWriter {

    private final DataplaneTables tables;
    private final PiCodec codec;
    private final PiTarget target;

    RpsWriter(DataplaneTables tables) {
        this.tables = tables;
        this.codec = tables.codec();
        this.target = tables.target();
    }

    /**
     * The entries of an RPS configuration: the {@code rps.config} default entry ({@code set_config}), then one
     * {@code rps.flows} entry per flow (UE prefix, direction → {@code set_flow}).
     *
     * @param c configuration
     * @return entries, the default entry first
     * @throws PiCodecException if this pipeline has no RPS, a flow id is beyond its flows, the buffer length beyond
     *                          its buffer, a (prefix, direction) repeats or the flows exceed the table
     */
    List<PiTableEntry> rpsEntries(RpsConfig c) throws PiCodecException {
        codec.table(HUPF_INGRESS_RPS_CONFIG);
        long slots = perPoint(RPS_BUF_FLOW);
        long bufferLen = c.bufferLen() == RpsConfig.WHOLE_BUFFER ? slots : c.bufferLen();
        if (bufferLen > slots) {
            throw new PiCodecException("RPS buffer length " + bufferLen + " exceeds the " + slots
                                               + " receipts per point the pipeline has");
        }
        List<Object> params = new ArrayList<>(List.of(MODE, c.mode().code(), QUIET_US, c.quietUs(),
                                                      SELECT_THRESHOLD, c.selectThreshold()));
        if (codec.hasParam(HUPF_INGRESS_RPS_SET_CONFIG, BUFFER_LEN)) {
            params.addAll(List.of(BUFFER_LEN, bufferLen));
        }
        List<PiTableEntry> out = new ArrayList<>();
        out.add(DataplaneTables.defaultEntry(HUPF_INGRESS_RPS_CONFIG, codec.action(HUPF_INGRESS_RPS_SET_CONFIG, params.toArray())));
        PiTableId t = HUPF_INGRESS_RPS_FLOWS;
        tables.requireFits(t, c.flows().size());
        long flowIds = perPoint(RPS_NEXT_DNUM);
        Set<String> keys = new HashSet<>();
        for (RpsConfig.Flow f : c.flows()) {
            if (f.flowId() >= flowIds) {
                throw new PiCodecException("RPS flow id " + f.flowId() + " is beyond the pipeline's " + flowIds
                                                   + " flows");
            }
            if (!keys.add(f.uePrefix() + "/" + f.direction())) {
                throw new PiCodecException("two RPS flows for " + f.uePrefix() + " direction " + f.direction());
            }
            out.add(PiTableEntry.builder().forTable(t)
                            .withMatchKey(PiMatchKey.builder()
                                                  .addFieldMatch(new PiLpmFieldMatch(HDR_UE_ADDR, codec.field(
                                                          t, HDR_UE_ADDR, f.uePrefix().address().toInt() & DataplaneTables.MAX_U32),
                                                                                     f.uePrefix().prefixLength()))
                                                  .addFieldMatch(new PiExactFieldMatch(
                                                          HDR_DIRECTION, codec.field(t, HDR_DIRECTION, f.direction())))
                                                  .build())
                            .withAction(codec.action(HUPF_INGRESS_RPS_SET_FLOW, FLOW_ID, f.flowId(),
                                                     DISC_THRESHOLD, f.discThreshold()))
                            .build());
        }
        return out;
    }

    /**
     * Reads an {@code rps.flows} entry back as a flow (values compared as numbers, as a device may answer with
     * canonical byte strings).
     *
     * @param e table entry
     * @return the flow, empty if the entry is not one this class writes
     */
    static Optional<RpsConfig.Flow> rpsFlow(PiTableEntry e) {
        try {
            PiFieldMatch ue = PiCodec.match(e, HDR_UE_ADDR).orElse(null);
            PiFieldMatch dir = PiCodec.match(e, HDR_DIRECTION).orElse(null);
            if (!(ue instanceof PiLpmFieldMatch) || !(dir instanceof PiExactFieldMatch)
                    || !(e.action() instanceof PiAction)
                    || !((PiAction) e.action()).id().equals(HUPF_INGRESS_RPS_SET_FLOW)) {
                return Optional.empty();
            }
            PiLpmFieldMatch lpm = (PiLpmFieldMatch) ue;
            PiAction a = (PiAction) e.action();
            return Optional.of(new RpsConfig.Flow(
                    Ip4Prefix.valueOf((int) PiCodec.toLong(lpm.value(), "ue_addr"), lpm.prefixLength()),
                    (int) PiCodec.toLong(((PiExactFieldMatch) dir).value(), "direction"),
                    (int) PiCodec.param(a, FLOW_ID), PiCodec.param(a, DISC_THRESHOLD)));
        } catch (PiCodecException | IllegalArgumentException ex) {
            return Optional.empty();
        }
    }

    /**
     * Makes the device's RPS configuration this one: the {@code rps.config} default entry and the {@code rps.flows}
     * entries, make before break (an entry already right is left alone). A pipeline without RPS (the sw profile,
     * the TNA program) is left alone.
     *
     * @param c configuration
     * @return entries written or removed (0 for a pipeline without RPS)
     * @throws PiCodecException if a value does not fit the pipeline
     * @throws PiTargetException if the device refuses an entry
     */
    int setRps(RpsConfig c) throws PiCodecException, PiTargetException {
        if (!codec.hasTable(HUPF_INGRESS_RPS_FLOWS)) {
            return 0;
        }
        return tables.replace(List.of(HUPF_INGRESS_RPS_FLOWS), rpsEntries(c));
    }

    /**
     * Reads the device's RPS: the pipeline's sizes (receipts and flow ids per point, the tracker's depth: its cells
     * over the flows') and both points' {@code rps.events} cells ({@code HupfIngress.rps.events} counts IN's,
     * {@code HupfEgress.rps.events} OUT's, each at index point * {@code RPS_EVENTS} + event), two reads.
     *
     * @return the state, empty for a pipeline without RPS (the sw profile, the TNA program)
     * @throws PiCodecException if the pipeline has RPS's tables without its registers
     * @throws PiTargetException if a read fails
     */
    Optional<RpsState> readRps() throws PiCodecException, PiTargetException {
        if (!codec.hasTable(HUPF_INGRESS_RPS_FLOWS)) {
            return Optional.empty();
        }
        long[][] events = new long[RPS_POINTS][RPS_EVENTS];
        Map<Integer, PiCounterId> counters = Map.of(RPS_POINT_IN, HUPF_INGRESS_RPS_EVENTS,
                                                    RPS_POINT_OUT, HUPF_EGRESS_RPS_EVENTS);
        for (Map.Entry<Integer, PiCounterId> c : counters.entrySet()) {
            long first = (long) c.getKey() * RPS_EVENTS;
            for (PiCounterCell cell : target.readCounter(c.getValue(), -1)) {
                long i = cell.cellId().index() - first;
                if (i >= 0 && i < RPS_EVENTS) {
                    events[c.getKey()][(int) i] = cell.data().packets();
                }
            }
        }
        long flows = perPoint(RPS_NEXT_DNUM);
        return Optional.of(new RpsState(perPoint(RPS_BUF_FLOW), flows, perPoint(RPS_TRACK_DNUM) / flows, events));
    }

    /** Cells of a per-point register, per point (its P4Info size over the two points). */
    private long perPoint(PiRegisterId r) throws PiCodecException {
        return codec.model().register(r)
                .orElseThrow(() -> new PiCodecException("pipeline has no register " + r)).size() / RPS_POINTS;
    }
}
