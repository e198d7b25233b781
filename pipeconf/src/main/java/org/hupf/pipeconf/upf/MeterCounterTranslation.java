package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.api.UpfCounter;
import org.hupf.pipeconf.api.UpfEntityType;
import org.hupf.pipeconf.api.UpfMeter;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.runtime.PiCounterCell;
import org.onosproject.net.pi.runtime.PiCounterCellId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiMeterCellId;

import java.util.List;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Translates UPF meters to meter cell configurations and UPF counters to the pre- and post-QoS counter cells,
 * and back.
 */
final class MeterCounterTranslation extends EntityTranslation {

    MeterCounterTranslation(PiCodec codec) {
        super(codec);
    }

    PiMeterCellConfig meterCell(UpfMeter m) throws PiCodecException {
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
    PiMeterCellConfig meterReset(UpfMeter m) throws PiCodecException {
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
    List<PiEntity> counterCells(UpfCounter c) throws PiCodecException {
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
    UpfMeter fromMeterCell(PiMeterCellConfig cell) throws PiCodecException {
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
    UpfCounter counter(PiCounterCell ingress, PiCounterCell egress) throws PiCodecException {
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
}
