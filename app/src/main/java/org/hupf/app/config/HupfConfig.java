package org.hupf.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.api.OffloadPolicy;
import org.hupf.api.TenantOverlay;
import org.hupf.app.pfcp.PfcpConfig;
import org.hupf.app.rps.RpsSettings;
import org.hupf.app.session.SessionTenant;
import org.hupf.pipeconf.HupfConstants;
import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.dataplane.Tenant;
import org.hupf.pipeconf.dataplane.TenantSlice;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onosproject.core.ApplicationId;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.Config;
import org.onosproject.net.config.InvalidFieldException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * hupf's network configuration ({@code apps.org.hupf.app.hupf}): devices and their role, N3 addresses,
 * UE pools, backend ports on the switch, routes, VXLAN tenants, the PFCP agent, heavy-hitter and classifier
 * settings, QoS, RPS.
 * Examples are in netcfg/ at the repository root.
 */
public final class HupfConfig extends Config<ApplicationId> {

    public static final String KEY = "hupf";

    static final String DEVICES = "devices";
    static final String N3_ADDRESSES = "n3Addresses";
    static final String UE_POOLS = "uePools";
    static final String BACKEND_PORTS = "backendPorts";
    static final String PFCP = "pfcp";
    static final String HEAVY_HITTER = "heavyHitter";
    static final String OFFLOAD = "offload";
    static final String CLASSIFIER = "classifier";
    static final String QFI_TO_TC = "qfiToTc";
    static final String SLICE_ID = "sliceId";
    static final String RECONCILE_INTERVAL_S = "reconcileIntervalS";
    static final String ROUTES = "routes";
    static final String TENANTS = "tenants";
    static final String SLICES = "slices";
    static final String QUEUES = "queues";
    private static final String NETWORK_INSTANCE = "networkInstance";
    private static final String OVERLAY = "overlay";
    /** A Network Instance is a DNS name or APN (TS 23.003 §9.1): at most 255 octets. */
    private static final int MAX_NETWORK_INSTANCE = 255;
    /** The highest v1model priority (qos.queues' qid, bit&lt;3&gt;). */
    private static final int MAX_QUEUE = 7;
    static final String RPS = "rps";
    /** Offload threshold without {@code heavyHitter.thresholdBps}: the offload policy's default. */
    private static final long DEFAULT_HH_THRESHOLD_BPS = 2_000_000;
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /** What a device does in the hybrid UPF. */
    public enum Role {
        SWITCH,
        BACKEND
    }

    /** A switch port that leads to a backend, and the MAC the backend answers on. */
    public static final class BackendPort {
        public final DeviceId switchId;
        public final long port;
        public final DeviceId backendId;
        public final String mac;
        /** Share of the slice's UEs the switch steers to this backend, relative to the others' (default 1). */
        public final int weight;

        BackendPort(DeviceId switchId, long port, DeviceId backendId, String mac, int weight) {
            this.switchId = switchId;
            this.port = port;
            this.backendId = backendId;
            this.mac = mac;
            this.weight = weight;
        }
    }

    private String error;

    @Override
    public boolean isValid() {
        error = null;
        try {
            validate();
            return true;
        } catch (IllegalArgumentException e) {
            error = e.getMessage();
            return false;
        }
    }

    /** @return why the last {@link #isValid()} failed, or null */
    public String error() {
        return error;
    }

