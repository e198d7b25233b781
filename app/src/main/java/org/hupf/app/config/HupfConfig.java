package org.hupf.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.hupf.core.config.HeavyHitterParser;
import org.hupf.core.config.OffloadParser;
import org.hupf.core.config.PfcpParser;
import org.hupf.core.config.QosParser;
import org.hupf.core.config.RoutesParser;
import org.hupf.core.config.SitesParser;
import org.hupf.core.config.TenantsParser;
import org.hupf.api.OffloadPolicy;
import org.hupf.core.pfcp.PfcpConfig;
import org.hupf.core.rps.RpsSettings;
import org.hupf.core.translation.SessionTenant;
import org.hupf.core.translation.SessionTranslator;
import org.hupf.core.site.Site;
import org.hupf.pipeconf.dataplane.Backend;
import org.hupf.pipeconf.dataplane.HhConfig;
import org.hupf.pipeconf.dataplane.Route;
import org.hupf.pipeconf.dataplane.Tenant;
import org.onlab.packet.Ip4Address;
import org.onlab.packet.Ip4Prefix;
import org.onlab.packet.MacAddress;
import org.onosproject.net.DeviceId;
import org.onosproject.net.config.InvalidFieldException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import static org.hupf.core.config.JsonFields.fieldNames;
import static org.hupf.core.config.JsonFields.intIn;
import static org.hupf.core.config.JsonFields.list;

/**
 * hupf's network configuration ({@code apps.org.hupf.app.hupf}): devices and their role, N3 addresses,
 * UE pools, backend ports on the switch, routes, VXLAN tenants, the PFCP agent, heavy-hitter and classifier
 * settings, QoS, RPS, the sites. The blocks with more than a list of values have their own parser ({@link RoutesParser},
 * {@link TenantsParser}, {@link SitesParser}, {@link PfcpParser}, {@link QosParser}, {@link HeavyHitterParser}, {@link OffloadParser},
 * {@link RpsSettings}); this class reads the devices and addresses, checks the whole and answers for the blocks.
 * Examples are in netcfg/ at the repository root.
 */
public final class HupfConfig extends CheckedConfig {

    public static final String KEY = "hupf";

    static final String DEVICES = "devices";
    static final String N3_ADDRESSES = "n3Addresses";
    static final String UE_POOLS = "uePools";
    static final String BACKEND_PORTS = "backendPorts";
    static final String PFCP = PfcpParser.PFCP;
    static final String HEAVY_HITTER = HeavyHitterParser.HEAVY_HITTER;
    static final String OFFLOAD = OffloadParser.OFFLOAD;
    static final String CLASSIFIER = "classifier";
    static final String QFI_TO_TC = QosParser.QFI_TO_TC;
    static final String SLICE_ID = "sliceId";
    static final String RECONCILE_INTERVAL_S = "reconcileIntervalS";
    static final String ROUTES = RoutesParser.ROUTES;
    static final String TENANTS = TenantsParser.TENANTS;
    static final String QUEUES = QosParser.QUEUES;
    static final String RPS = "rps";
    static final String NETWORK_INSTANCES = "networkInstances";
    static final String SITES = SitesParser.SITES;

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
        /** The backend's own port on that link (default 1, hupf-backend's first data port). */
        public final long backendPort;
        public final String mac;
        /** Share of the slice's UEs the switch steers to this backend, relative to the others' (default 1). */
        public final int weight;

