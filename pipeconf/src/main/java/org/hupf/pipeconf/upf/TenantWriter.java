package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.onosproject.net.pi.model.PiMeterId;
import org.onosproject.net.pi.model.PiTableId;
import org.onosproject.net.pi.runtime.PiEntity;
import org.onosproject.net.pi.runtime.PiExactFieldMatch;
import org.onosproject.net.pi.runtime.PiMatchKey;
import org.onosproject.net.pi.runtime.PiMeterBand;
import org.onosproject.net.pi.runtime.PiMeterCellConfig;
import org.onosproject.net.pi.runtime.PiMeterCellId;
import org.onosproject.net.pi.runtime.PiTableEntry;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Writes the VXLAN tenants: the {@code tenants} and {@code slices} entries, on hw the {@code backend_classes}
 * their DSCPs stand for, and the tenant and slice meters' cells.
 */
final class TenantWriter {

    private final DataplaneTables tables;
    private final PiCodec codec;
    private final PiTarget target;

    TenantWriter(DataplaneTables tables) {
        this.tables = tables;
        this.codec = tables.codec();
        this.target = tables.target();
    }

    /**
     * The {@code tenants} entries of these tenants: key (VNI, local VTEP), action {@code set_tenant}.
     *
     * @param tenants tenants (one per VNI and VTEP)
     * @return table entries, in the order given
     * @throws PiCodecException if this pipeline has no tenants, a value does not fit, a (VNI, VTEP) repeats or
     *                          the table is too small
     */
    List<PiTableEntry> tenantEntries(Collection<Tenant> tenants) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_TENANT_TENANTS;
        tables.requireFits(t, tenants.size());
        Set<String> keys = new HashSet<>();
        List<PiTableEntry> out = new ArrayList<>();
        for (Tenant x : tenants) {
            if (!keys.add(x.vni() + "@" + x.vtep())) {
                throw new PiCodecException("two tenants for VNI " + x.vni() + " at VTEP " + x.vtep());
            }
            out.add(PiTableEntry.builder().forTable(t)
                            .withMatchKey(PiMatchKey.builder()
                                                  .addFieldMatch(new PiExactFieldMatch(
                                                          HDR_VNI, codec.field(t, HDR_VNI, x.vni())))
                                                  .addFieldMatch(new PiExactFieldMatch(
                                                          HDR_VTEP_IPV4_DST, codec.field(
                                                                  t, HDR_VTEP_IPV4_DST, x.vtep().toInt() & DataplaneTables.MAX_U32)))
                                                  .build())
                            .withAction(codec.action(HUPF_INGRESS_TENANT_SET_TENANT, TENANT_ID, x.tenantId(),
                                                     TC, x.tc(), DSCP, x.dscp()))
                            .build());
        }
        return out;
    }

    /**
     * The tenant meter's cells these tenants want, by cell (the tenant id): a metered tenant's cell with its
     * rate as both bands (the meter counts bytes: bytes per second, burst in bytes; trTCM, so that what exceeds
     * the rate is red and dropped). Unmetered tenants have no cell here: theirs stays, or is reset to, green.
     *
     * @param tenants tenants (several entries of one tenant id must agree on its meter)
     * @return cell configurations by tenant id
     * @throws PiCodecException if this pipeline has no tenant meter, a tenant id is beyond its cells or two
     *                          entries give one tenant id different meters
     */
    Map<Long, PiMeterCellConfig> tenantMeterCells(Collection<Tenant> tenants) throws PiCodecException {
        long cells = codec.model().meter(HUPF_INGRESS_TENANT_TENANT_METER)
                .orElseThrow(() -> new PiCodecException("pipeline has no tenant meter")).size();
        Map<Long, Tenant> byId = new HashMap<>();
        Map<Long, PiMeterCellConfig> out = new LinkedHashMap<>();
        for (Tenant x : tenants) {
            long id = x.tenantId();
            if (id >= cells) {
                throw new PiCodecException("tenant id " + id + " is beyond the tenant meter's " + cells + " cells");
            }
            Tenant other = byId.putIfAbsent(id, x);
            if (other != null && (other.rateBps() != x.rateBps() || other.burstBytes() != x.burstBytes())) {
                throw new PiCodecException("tenant id " + id + " has two meters (VNI " + other.vni() + " and "
                                                   + x.vni() + ")");
            }
            if (x.metered()) {
                out.put(id, bytesMeter(HUPF_INGRESS_TENANT_TENANT_METER, id, x.rateBps(), x.burstBytes()));
            }
        }
        return out;
    }

    /**
     * The tenants' slices by tenant id (every entry of a tenant id must give the same slices).
     *
     * @param tenants tenants
     * @return each tenant id's slices, in the order of the tenants
     * @throws PiCodecException if two entries of one tenant id give different slices
     */
    private static Map<Integer, List<TenantSlice>> slicesById(Collection<Tenant> tenants) throws PiCodecException {
        Map<Integer, Tenant> byId = new LinkedHashMap<>();
        for (Tenant x : tenants) {
            Tenant other = byId.putIfAbsent(x.tenantId(), x);
            if (other != null && !other.slices().equals(x.slices())) {
                throw new PiCodecException("tenant id " + x.tenantId() + " has two sets of slices (VNI " + other.vni()
                                                   + " and " + x.vni() + ")");
            }
        }
        Map<Integer, List<TenantSlice>> out = new LinkedHashMap<>();
        byId.forEach((id, x) -> out.put(id, x.slices()));
        return out;
    }

    /**
     * The {@code slices} entries of these tenants' slices: key (tenant id, QFI), action {@code set_slice}.
     *
     * @param tenants tenants (several entries of one tenant id must agree on its slices)
     * @return table entries, by tenant id in the order given, then by slice
     * @throws PiCodecException if this pipeline has no slices, a value does not fit, two entries of one tenant id
     *                          give different slices or the table is too small
     */
    List<PiTableEntry> sliceEntries(Collection<Tenant> tenants) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_TENANT_SLICES;
        List<PiTableEntry> out = new ArrayList<>();
        for (Map.Entry<Integer, List<TenantSlice>> e : slicesById(tenants).entrySet()) {
            for (TenantSlice x : e.getValue()) {
                out.add(PiTableEntry.builder().forTable(t)
                                .withMatchKey(PiMatchKey.builder()
                                                      .addFieldMatch(new PiExactFieldMatch(
                                                              HDR_TENANT_ID, codec.field(t, HDR_TENANT_ID, e.getKey())))
                                                      .addFieldMatch(new PiExactFieldMatch(
                                                              HDR_QFI, codec.field(t, HDR_QFI, x.qfi())))
                                                      .build())
                                .withAction(codec.action(HUPF_INGRESS_TENANT_SET_SLICE, TC, x.tc(), DSCP, x.dscp()))
                                .build());
            }
        }
        tables.requireFits(t, out.size());
        return out;
    }

    /**
     * The slice meter's cells these tenants' slices want, by cell ({@link TenantSlice#cell}), as
     * {@link #tenantMeterCells} for the tenants.
     *
     * @param tenants tenants (several entries of one tenant id must agree on its slices)
     * @return cell configurations by cell
     * @throws PiCodecException if this pipeline has no slice meter, a cell is beyond it or two entries of one
     *                          tenant id give different slices
     */
    Map<Long, PiMeterCellConfig> sliceMeterCells(Collection<Tenant> tenants) throws PiCodecException {
        long cells = codec.model().meter(HUPF_INGRESS_TENANT_SLICE_METER)
                .orElseThrow(() -> new PiCodecException("pipeline has no slice meter")).size();
        Map<Long, PiMeterCellConfig> out = new LinkedHashMap<>();
        for (Map.Entry<Integer, List<TenantSlice>> e : slicesById(tenants).entrySet()) {
            for (TenantSlice x : e.getValue()) {
                long cell = x.cell(e.getKey());
                if (cell >= cells) {
                    throw new PiCodecException("tenant id " + e.getKey() + "'s slice of QFI " + x.qfi()
                                                       + " is beyond the slice meter's " + cells + " cells");
                }
                if (x.metered()) {
                    out.put(cell, bytesMeter(HUPF_INGRESS_TENANT_SLICE_METER, cell, x.rateBps(), x.burstBytes()));
                }
            }
        }
        return out;
    }

    private static PiMeterCellConfig bytesMeter(PiMeterId meter, long cell, long rateBps, long burstBytes) {
        long rate = rateBps / 8;
        return PiMeterCellConfig.builder().withMeterCellId(PiMeterCellId.ofIndirect(meter, cell))
                .withCommittedBand(rate, burstBytes).withPeakBand(rate, burstBytes).build();
    }

    /**
     * The class each DSCP the tenants and their slices mark stands for: a tenant's packet steered to a backend
     * carries its class as that DSCP, and {@code steering.backend_classes} gives it back when the packet returns.
     *
     * @param tenants tenants with their slices
     * @return traffic class by DSCP
     * @throws PiCodecException if two of them mark one DSCP with different classes
     */
    static Map<Integer, Integer> dscpClasses(Collection<Tenant> tenants) throws PiCodecException {
        Map<Integer, Integer> out = new TreeMap<>();
        for (Tenant x : tenants) {
            dscpClass(out, x.dscp(), x.tc(), "VNI " + x.vni());
            for (TenantSlice sl : x.slices()) {
                dscpClass(out, sl.dscp(), sl.tc(), "tenant id " + x.tenantId() + "'s QFI " + sl.qfi());
            }
        }
        return out;
    }

    private static void dscpClass(Map<Integer, Integer> out, int dscp, int tc, String who) throws PiCodecException {
        Integer other = out.putIfAbsent(dscp, tc);
        if (other != null && other != tc) {
            throw new PiCodecException(who + " marks DSCP " + dscp + " for class " + tc + ", another tenant or "
                                               + "slice for class " + other);
        }
    }

    /**
     * The {@code steering.backend_classes} entries of these tenants (hw): {@link #dscpClasses} as DSCP ->
     * {@code set_backend_class(tc)}.
     *
     * @param tenants tenants with their slices
     * @return table entries, by DSCP
     * @throws PiCodecException if a DSCP stands for two classes or a value does not fit
     */
    List<PiTableEntry> backendClassEntries(Collection<Tenant> tenants) throws PiCodecException {
        PiTableId t = HUPF_INGRESS_STEERING_BACKEND_CLASSES;
        List<PiTableEntry> out = new ArrayList<>();
        for (Map.Entry<Integer, Integer> e : dscpClasses(tenants).entrySet()) {
            out.add(PiTableEntry.builder().forTable(t)
                            .withMatchKey(PiMatchKey.builder().addFieldMatch(new PiExactFieldMatch(
                                    HDR_DSCP, codec.field(t, HDR_DSCP, e.getKey()))).build())
                            .withAction(codec.action(HUPF_INGRESS_STEERING_SET_BACKEND_CLASS, TC, e.getValue()))
                            .build());
        }
        tables.requireFits(t, out.size());
        return out;
    }

    /**
     * Makes the device's tenants these: the {@code tenants} and {@code slices} entries (and, hw, the
     * {@code backend_classes} their DSCPs stand for) replaced make before break (an entry already right is left
     * alone), then the tenant and slice meters' cells brought to the rates by a read and a diff (a cell nothing
     * meters any more is reset). A pipeline without the tenant table (the TNA program) is left alone.
     *
     * @param tenants tenants (one per VNI and VTEP) with their slices
     * @return entries and cells written or removed (0: nothing changed, or no tenant table)
     * @throws PiCodecException if a value does not fit, a key repeats or a table is too small
     * @throws PiTargetException if the device refuses an entry
     */
    int setTenants(Collection<Tenant> tenants) throws PiCodecException, PiTargetException {
        if (!codec.hasTable(HUPF_INGRESS_TENANT_TENANTS)) {
            return 0;
        }
        List<PiTableEntry> entries = tenantEntries(tenants);
        entries.addAll(sliceEntries(tenants));
        List<PiTableId> all = new ArrayList<>(List.of(HUPF_INGRESS_TENANT_TENANTS, HUPF_INGRESS_TENANT_SLICES));
        if (codec.hasTable(HUPF_INGRESS_STEERING_BACKEND_CLASSES)) {
            entries.addAll(backendClassEntries(tenants));
            all.add(HUPF_INGRESS_STEERING_BACKEND_CLASSES);
        }
        Map<Long, PiMeterCellConfig> cells = tenantMeterCells(tenants);
        Map<Long, PiMeterCellConfig> sliceCells = sliceMeterCells(tenants);
        int changes = tables.replace(all, entries);
        return changes + syncMeter(HUPF_INGRESS_TENANT_TENANT_METER, cells)
                + syncMeter(HUPF_INGRESS_TENANT_SLICE_METER, sliceCells);
    }

    /**
     * Brings a meter's cells to these configurations by a read and a diff: a cell held but not wanted is reset.
     *
     * @param meter the meter
     * @param cells the configurations wanted, by cell (consumed)
     * @return cells written
     * @throws PiTargetException if the read or a write fails
     */
    private int syncMeter(PiMeterId meter, Map<Long, PiMeterCellConfig> cells) throws PiTargetException {
        List<PiEntity> writeCells = new ArrayList<>();
        for (PiMeterCellConfig held : target.readMeter(meter)) {
            long id = held.cellId().index();
            PiMeterCellConfig wanted = cells.remove(id);
            if (wanted == null) {
                if (!held.isDefaultConfig()) {
                    writeCells.add(PiMeterCellConfig.reset(held.cellId()));
                }
            } else if (!sameBands(held, wanted)) {
                writeCells.add(wanted);
            }
        }
        // Cells the device did not list are written too.
        writeCells.addAll(cells.values());
        if (!writeCells.isEmpty()) {
            target.write(writeCells);
        }
        return writeCells.size();
    }

    private static boolean sameBands(PiMeterCellConfig a, PiMeterCellConfig b) {
        return !a.isDefaultConfig() && sameBand(a.committedBand(), b.committedBand())
                && sameBand(a.peakBand(), b.peakBand());
    }

    private static boolean sameBand(PiMeterBand a, PiMeterBand b) {
        return a != null && b != null && a.rate() == b.rate() && a.burst() == b.burst();
    }
}
