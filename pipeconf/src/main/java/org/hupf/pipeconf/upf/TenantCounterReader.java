package org.hupf.pipeconf.upf;

import org.hupf.pipeconf.dataplane.TenantSlice;
import org.onosproject.net.pi.runtime.PiCounterCell;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

import static org.hupf.pipeconf.HupfConstants.*;

/**
 * Reads what the VXLAN tenants and their slices counted ({@code tenant_counter}, {@code slice_counter}).
 */
final class TenantCounterReader {

    private final PiCodec codec;
    private final PiTarget target;

    TenantCounterReader(DataplaneTables tables) {
        this.codec = tables.codec();
        this.target = tables.target();
    }

    /**
     * Reads the tenant counter ({@code HupfIngress.tenant.tenant_counter}: the VXLAN frames of each tenant id as
     * received, counted before its meter) in one read.
     *
     * @return {packets, bytes} by tenant id, every cell the device returned; empty if the pipeline has no tenants
     * @throws PiTargetException if the read fails
     */
    Map<Integer, long[]> tenantCounters() throws PiTargetException {
        Map<Integer, long[]> out = new TreeMap<>();
        if (codec.model().counter(HUPF_INGRESS_TENANT_TENANT_COUNTER).isEmpty()) {
            return out;
        }
        for (PiCounterCell c : target.readCounter(HUPF_INGRESS_TENANT_TENANT_COUNTER, -1)) {
            out.put((int) c.cellId().index(), new long[]{c.data().packets(), c.data().bytes()});
        }
        return out;
    }

    /**
     * Reads these cells of the slice counter ({@code HupfIngress.tenant.slice_counter}: a slice's packets,
     * counted before its meter), one read each.
     *
     * @param cells slice cells ({@link TenantSlice#cell})
     * @return {packets, bytes} by cell; empty if the pipeline has no slice counter
     * @throws PiTargetException if a read fails
     */
    Map<Long, long[]> sliceCounters(Collection<Long> cells) throws PiTargetException {
        Map<Long, long[]> out = new TreeMap<>();
        if (codec.model().counter(HUPF_INGRESS_TENANT_SLICE_COUNTER).isEmpty()) {
            return out;
        }
        for (long cell : cells) {
            for (PiCounterCell c : target.readCounter(HUPF_INGRESS_TENANT_SLICE_COUNTER, cell)) {
                out.put(c.cellId().index(), new long[]{c.data().packets(), c.data().bytes()});
            }
        }
        return out;
    }
}
