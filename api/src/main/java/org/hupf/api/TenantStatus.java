package org.hupf.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A VXLAN tenant of hupf's netcfg as REST and the CLI show it: its data-plane entry, the Network Instance that
 * binds sessions to it and their number, its overlay, and its counter ({@code HupfIngress.tenant.tenant_counter}
 * at its tenant id, shared by every entry of that id) on each device and summed; the same for each of its slices
 * ({@code HupfIngress.tenant.slice_counter} at the slice's cell).
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
    /** Each slice's counter by device, by QFI. */
    public final Map<Integer, Map<String, Count>> sliceCounters;

    public TenantStatus(Tenant tenant, String networkInstance, TenantOverlay overlay, int sessions,
                        Map<String, Count> counters, Map<Integer, Map<String, Count>> sliceCounters) {
        this.tenant = Objects.requireNonNull(tenant);
        this.networkInstance = networkInstance;
        this.overlay = overlay;
        this.sessions = sessions;
        this.counters = Map.copyOf(counters);
        this.sliceCounters = Map.copyOf(sliceCounters);
    }

    /**
     * Encodes the status: the netcfg entry's fields, {@code "sessions"}, and {@code "counters"}: the packets and
     * bytes summed over the devices that answered, and {@code "devices"} with each one's (or its {@code "error"});
     * {@code "slices"}: each slice's fields and its {@code "counters"} likewise.
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
        o.set("counters", counters(counters));
        if (!tenant.slices().isEmpty()) {
            ArrayNode slices = o.putArray("slices");
            for (TenantSlice x : tenant.slices()) {
                ObjectNode so = slices.addObject().put("qfi", x.qfi()).put("tc", x.tc()).put("dscp", x.dscp());
                if (x.metered()) {
                    so.put("rateBps", x.rateBps()).put("burstBytes", x.burstBytes());
                }
                so.set("counters", counters(sliceCounters.getOrDefault(x.qfi(), Map.of())));
            }
        }
        return o;
    }

    private static ObjectNode counters(Map<String, Count> counters) {
        ObjectNode c = MAPPER.createObjectNode();
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
        return c;
    }
}