    private void validate() {
        boolean known;
        try {
            known = hasOnlyFields(DEVICES, N3_ADDRESSES, UE_POOLS, BACKEND_PORTS, PFCP, HEAVY_HITTER, OFFLOAD,
                                  CLASSIFIER, QFI_TO_TC, SLICE_ID, RECONCILE_INTERVAL_S, ROUTES, TENANTS, RPS,
                                  QUEUES);
        } catch (InvalidFieldException e) {
            known = false;
        }
        if (!known) {
            throw new IllegalArgumentException("unknown field among " + fieldNames(object));
        }
        devices();
        if (n3Addresses().isEmpty()) {
            throw new IllegalArgumentException(N3_ADDRESSES + ": at least one address is required");
        }
        if (uePools().isEmpty()) {
            throw new IllegalArgumentException(UE_POOLS + ": at least one pool is required");
        }
        Set<DeviceId> backends = new HashSet<>();
        devices().forEach((id, role) -> {
            if (role == Role.BACKEND) {
                backends.add(id);
            }
        });
        for (BackendPort p : backendPorts()) {
            if (devices().get(p.switchId) != Role.SWITCH) {
                throw new IllegalArgumentException(BACKEND_PORTS + ": " + p.switchId + " is not a switch");
            }
            if (!backends.contains(p.backendId)) {
                throw new IllegalArgumentException(BACKEND_PORTS + ": " + p.backendId + " is not a backend");
            }
            try {
                MacAddress.valueOf(p.mac);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(BACKEND_PORTS + ": mac of " + p.backendId + " on port " + p.port
                                                           + " is not a MAC address: '" + p.mac + "'");
            }
        }
        Map<DeviceId, Set<Ip4Prefix>> routed = new HashMap<>();
        for (Map.Entry<DeviceId, Route> r : routes()) {
            if (!devices().containsKey(r.getKey())) {
                throw new IllegalArgumentException(ROUTES + ": " + r.getKey() + " is not among " + DEVICES);
            }
            if (!routed.computeIfAbsent(r.getKey(), d -> new HashSet<>()).add(r.getValue().prefix())) {
                throw new IllegalArgumentException(ROUTES + ": two routes for " + r.getValue().prefix() + " on "
                                                           + r.getKey());
            }
        }
        tenants();
        sessionTenants();
        queues();
        pfcp(n3Addresses().get(0));
        qfiToTc();
        intIn(object, SLICE_ID, 0, 15, 0);
        intIn(object, RECONCILE_INTERVAL_S, 1, 3600, 30);
        hhConfig();
        offloadPolicy();
        rps();
        JsonNode cl = object.path(CLASSIFIER);
        if (!cl.isMissingNode()) {
            intIn(cl, "windowMs", 1, 3_600_000, 1000);
        }
    }

    private static String fieldNames(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out.toString();
    }

    private static int intIn(JsonNode n, String field, long min, long max, int dflt) {
        JsonNode v = n.get(field);
        if (v == null) {
            return dflt;
        }
        if (!v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            throw new IllegalArgumentException(field + ": integer in [" + min + ", " + max + "] expected, got " + v);
        }
        return v.asInt();
    }

    private static <T> List<T> list(JsonNode n, String field, java.util.function.Function<JsonNode, T> parse) {
        List<T> out = new ArrayList<>();
        JsonNode a = n.get(field);
        if (a == null) {
            return out;
        }
        if (!a.isArray()) {
            throw new IllegalArgumentException(field + ": a list is expected");
        }
        int i = 0;
        for (JsonNode e : a) {
            try {
                out.add(parse.apply(e));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(field + "[" + i + "]: " + ex.getMessage());
            }
            i++;
        }
        return out;
    }

    /** @return device id to role */
    public Map<DeviceId, Role> devices() {
        Map<DeviceId, Role> out = new HashMap<>();
        for (JsonNode d : list(object, DEVICES, d -> d)) {
            String role = d.path("role").asText("");
            if (!role.equals("switch") && !role.equals("backend")) {
                throw new IllegalArgumentException(DEVICES + ": role must be switch or backend, got '" + role + "'");
            }
            out.put(DeviceId.deviceId(d.path("deviceId").asText()), Role.valueOf(role.toUpperCase()));
        }
        return out;
    }

    public List<Ip4Address> n3Addresses() {
        return list(object, N3_ADDRESSES, n -> Ip4Address.valueOf(n.asText()));
    }

    public List<Ip4Prefix> uePools() {
        return list(object, UE_POOLS, n -> Ip4Prefix.valueOf(n.asText()));
    }

    public List<BackendPort> backendPorts() {
        return list(object, BACKEND_PORTS, n -> new BackendPort(
                DeviceId.deviceId(n.path("switch").asText()), intIn(n, "port", 0, 511, -1),
                DeviceId.deviceId(n.path("backend").asText()), n.path("mac").asText(),
                intIn(n, "weight", 1, Backend.MAX_WEIGHT, 1)));
    }

