package org.hupf.app.cli;

import org.apache.karaf.shell.api.action.Command;
import org.apache.karaf.shell.api.action.lifecycle.Service;
import org.hupf.api.TenantStatus;
import org.hupf.pipeconf.dataplane.TenantSlice;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Shows the VXLAN tenants of hupf's netcfg: each entry, the sessions bound to it, its counter summed over the
 * devices and on each one, then each of its slices with its counter likewise.
 */
@Service
@Command(scope = "hupf", name = "tenants",
        description = "Shows the VXLAN tenants: entry, network instance, overlay, bound sessions, packets and bytes, "
                + "and their slices")
public class TenantsCommand extends HupfCommand {

    @Override
    protected void doExecute() {
        List<TenantStatus> tenants = service().tenants();
        if (tenants.isEmpty()) {
            print("no VXLAN tenant");
            return;
        }
        for (TenantStatus t : tenants) {
            print("tenantId=%d vni=%d vtep=%s networkInstance=%s edgeVtep=%s sessions=%d%s",
                  t.tenant.tenantId(), t.tenant.vni(), t.tenant.vtep(),
                  t.networkInstance == null ? "none" : t.networkInstance,
                  t.overlay == null ? "none" : t.overlay.vtepDst, t.sessions, counts(t.counters));
            for (TenantSlice x : t.tenant.slices()) {
                print("  slice qfi=%d tc=%d dscp=%d%s", x.qfi(), x.tc(), x.dscp(),
                      counts(t.sliceCounters.getOrDefault(x.qfi(), Map.of())));
            }
        }
    }

    /** " packets=P bytes=B" summed over the devices, then each device's "packets/bytes" or its error. */
    private static String counts(Map<String, TenantStatus.Count> counters) {
        long packets = 0;
        long bytes = 0;
        StringBuilder devices = new StringBuilder();
        for (Map.Entry<String, TenantStatus.Count> d : new TreeMap<>(counters).entrySet()) {
            TenantStatus.Count c = d.getValue();
            devices.append(' ').append(d.getKey()).append('=')
                    .append(c.error != null ? "error(" + c.error + ")" : c.packets + "/" + c.bytes);
            packets += c.packets;
            bytes += c.bytes;
        }
        return " packets=" + packets + " bytes=" + bytes + devices;
    }
}
