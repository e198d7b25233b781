package org.hupf.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.pipeconf.dataplane.Tenant;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A VXLAN tenant of hupf's netcfg as REST and the CLI show it: its data-plane entry, the Network Instance that
 * binds sessions to it and their number, its overlay, and its counter ({@code HupfIngress.tenant.tenant_counter}
 * at its tenant id, shared by every entry of that id) on each device and summed.
 */
public final class TenantStatus {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** One device's counter cell of the tenant, or why it could not be read. */
    public static final class Count {
        public final long packets;
        public final long bytes;
        /** Null when the cell was read. */
        public final String error;

        private Count(long packets, long bytes, String error) {
            this.packets = packets;
            this.bytes = bytes;
            this.error = error;
        }

        public static Count of(long packets, long bytes) {
            return new Count(packets, bytes, null);
        }

        public static Count unreadable(String error) {
            return new Count(0, 0, Objects.requireNonNull(error));
        }
    }

    public final Tenant tenant;
    /** Null: the entry binds no session. */
    public final String networkInstance;
    /** Null: the tenant's gNBs are reached without VXLAN. */
    public final TenantOverlay overlay;
    /** Sessions bound to the tenant now. */
    public final int sessions;
    /** The tenant id's counter by device. */
    public final Map<String, Count> counters;

    public TenantStatus(Tenant tenant, String networkInstance, TenantOverlay overlay, int sessions,
                        Map<String, Count> counters) {
        this.tenant = Objects.requireNonNull(tenant);
        this.networkInstance = networkInstance;
        this.overlay = overlay;
        this.sessions = sessions;
        this.counters = Map.copyOf(counters);
    }

    /**
     * Encodes the status: the netcfg entry's fields, {@code "sessions"}, and {@code "counters"}: the packets and
     * bytes summed over the devices that answered, and {@code "devices"} with each one's (or its {@code "error"}).
     *
     * @return JSON object
     */
    public ObjectNode toJson() {
        ObjectNode o = MAPPER.createObjectNode().put("tenantId", tenant.tenantId()).put("vni", tenant.vni())
                .put("vtep", tenant.vtep().toString()).put("tc", tenant.tc()).put("dscp", tenant.dscp());
        if (tenant.metered()) {
            o.put("rateBps", tenant.rateBps()).put("burstBytes", tenant.burstBytes());
        }
        if (networkInstance != null) {
            o.put("networkInstance", networkInstance);
        }
        if (overlay != null) {
            o.putObject("overlay").put("vtepSrc", overlay.vtepSrc.toString()).put("vtepDst", overlay.vtepDst.toString())
                    .put("innerSrcMac", overlay.innerSrcMac.toString())
                    .put("innerDstMac", overlay.innerDstMac.toString());
        }
        o.put("sessions", sessions);
        ObjectNode c = o.putObject("counters");
        ObjectNode devices = MAPPER.createObjectNode();
        long packets = 0;
        long bytes = 0;
        for (Map.Entry<String, Count> d : new TreeMap<>(counters).entrySet()) {
            Count n = d.getValue();
            if (n.error != null) {
                devices.putObject(d.getKey()).put("error", n.error);
            } else {
                devices.putObject(d.getKey()).put("packets", n.packets).put("bytes", n.bytes);
                packets += n.packets;
                bytes += n.bytes;
            }
        }
        c.put("packets", packets).put("bytes", bytes).set("devices", devices);
        return o;
    }
}
