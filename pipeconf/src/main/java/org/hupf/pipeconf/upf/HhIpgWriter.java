package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.TauTable;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.List;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Writes the HK-IPG heavy-hitter detector's configuration: the {@code hh_config} default action and the
 * {@code tau_table} ranges (Eq. 4.9).
 */
final class HhIpgWriter {

    private final DataplaneTables tables;

    HhIpgWriter(DataplaneTables tables) {
        this.tables = tables;
    }

    /**
     * Entries for an HK-IPG configuration: the {@code hh_config} default entry and the tau ranges.
     *
     * @param c parameters
     * @return entries (default entry first)
     * @throws PiCodecException if this pipeline has no HK-IPG or a value does not fit
     */
    List<PiTableEntry> entries(HhConfig c) throws PiCodecException {
        PiCodec codec = tables.codec();
        codec.table(HUPF_INGRESS_HH_HH_CONFIG);
        List<PiTableEntry> out = new ArrayList<>();
        out.add(DataplaneTables.defaultEntry(HUPF_INGRESS_HH_HH_CONFIG, codec.action(
                HUPF_INGRESS_HH_SET_HH_PARAMS, tables.withAlphaShift(
                        HUPF_INGRESS_HH_SET_HH_PARAMS, c.alphaShift(), TAU_TH, c.tauTh(), IPG_INIT, c.ipgTh(),
                        IPG_TH, c.ipgTh(), DECAY_K, c.decayK(), TIMESLOT_US, c.timeslotUs(), KEY_MODE, c.keyMode()))));
        PiTableId t = HUPF_INGRESS_HH_TAU_TABLE;
        for (TauTable.Entry e : c.tauEntries((int) codec.table(t).maxSize())) {
            tables.rangeEntry(t, HDR_IPG_EWMA, e.lo(), e.hi(), codec.action(HUPF_INGRESS_HH_SET_TAU, TAU, e.tau()))
                    .ifPresent(out::add);
        }
        return out;
    }

    /**
     * Configures HK-IPG, replacing the tau table.
     *
     * @param c parameters
     * @throws PiCodecException if this pipeline has no HK-IPG or a value does not fit
     * @throws PiTargetException if the device refuses an entry
     */
    void configure(HhConfig c) throws PiCodecException, PiTargetException {
        tables.replace(List.of(HUPF_INGRESS_HH_TAU_TABLE), entries(c));
    }
}
