package org.hupf.core.impl;

import org.hupf.api.TenantStatus;
import org.hupf.api.session.PfcpSession;
import org.hupf.api.session.RuleException;
import org.hupf.core.translation.SessionTenant;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The tenants as {@code HupfService.tenants()} reports them, from the configuration, the stored sessions and
 * what the devices' tenant counters hold: the same in both hosts.
 */
public final class TenantReport {

    private TenantReport() {
    }

    /**
     * Reports each tenant entry.
     *
     * @param entries    the configuration's tenant entries, in order
     * @param bindable   the tenants sessions can be bound to, by network instance
     * @param sessions   the stored sessions
     * @param cells      each readable device's tenant counter, {packets, bytes} by tenant id
     * @param sliceCells each readable device's slice counter, {packets, bytes} by cell
     * @param unreadable each device whose counters could not be read, and why
     * @return one status per entry
     */
    public static List<TenantStatus> of(List<Tenant> entries, Map<String, SessionTenant> bindable,
                                 Collection<PfcpSession> sessions, Map<String, Map<Integer, long[]>> cells,
                                 Map<String, Map<Long, long[]>> sliceCells, Map<String, String> unreadable) {
        Map<String, Integer> bound = new HashMap<>();
        for (PfcpSession s : sessions) {
            try {
                SessionTenant t = SessionTranslator.tenantOf(s, bindable);
                if (t != null) {
                    bound.merge(t.networkInstance, 1, Integer::sum);
                }
            } catch (RuleException e) {
                // A stored session naming two tenants (the configuration changed since) is bound to neither.
            }
        }
        List<TenantStatus> out = new ArrayList<>();
        for (Tenant t : entries) {
            SessionTenant st = bindable.values().stream().filter(b -> b.entry.equals(t)).findFirst().orElse(null);
            Map<String, TenantStatus.Count> counters = new HashMap<>();
            cells.forEach((device, c) -> {
                long[] v = c.getOrDefault(t.tenantId(), new long[2]);
                counters.put(device, TenantStatus.Count.of(v[0], v[1]));
            });
            unreadable.forEach((device, why) -> counters.put(device, TenantStatus.Count.unreadable(why)));
            Map<Integer, Map<String, TenantStatus.Count>> slices = new HashMap<>();
            for (TenantSlice x : t.slices()) {
                Map<String, TenantStatus.Count> byDevice = new HashMap<>();
                sliceCells.forEach((device, c) -> {
                    long[] v = c.getOrDefault(x.cell(t.tenantId()), new long[2]);
                    byDevice.put(device, TenantStatus.Count.of(v[0], v[1]));
                });
                unreadable.forEach((device, why) -> byDevice.put(device, TenantStatus.Count.unreadable(why)));
                slices.put(x.qfi(), byDevice);
            }
            out.add(new TenantStatus(t, st == null ? null : st.networkInstance, st == null ? null : st.overlay,
                                     st == null ? 0 : bound.getOrDefault(st.networkInstance, 0), counters, slices));
        }
        return out;
    }
}