    /**
     * Returns the routes no PFCP session owns ({@code routes}: deviceId, prefix, port, srcMac, dstMac), as the
     * lab writes them: towards the gNBs and the data network, on the switch and on each backend.
     *
     * @return device and route, in the order given
     */
    public List<Map.Entry<DeviceId, Route>> routes() {
        return list(object, ROUTES, n -> {
            if (!n.path("deviceId").isTextual() || !n.has("port")) {
                throw new IllegalArgumentException("deviceId, prefix, port, srcMac and dstMac are required");
            }
            Ip4Prefix prefix;
            try {
                prefix = Ip4Prefix.valueOf(n.path("prefix").asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("prefix: an IPv4 prefix expected, got " + n.get("prefix"));
            }
            return Map.entry(DeviceId.deviceId(n.get("deviceId").asText()),
                             new Route(prefix, intIn(n, "port", 0, 511, 0), mac(n, "srcMac"), mac(n, "dstMac")));
        });
    }

    /**
     * Returns the routes of one device.
     *
     * @param device device
     * @return its routes
     */
    public List<Route> routes(DeviceId device) {
        List<Route> out = new ArrayList<>();
        routes().stream().filter(r -> r.getKey().equals(device)).forEach(r -> out.add(r.getValue()));
        return out;
    }

    /**
     * Returns the VXLAN tenants ({@code tenants}: vni, vtep (the local VTEP, the outer IPv4 destination),
     * tenantId, tc, dscp, optionally rateBps with burstBytes for the tenant's meter, and optionally
     * {@code slices}: {@code [{qfi, tc, dscp[, rateBps, burstBytes]}]}, the class, DSCP and meter of the tenant's
     * packets of one QFI), written to every device whose pipeline has the tenant table.
     *
     * @return tenants, in the order given
     * @throws IllegalArgumentException naming the entry and the field that is wrong, a (vni, vtep) given twice,
     *                                  one tenantId given two meters or two sets of slices, a slice's QFI given
     *                                  twice, or one DSCP given two classes
     */
    public List<Tenant> tenants() {
        Map<String, Integer> keys = new HashMap<>();
        Map<Integer, Tenant> ids = new HashMap<>();
        Map<Integer, Map.Entry<Integer, String>> classes = new HashMap<>();
        List<Tenant> out = list(object, TENANTS, n -> {
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
     * Returns the tenants sessions can be bound to: the {@code tenants} entries with a {@code networkInstance}
     * (the TS 29.244 Network Instance an SMF puts in an uplink PDI or a downlink FAR's Forwarding Parameters),
     * each with its optional {@code overlay} {@code {"vtepSrc", "vtepDst", "innerSrcMac", "innerDstMac"}}, the
     * VXLAN encapsulation towards its gNBs.
     *
     * @return tenants by network instance
     * @throws IllegalArgumentException naming the entry and the field that is wrong, a network instance given
     *                                  twice, or an overlay without a network instance
     */
    public Map<String, SessionTenant> sessionTenants() {
        List<Tenant> tenants = tenants();
        Map<String, SessionTenant> out = new LinkedHashMap<>();
        Map<String, Integer> first = new HashMap<>();
        List<JsonNode> entries = list(object, TENANTS, n -> n);
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
            if (!name.isTextual() || name.asText().isEmpty() || name.asText().length() > MAX_NETWORK_INSTANCE) {
                throw new IllegalArgumentException(where + ": " + NETWORK_INSTANCE + ": a name of 1 to "
                                                           + MAX_NETWORK_INSTANCE + " characters expected, got "
                                                           + name);
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

    private static Ip4Address ipv4(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual() || !IPV4.matcher(v.asText()).matches()) {
            throw new IllegalArgumentException(field + ": an IPv4 address expected, got " + v);
        }
        try {
            return Ip4Address.valueOf(v.asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": an IPv4 address expected, got " + v);
        }
    }

    /** An optional positive integer field, 0 when absent. */
    private static long longIn(JsonNode n, String field, long min, long max) {
        JsonNode v = n.get(field);
        if (v == null) {
            return 0;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < min || v.asLong() > max) {
            throw new IllegalArgumentException(field + ": integer in [" + min + ", " + max + "] expected, got " + v);
        }
        return v.asLong();
    }

    private static MacAddress mac(JsonNode n, String field) {
        try {
            return MacAddress.valueOf(n.path(field).asText());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(field + ": a MAC address expected, got " + n.get(field));
        }
    }

    /**
     * Returns the PFCP agent settings.
     *
     * @param defaultNodeId Node ID if none is configured (the first N3 address)
     * @return settings
     */
    public PfcpConfig pfcp(Ip4Address defaultNodeId) {
        JsonNode p = object.path(PFCP);
        Set<String> allowed = new HashSet<>();
        list(p, "allowedPeers", HupfConfig::allowedPeer).forEach(allowed::addAll);
        String nodeId = p.path("nodeId").asText(defaultNodeId.toString());
        return new PfcpConfig(listenAddress(p, nodeId),
                              intIn(p, "port", 0, 65535, PfcpConfig.PFCP_PORT),
                              nodeId, allowed,
                              intIn(p, "heartbeatIntervalMs", 0, Integer.MAX_VALUE, 10_000),
                              intIn(p, "t1Ms", 1, 60_000, 3000), intIn(p, "n1", 1, 10, 3), 60_000,
                              intIn(p, "reportTickMs", 10, 60_000, 1000));
    }

    /**
     * The N4 address the PFCP agent binds: {@code pfcp.listenAddress}, else the Node ID when it is an IPv4
     * address (the address SMFs send to); a Node ID that is an FQDN needs an explicit listenAddress.
     */
    private static String listenAddress(JsonNode p, String nodeId) {
        String listen = p.path("listenAddress").asText(null);
        if (listen == null) {
            if (!IPV4.matcher(nodeId).matches()) {
                throw new IllegalArgumentException(PFCP + ".listenAddress: required when " + PFCP
                                                           + ".nodeId is not an IPv4 address (" + nodeId + ")");
            }
            listen = nodeId;
        }
        if (!IPV4.matcher(listen).matches()) {
            throw new IllegalArgumentException(PFCP + ".listenAddress: an IPv4 address, got " + listen);
        }
        Ip4Address.valueOf(listen);
        return listen;
    }

    /**
     * Reads one allowed SMF: {@code "NODE-ID"} or {@code "NODE-ID@ADDRESS"} (see PeerAllowlist), or
     * {@code {"nodeId": "...", "addresses": ["...", ...]}}.
     */
    private static List<String> allowedPeer(JsonNode n) {
        if (n.isTextual()) {
            return List.of(n.asText());
        }
        if (!n.isObject() || !n.path("nodeId").isTextual()) {
            throw new IllegalArgumentException("a Node ID, NODE-ID@ADDRESS or {\"nodeId\", \"addresses\"} expected");
        }
        List<String> out = list(n, "addresses", a -> {
            if (!a.isTextual()) {
                throw new IllegalArgumentException("an IP address expected, got " + a);
            }
            return n.get("nodeId").asText() + "@" + a.asText();
        });
        if (out.isEmpty()) {
            throw new IllegalArgumentException("addresses: at least one address is required");
        }
        return out;
    }

    /**
     * Returns {@code qos.queues} as the netcfg gives it ({@code queues}: {@code {"tc": queue}}, the v1model
     * priority of each traffic class: bmv2's priority queue, the backend's egress queue on a port with a rate),
     * written to every device with the tenants; a class left out takes queue 0.
     *
     * @return queue (0..7) by traffic class (0..3), by class; empty without the field
     * @throws IllegalArgumentException naming the class that is not one or the queue out of range
     */
    public Map<Integer, Integer> queues() {
        Map<Integer, Integer> out = new TreeMap<>();
        JsonNode m = object.path(QUEUES);
        if (!m.isMissingNode() && !m.isObject()) {
            throw new IllegalArgumentException(QUEUES + ": an object {\"tc\": queue} expected, got " + m);
        }
        Iterator<Map.Entry<String, JsonNode>> it = m.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            int tc;
            try {
                tc = Integer.parseInt(e.getKey());
            } catch (NumberFormatException ex) {
                tc = -1;
            }
            if (tc < 0 || tc > Tenant.MAX_TC) {
                throw new IllegalArgumentException(QUEUES + ": key " + e.getKey() + " is not a traffic class (0 to "
                                                           + Tenant.MAX_TC + ")");
            }
            JsonNode q = e.getValue();
            if (!q.isInt() || q.asInt() < 0 || q.asInt() > MAX_QUEUE) {
                throw new IllegalArgumentException(QUEUES + ": " + e.getKey() + ": a queue in [0, " + MAX_QUEUE
                                                           + "] expected, got " + q);
            }
            out.put(tc, q.asInt());
        }
        return out;
    }

    /** @return QFI to traffic class */
    public Map<Integer, Integer> qfiToTc() {
        Map<Integer, Integer> out = new HashMap<>();
        JsonNode m = object.path(QFI_TO_TC);
        Iterator<Map.Entry<String, JsonNode>> it = m.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            int qfi;
            try {
                qfi = Integer.parseInt(e.getKey());
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException(QFI_TO_TC + ": key " + e.getKey() + " is not a QFI");
            }
            if (qfi < 0 || qfi > 63 || !e.getValue().isInt() || e.getValue().asInt() < 0 || e.getValue().asInt() > 3) {
                throw new IllegalArgumentException(QFI_TO_TC + ": QFI in [0, 63] to class in [0, 3] expected at "
                                                           + e.getKey());
            }
            out.put(qfi, e.getValue().asInt());
        }
        return out;
    }

    /**
     * Returns the fields the session core is built from (N3 addresses, UE pools, slice, QFI to traffic class,
     * PFCP, reconciliation period) as one JSON string, to tell whether a netcfg change needs a new core: a change
     * of the others (devices, steering, HK-IPG, offload, routes, tenants, classifier) must keep the PFCP agent, its
     * associations and its Recovery Time Stamp (a new one tells the SMFs the UPF restarted, TS 29.244 §19A).
     *
     * @return the core's fields, in a fixed order
     */
    public String coreSettings() {
        ObjectNode core = mapper.createObjectNode();
        for (String f : List.of(N3_ADDRESSES, UE_POOLS, SLICE_ID, QFI_TO_TC, PFCP, RECONCILE_INTERVAL_S)) {
            if (object.has(f)) {
                core.set(f, object.get(f));
            }
        }
        return core.toString();
    }

    public int sliceId() {
        return intIn(object, SLICE_ID, 0, 15, 0);
    }

    public int reconcileIntervalSeconds() {
        return intIn(object, RECONCILE_INTERVAL_S, 1, 3600, 30);
    }

    /**
     * Returns the offload threshold: a UE above it is a heavy hitter, for the offload manager's policy and for
     * the switch's HK-IPG detector alike ({@code heavyHitter.thresholdBps}).
     *
     * @return bits per second
     */
    public long hhThresholdBps() {
        JsonNode v = object.path(HEAVY_HITTER).get("thresholdBps");
        if (v == null) {
            return DEFAULT_HH_THRESHOLD_BPS;
        }
        if (!v.isIntegralNumber() || v.asLong() <= 0) {
            throw new IllegalArgumentException(HEAVY_HITTER + ".thresholdBps: a positive integer expected, got " + v);
        }
        return v.asLong();
    }

    /**
     * Returns the offload policy: the threshold {@link #hhThresholdBps()}, and from {@code offload}:
     * {@code holdMs}, {@code hysteresis} (a fraction of the threshold) and {@code pins}
     * ({@code {"slices"|"qfis"|"ues": {key: "HARDWARE"|"SOFTWARE"}}}), the policy's defaults where absent.
     *
     * @return policy
     * @throws IllegalArgumentException naming the field that is wrong
     */
    public OffloadPolicy offloadPolicy() {
        JsonNode o = object.path(OFFLOAD);
        OffloadPolicy.Builder b = OffloadPolicy.builder().thresholdBitsPerSec(hhThresholdBps());
        if (o.has("holdMs")) {
            b.holdMillis(intIn(o, "holdMs", 0, 3_600_000, 0));
        }
        JsonNode h = o.get("hysteresis");
        if (h != null) {
            if (!h.isNumber() || h.asDouble() < 0 || h.asDouble() > 10) {
                throw new IllegalArgumentException(OFFLOAD + ".hysteresis: a number in [0, 10] expected, got " + h);
            }
            b.hysteresis(h.asDouble());
        }
        JsonNode pins = o.path("pins");
        pins.fieldNames().forEachRemaining(kind -> {
            if (!List.of("slices", "qfis", "ues").contains(kind)) {
                throw new IllegalArgumentException(OFFLOAD + ".pins: slices, qfis or ues, got " + kind);
            }
        });
        pins.path("slices").fields().forEachRemaining(
                f -> b.pinSlice(pinKey("slices", f.getKey(), 15), pin("slices", f)));
        pins.path("qfis").fields().forEachRemaining(f -> b.pinQfi(pinKey("qfis", f.getKey(), 63), pin("qfis", f)));
        pins.path("ues").fields().forEachRemaining(f -> {
            if (!IPV4.matcher(f.getKey()).matches()) {
                throw new IllegalArgumentException(OFFLOAD + ".pins.ues: an IPv4 address, got " + f.getKey());
            }
            b.pinUe(Ip4Address.valueOf(f.getKey()), pin("ues", f));
        });
        return b.build();
    }

    private static int pinKey(String kind, String key, int max) {
        try {
            int v = Integer.parseInt(key);
            if (v >= 0 && v <= max) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(OFFLOAD + ".pins." + kind + ": an integer in [0, " + max + "], got " + key);
    }

    private static OffloadPolicy.Pin pin(String kind, Map.Entry<String, JsonNode> f) {
        String v = f.getValue().asText();
        if (!v.equals("HARDWARE") && !v.equals("SOFTWARE")) {
            throw new IllegalArgumentException(OFFLOAD + ".pins." + kind + "." + f.getKey()
                                                       + ": HARDWARE or SOFTWARE, got " + f.getValue());
        }
        return OffloadPolicy.Pin.valueOf(v);
    }

    /**
     * Returns the switch's HK-IPG parameters: {@code heavyHitter.tauThreshold}, {@code alphaShift},
     * {@code timeslotUs} (a power of two), {@code keyMode} (ue or 5tuple), {@code windowUs} and
     * {@code packetBytes} (for the tau table), with the P4 program's defaults where absent, and the offload
     * threshold {@link #hhThresholdBps()}.
     *
     * @return parameters
     * @throws IllegalArgumentException naming the field that is out of range
     */
    public HhConfig hhConfig() {
        JsonNode hh = object.path(HEAVY_HITTER);
        HhConfig.Builder b = HhConfig.builder().hhThresholdBps(hhThresholdBps());
        if (hh.has("tauThreshold")) {
            b.tauTh(intIn(hh, "tauThreshold", 1, 65535, 0));
        }
        if (hh.has("alphaShift")) {
            b.alphaShift(intIn(hh, "alphaShift", 1, 15, 0));
        }
        if (hh.has("timeslotUs")) {
            b.timeslotUs(intIn(hh, "timeslotUs", 1, Integer.MAX_VALUE, 0));
        }
        if (hh.has("windowUs")) {
            b.timeWindowUs(intIn(hh, "windowUs", 1, Integer.MAX_VALUE, 0));
        }
        if (hh.has("packetBytes")) {
            b.packetBytes(intIn(hh, "packetBytes", 64, 9216, 0));
        }
        String mode = hh.path("keyMode").asText("ue");
        if (!mode.equals("ue") && !mode.equals("5tuple")) {
            throw new IllegalArgumentException(HEAVY_HITTER + ".keyMode: ue or 5tuple, got " + mode);
        }
        b.keyMode(mode.equals("ue") ? HupfConstants.HH_KEY_UE_ADDR : HupfConstants.HH_KEY_5TUPLE);
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(HEAVY_HITTER + ": " + e.getMessage());
        }
    }

    /** @return the classifier settings as given */
    public JsonNode classifier() {
        return object.path(CLASSIFIER);
    }

    /**
     * Returns the RPS settings ({@code rps}, the format {@link RpsSettings} describes): what the switch (and a
     * backend playing it) is given in {@code rps.config} and {@code rps.flows}, and where the records go.
     *
     * @return settings, {@link RpsSettings#OFF} without the block
     * @throws IllegalArgumentException naming the field that is wrong
     */
    public RpsSettings rps() {
        return RpsSettings.parse(object.get(RPS));
    }
}