        BackendPort(DeviceId switchId, long port, DeviceId backendId, long backendPort, String mac, int weight) {
            this.switchId = switchId;
            this.port = port;
            this.backendId = backendId;
            this.backendPort = backendPort;
            this.mac = mac;
            this.weight = weight;
        }
    }

    /**
     * Checks a change of the sites against the stored sessions, throwing an IllegalArgumentException that names
     * what the change would strand ({@code SiteChange}); null where no session store is at hand (tools, tests).
     */
    private final Consumer<List<Site>> sitesChangeCheck;

    /** A netcfg checked on its own. */
    public HupfConfig() {
        this(null);
    }

    /**
     * A netcfg whose sites are also checked against the stored sessions.
     *
     * @param sitesChangeCheck refuses sites that would strand stored sessions (IllegalArgumentException)
     */
    public HupfConfig(Consumer<List<Site>> sitesChangeCheck) {
        this.sitesChangeCheck = sitesChangeCheck;
    }

    @Override
    protected void check() {
        boolean known;
        try {
            known = hasOnlyFields(DEVICES, N3_ADDRESSES, UE_POOLS, BACKEND_PORTS, PFCP, HEAVY_HITTER, OFFLOAD,
                                  CLASSIFIER, QFI_TO_TC, SLICE_ID, RECONCILE_INTERVAL_S, ROUTES, TENANTS, RPS,
                                  QUEUES, NETWORK_INSTANCES, SITES);
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
        checkSites();
        tenants();
        sessionTenants();
        networkInstances();
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
        if (sitesChangeCheck != null) {
            sitesChangeCheck.accept(sites());
        }
    }

    /**
     * Checks the sites against the rest: each site's switch and backends are devices of that role, every device
     * is at a site, a backend port joins a switch and a backend of one site, a site's N3 addresses are among
     * {@code n3Addresses}.
     */
    private void checkSites() {
        List<Site> sites = sites();
        if (sites.isEmpty()) {
            return;
        }
        Map<DeviceId, Role> roles = devices();
        Map<DeviceId, String> siteOf = new HashMap<>();
        for (Site site : sites) {
            if (site.switchId != null && roles.get(site.switchId) != Role.SWITCH) {
                throw new IllegalArgumentException(SITES + ": site " + site.id + "'s switch " + site.switchId
                                                           + " is not a switch among " + DEVICES);
            }
            for (DeviceId b : site.backends) {
                if (roles.get(b) != Role.BACKEND) {
                    throw new IllegalArgumentException(SITES + ": site " + site.id + "'s backend " + b
                                                               + " is not a backend among " + DEVICES);
                }
            }
            roles.keySet().stream().filter(site::holds).forEach(d -> siteOf.put(d, site.id));
            for (Ip4Address a : site.n3Addresses) {
                if (!n3Addresses().contains(a)) {
                    throw new IllegalArgumentException(SITES + ": site " + site.id + "'s N3 address " + a
                                                               + " is not among " + N3_ADDRESSES);
                }
            }
        }
        for (DeviceId d : roles.keySet()) {
            if (!siteOf.containsKey(d)) {
                throw new IllegalArgumentException(SITES + ": device " + d + " is at no site");
            }
        }
        for (BackendPort p : backendPorts()) {
            if (!siteOf.get(p.switchId).equals(siteOf.get(p.backendId))) {
                throw new IllegalArgumentException(BACKEND_PORTS + ": switch " + p.switchId + " (site "
                                                           + siteOf.get(p.switchId) + ") steers to backend "
                                                           + p.backendId + " of site " + siteOf.get(p.backendId));
            }
        }
    }

    /**
     * Returns the UPF sites ({@link SitesParser#sites}): each a switch with its own backends, and the gNBs,
     * N3 Network Instances and N3 addresses that place a session there.
     *
     * @return the sites in the order given; empty without the block (one implicit site: every device, every gNB)
     * @throws IllegalArgumentException naming the entry and the field that is wrong
     */
    public List<Site> sites() {
        return SitesParser.sites(object);
    }

    /**
     * @param cfg a netcfg in force, or null
     * @return its sites; none without one, or where they do not parse (one implicit site)
     */
    public static List<Site> sitesOf(HupfConfig cfg) {
        try {
            return cfg == null ? List.of() : cfg.sites();
        } catch (IllegalArgumentException e) {
            return List.of();
        }
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
                DeviceId.deviceId(n.path("backend").asText()), intIn(n, "backendPort", 1, 511, 1),
                n.path("mac").asText(),
                intIn(n, "weight", 1, Backend.MAX_WEIGHT, 1)));
    }

    /**
     * Returns the routes no PFCP session owns ({@link RoutesParser#routes}), as the lab writes them: towards the
     * gNBs and the data network, on the switch and on each backend.
     *
     * @return device and route, in the order given
     */
    public List<Map.Entry<DeviceId, Route>> routes() {
        return RoutesParser.routes(object);
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
     * Returns the VXLAN tenants ({@link TenantsParser#tenants}), written to every device whose pipeline has the
     * tenant table.
     *
     * @return tenants, in the order given
     * @throws IllegalArgumentException naming the entry and the field that is wrong
     */
    public List<Tenant> tenants() {
        return TenantsParser.tenants(object);
    }

    /**
     * Returns the tenants sessions can be bound to, by Network Instance ({@link TenantsParser#sessionTenants}).
     *
     * @return tenants by network instance
     * @throws IllegalArgumentException naming the entry and the field that is wrong
     */
    public Map<String, SessionTenant> sessionTenants() {
        return TenantsParser.sessionTenants(object);
    }

    /**
     * Returns the Network Instances a session's rules may name beside the tenants' ({@code networkInstances}, a
     * list of names; {@link SessionTranslator#DEFAULT_NETWORK_INSTANCES} when absent) and the sites' N3 Network
     * Instances: a rule naming another is refused.
     *
     * @return the names
     * @throws IllegalArgumentException naming the entry that is not a name
     */
    public Set<String> networkInstances() {
        Set<String> names = new HashSet<>(object.has(NETWORK_INSTANCES)
                ? list(object, NETWORK_INSTANCES, TenantsParser::networkInstanceName)
                : SessionTranslator.DEFAULT_NETWORK_INSTANCES);
        sites().forEach(site -> names.addAll(site.n3NetworkInstances));
        return names;
    }

    /**
     * Returns the PFCP agent settings ({@link PfcpParser#pfcp}).
     *
     * @param defaultNodeId Node ID if none is configured (the first N3 address)
     * @return settings
     */
    public PfcpConfig pfcp(Ip4Address defaultNodeId) {
        return PfcpParser.pfcp(object, defaultNodeId);
    }

    /**
     * Returns {@code qos.queues} as the netcfg gives it ({@link QosParser#queues}), written to every device with
     * the tenants; a class left out takes queue 0.
     *
     * @return queue (0..7) by traffic class (0..3), by class; empty without the field
     * @throws IllegalArgumentException naming the class that is not one or the queue out of range
     */
    public Map<Integer, Integer> queues() {
        return QosParser.queues(object);
    }

    /** @return QFI to traffic class */
    public Map<Integer, Integer> qfiToTc() {
        return QosParser.qfiToTc(object);
    }

    /**
     * Returns the fields the session core is built from (N3 addresses, UE pools, slice, QFI to traffic class,
     * PFCP, reconciliation period, Network Instances, sites) as one JSON string, to tell whether a netcfg change needs a new core: a change
     * of the others (devices, steering, HK-IPG, offload, routes, tenants, classifier) must keep the PFCP agent, its
     * associations and its Recovery Time Stamp (a new one tells the SMFs the UPF restarted, TS 29.244 §19A).
     *
     * @return the core's fields, in a fixed order
     */
    public String coreSettings() {
        ObjectNode core = mapper.createObjectNode();
        for (String f : List.of(N3_ADDRESSES, UE_POOLS, SLICE_ID, QFI_TO_TC, PFCP, RECONCILE_INTERVAL_S,
                                NETWORK_INSTANCES, SITES)) {
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
     * Returns the offload threshold ({@link HeavyHitterParser#hhThresholdBps}).
     *
     * @return bits per second
     */
    public long hhThresholdBps() {
        return HeavyHitterParser.hhThresholdBps(object);
    }

    /**
     * Returns the offload policy ({@link OffloadParser#offloadPolicy}).
     *
     * @return policy
     * @throws IllegalArgumentException naming the field that is wrong
     */
    public OffloadPolicy offloadPolicy() {
        return OffloadParser.offloadPolicy(object);
    }

    /**
     * Returns the switch's HK-IPG parameters ({@link HeavyHitterParser#hhConfig}).
     *
     * @return parameters
     * @throws IllegalArgumentException naming the field that is out of range
     */
    public HhConfig hhConfig() {
        return HeavyHitterParser.hhConfig(object);
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
