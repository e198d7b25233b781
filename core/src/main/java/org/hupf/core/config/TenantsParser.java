package org.hupf.core.config;

import com.fasterxml.jackson.databind.JsonNode;
import org.hupf.api.TenantOverlay;
import org.hupf.core.translation.SessionTenant;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.onlab.packet.Ip4Address;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.hupf.core.config.JsonFields.IPV4;
import static org.hupf.core.config.JsonFields.intIn;
import static org.hupf.core.config.JsonFields.ipv4;
import static org.hupf.core.config.JsonFields.list;
import static org.hupf.core.config.JsonFields.longIn;
import static org.hupf.core.config.JsonFields.mac;

/**
 * Parses the netcfg's {@code tenants} block: the VXLAN tenants with their slices, and the tenants sessions can be
 * bound to by Network Instance with their overlays.
 */
public final class TenantsParser {

    public static final String TENANTS = "tenants";
    static final String SLICES = "slices";
    private static final String NETWORK_INSTANCE = "networkInstance";
    private static final String OVERLAY = "overlay";
    /** A Network Instance is a DNS name or APN (TS 23.003 §9.1): at most 255 octets. */
    private static final int MAX_NETWORK_INSTANCE = 255;

    private TenantsParser() {
    }

    /**
     * Returns the VXLAN tenants ({@code tenants}: vni, vtep (the local VTEP, the outer IPv4 destination),
     * tenantId, tc, dscp, optionally rateBps with burstBytes for the tenant's meter, and optionally
     * {@code slices}: {@code [{qfi, tc, dscp[, rateBps, burstBytes]}]}, the class, DSCP and meter of the tenant's
     * packets of one QFI), written to every device whose pipeline has the tenant table.
     *
     * @param root the netcfg's hupf object
     * @return tenants, in the order given
     * @throws IllegalArgumentException naming the entry and the field that is wrong, a (vni, vtep) given twice,
     *                                  one tenantId given two meters or two sets of slices, a slice's QFI given
     *                                  twice, or one DSCP given two classes
     */
    public static List<Tenant> tenants(JsonNode root) {
        Map<String, Integer> keys = new HashMap<>();
        Map<Integer, Tenant> ids = new HashMap<>();
        Map<Integer, Map.Entry<Integer, String>> classes = new HashMap<>();
        List<Tenant> out = list(root, TENANTS, n -> {
            if (!n.isObject()) {
                throw new IllegalArgumentException("an object {vni, vtep, tenantId, tc, dscp} expected, got " + n);
            }
            Set<String> fields = new HashSet<>();
            n.fieldNames().forEachRemaining(fields::add);
            fields.removeAll(List.of("vni", "vtep", "tenantId", "tc", "dscp", "rateBps", "burstBytes", SLICES,
                                     NETWORK_INSTANCE, OVERLAY));
            if (!fields.isEmpty()) {
                throw new IllegalArgumentException("unknown field among " + fields);
            }
            for (String f : List.of("vni", "vtep", "tenantId", "tc", "dscp")) {
                if (!n.has(f)) {
                    throw new IllegalArgumentException(f + " is required");
                }
            }
            JsonNode vtep = n.get("vtep");
            if (!vtep.isTextual() || !IPV4.matcher(vtep.asText()).matches()) {
                throw new IllegalArgumentException("vtep: an IPv4 address expected, got " + vtep);
            }
            Ip4Address addr;
            try {
                addr = Ip4Address.valueOf(vtep.asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("vtep: an IPv4 address expected, got " + vtep);
            }
            long rate = longIn(n, "rateBps", 8, Long.MAX_VALUE);
            long burst = longIn(n, "burstBytes", 1, Integer.MAX_VALUE);
            if ((rate == 0) != (burst == 0)) {
                throw new IllegalArgumentException("rateBps and burstBytes go together (the tenant's meter)");
            }
            return new Tenant(intIn(n, "vni", 0, Tenant.MAX_VNI, 0), addr,
                              intIn(n, "tenantId", 0, Tenant.MAX_TENANT_ID, 0), intIn(n, "tc", 0, Tenant.MAX_TC, 0),
                              intIn(n, "dscp", 0, Tenant.MAX_DSCP, 0), rate, burst, slices(n));
        });
        for (int i = 0; i < out.size(); i++) {
            Tenant t = out.get(i);
            Integer first = keys.putIfAbsent(t.vni() + "@" + t.vtep(), i);
            if (first != null) {
                throw new IllegalArgumentException(TENANTS + "[" + i + "]: vni " + t.vni() + " at vtep " + t.vtep()
                                                           + " is already " + TENANTS + "[" + first + "]'s");
            }
            Tenant same = ids.putIfAbsent(t.tenantId(), t);
            if (same != null && (same.rateBps() != t.rateBps() || same.burstBytes() != t.burstBytes())) {
                throw new IllegalArgumentException(TENANTS + "[" + i + "]: tenantId " + t.tenantId()
                                                           + " has another meter (rateBps, burstBytes) earlier");
            }
            if (same != null && !same.slices().equals(t.slices())) {
                throw new IllegalArgumentException(TENANTS + "[" + i + "]: tenantId " + t.tenantId()
                                                           + " has other " + SLICES + " earlier");
            }
            String where = TENANTS + "[" + i + "]";
            oneClassPerDscp(classes, t.dscp(), t.tc(), where);
            for (int j = 0; j < t.slices().size(); j++) {
                TenantSlice x = t.slices().get(j);
                oneClassPerDscp(classes, x.dscp(), x.tc(), where + "." + SLICES + "[" + j + "]");
            }
        }
        return out;
    }

    /**
     * One class per DSCP among the tenants and slices: a steered packet's class comes back from the backend as its
     * DSCP ({@code steering.backend_classes}).
     */
    private static void oneClassPerDscp(Map<Integer, Map.Entry<Integer, String>> classes, int dscp, int tc,
                                        String where) {
        Map.Entry<Integer, String> first = classes.putIfAbsent(dscp, Map.entry(tc, where));
        if (first != null && first.getKey() != tc) {
            throw new IllegalArgumentException(where + ": dscp " + dscp + " with tc " + tc + ", but " + first.getValue()
                                                       + " gives it tc " + first.getKey() + " (one class per DSCP)");
        }
    }

    /** A tenant entry's {@code slices}: one per QFI, each with its class, DSCP and optional meter. */
    private static List<TenantSlice> slices(JsonNode tenant) {
        List<TenantSlice> out = list(tenant, SLICES, n -> {
            if (!n.isObject()) {
                throw new IllegalArgumentException("an object {qfi, tc, dscp} expected, got " + n);
            }
            Set<String> fields = new HashSet<>();
            n.fieldNames().forEachRemaining(fields::add);
            fields.removeAll(List.of("qfi", "tc", "dscp", "rateBps", "burstBytes"));
            if (!fields.isEmpty()) {
                throw new IllegalArgumentException("unknown field among " + fields);
            }
            for (String f : List.of("qfi", "tc", "dscp")) {
                if (!n.has(f)) {
                    throw new IllegalArgumentException(f + " is required");
                }
            }
            long rate = longIn(n, "rateBps", 8, Long.MAX_VALUE);
            long burst = longIn(n, "burstBytes", 1, Integer.MAX_VALUE);
            if ((rate == 0) != (burst == 0)) {
                throw new IllegalArgumentException("rateBps and burstBytes go together (the slice's meter)");
            }
            return new TenantSlice(intIn(n, "qfi", 0, TenantSlice.MAX_QFI, 0), intIn(n, "tc", 0, Tenant.MAX_TC, 0),
                                   intIn(n, "dscp", 0, Tenant.MAX_DSCP, 0), rate, burst);
        });
        Map<Integer, Integer> first = new HashMap<>();
        for (int i = 0; i < out.size(); i++) {
            Integer earlier = first.putIfAbsent(out.get(i).qfi(), i);
            if (earlier != null) {
                throw new IllegalArgumentException(SLICES + "[" + i + "]: qfi " + out.get(i).qfi() + " is already "
                                                           + SLICES + "[" + earlier + "]'s");
            }
        }
        return out;
    }

    /**
     * Reads a Network Instance's name (TS 29.244 §8.2.4: a DNN or another operator's label, 1 to 255 octets here).
     *
     * @param name the JSON value
     * @return the name
     * @throws IllegalArgumentException if it is not a string of that length
     */
    public static String networkInstanceName(JsonNode name) {
        if (!name.isTextual() || name.asText().isEmpty() || name.asText().length() > MAX_NETWORK_INSTANCE) {
            throw new IllegalArgumentException("a name of 1 to " + MAX_NETWORK_INSTANCE + " characters expected, got "
                                                       + name);
        }
        return name.asText();
    }

    /**
     * Returns the tenants sessions can be bound to: the {@code tenants} entries with a {@code networkInstance}
     * (the TS 29.244 Network Instance an SMF puts in an uplink PDI or a downlink FAR's Forwarding Parameters),
     * each with its optional {@code overlay} {@code {"vtepSrc", "vtepDst", "innerSrcMac", "innerDstMac"}}, the
     * VXLAN encapsulation towards its gNBs.
     *
     * @param root the netcfg's hupf object
     * @return tenants by network instance
     * @throws IllegalArgumentException naming the entry and the field that is wrong, a network instance given
     *                                  twice, or an overlay without a network instance
     */
    public static Map<String, SessionTenant> sessionTenants(JsonNode root) {
        List<Tenant> tenants = tenants(root);
        Map<String, SessionTenant> out = new LinkedHashMap<>();
        Map<String, Integer> first = new HashMap<>();
        List<JsonNode> entries = list(root, TENANTS, n -> n);
        for (int i = 0; i < entries.size(); i++) {
            JsonNode n = entries.get(i);
            String where = TENANTS + "[" + i + "]";
            JsonNode name = n.get(NETWORK_INSTANCE);
            if (name == null) {
                if (n.has(OVERLAY)) {
                    throw new IllegalArgumentException(where + ": " + OVERLAY + " needs a " + NETWORK_INSTANCE
                                                               + " (the sessions that take it)");
                }
                continue;
            }
            try {
                networkInstanceName(name);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + NETWORK_INSTANCE + ": " + e.getMessage());
            }
            Integer earlier = first.putIfAbsent(name.asText(), i);
            if (earlier != null) {
                throw new IllegalArgumentException(where + ": " + NETWORK_INSTANCE + " " + name + " is already "
                                                           + TENANTS + "[" + earlier + "]'s");
            }
            TenantOverlay overlay;
            try {
                overlay = n.has(OVERLAY) ? overlay(n.get(OVERLAY)) : null;
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + OVERLAY + ": " + e.getMessage());
            }
            out.put(name.asText(), new SessionTenant(name.asText(), tenants.get(i), overlay));
        }
        return out;
    }

    private static TenantOverlay overlay(JsonNode o) {
        List<String> names = List.of("vtepSrc", "vtepDst", "innerSrcMac", "innerDstMac");
        if (!o.isObject()) {
            throw new IllegalArgumentException("an object " + names + " expected, got " + o);
        }
        Set<String> fields = new HashSet<>();
        o.fieldNames().forEachRemaining(fields::add);
        fields.removeAll(names);
        if (!fields.isEmpty()) {
            throw new IllegalArgumentException("unknown field among " + fields);
        }
        for (String f : names) {
            if (!o.has(f)) {
                throw new IllegalArgumentException(f + " is required");
            }
        }
        return new TenantOverlay(ipv4(o, "vtepSrc"), ipv4(o, "vtepDst"), mac(o, "innerSrcMac"),
                                         mac(o, "innerDstMac"));
    }
}
